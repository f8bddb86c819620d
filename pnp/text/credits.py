"""The credits a kit prints (the rulebook's cover, the box): who designed the game, who made its art, who
publishes it, and game.yaml's further ``credits``, in the words of the kit's language."""

from __future__ import annotations

from pnp.text.markup import fill


def credit_lines(game, words: dict, book: bool = False) -> list[str]:
    """Markup lines, one per credit (data escaped): design, art, publisher, then each further credit (with
    ``book``, those game.yaml prints on the rulebook's cover only too)."""
    lines = []
    for key, name in (("credits_design", game.author), ("credits_art", game.artist),
                      ("credits_publisher", game.publisher)):
        if name:
            lines.append(fill(words.get(key, DEFAULTS[key]), name=name))
    for role, name in (*game.credits, *(getattr(game, "book_credits", ()) if book else ())):
        lines.append(fill(words.get("credits_role", DEFAULTS["credits_role"]), role=role, name=name))
    return lines


#: The English words, should a strings file lack them (validation reports a missing string).
DEFAULTS = {"credits_design": "Design: {name}", "credits_art": "Art: {name}",
            "credits_publisher": "Published by {name}", "credits_role": "{role}: {name}"}
