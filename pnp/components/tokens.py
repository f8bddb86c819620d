"""Token sheets (fold or glue) from tokens.yaml."""

from __future__ import annotations

from pnp.components import BuildOptions, Component, Output, register
from pnp.draw.text import fit
from pnp.i18n import strings
from pnp.layout.geometry import Text
from pnp.layout.tokens import front_area, plan, sheet_pages, token_face
from pnp.tokendata import load_tokens


def faces(game, token_set, lang=None) -> dict:
    result = {}
    for t in token_set.tokens:
        faction = game.faction(t.faction) if t.faction else None
        sides = []
        for face in (t.front, t.back):
            caption = face.caption
            if caption == "faction" and faction:
                caption = faction.name
            sides.append(token_face(face, t.shape, t.size, token_set.bleed, faction.colour if faction else None,
                                    caption))
        result[t.id] = tuple(sides)
    return result


def build(game, options: BuildOptions) -> list[Output]:
    token_set = load_tokens(game)
    words = strings(game, options.lang)
    w, h = options.page_size
    token_plan = plan(token_set.tokens, w, h, token_set.gap, token_set.fold_gutter)
    pages = sheet_pages(token_plan, faces(game, token_set, options.lang), token_set.bleed,
                        words.get("token_fold_note", ""))
    return [Output("tokens.pdf", words.get("tokens", "Tokens"), pages)]


def check(game, problems, options: BuildOptions | None = None) -> None:
    token_set = load_tokens(game, problems)
    if token_set is None:
        if not (game.root / "tokens.yaml").is_file():
            problems.error(*game.where("components"), "components",
                           "the kit lists 'tokens' but the game has no tokens.yaml")
        return
    for paper in ("letter", "a4"):
        w, h = BuildOptions(paper=paper).page_size
        area = front_area(w, h, token_set.fold_gutter)
        for t in token_set.tokens:
            if t.size > min(area.w, area.h):
                problems.error(token_set.path, t.line, f"token '{t.id}'",
                               f"size: {t.size:g} mm is larger than the half sheet it prints on "
                               f"({area.w:.1f} x {area.h:.1f} mm on {paper})")
    for t in token_set.tokens:
        for side, face in (("front", t.front), ("back", t.back)):
            for el in token_face(face, t.shape, t.size, 0, "#000000",
                                 game.faction(t.faction).name if face.caption == "faction" and t.faction
                                 else face.caption):
                if isinstance(el, Text) and not fit(el.markup, el.style, el.rect.w, el.rect.h).ok:
                    problems.error(token_set.path, t.line, f"token '{t.id}'",
                                   f"{side}.caption {el.markup!r} does not fit a {t.size:g} mm token")


register(Component("tokens", build, check, order=40))
