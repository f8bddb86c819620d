"""``pnp build --preset drivethrucards``: a print service's files instead of the kit.

For each deck, one PDF with every card's back then its face (DriveThruCards' card specification: page 1
the back of card 1, page 2 its front), each page the service's trim plus bleed with
TrimBox and BleedBox, as CMYK PDF/X-1a:2003 (:mod:`pnp.draw.pdfx`, :mod:`pnp.draw.cmyk`); what the file cannot
hold stops the build before anything is written, every problem at its file and line. The service's card
sizes, bleeds and safe zones are :mod:`pnp.exports.presets`'.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pnp.components import BuildOptions
from pnp.draw.icons import for_game
from pnp.draw.merge import tag_font_subsets
from pnp.draw.pdf import render
from pnp.errors import DataError, Problem, Problems
from pnp.validation.checks import validate_game
from pnp.build.output import write_atomically


def build_print_shop(game_arg, out_dir, options: BuildOptions, preset) -> tuple[list[Path], list]:
    """A print service's files (``pnp build --preset``): for each deck, one PDF with every card's back then
    its face (a double-sided card's side B then its side A), each on a page of the service's trim plus bleed with TrimBox and BleedBox, as CMYK
    PDF/X-1a:2003 (``<preset>.pdf``, or ``<preset>-<deck id>.pdf`` for each deck of a game with several).
    Returns the files and a warning for every face whose text or icons leave the service's safe zone and
    for every colour the press cannot print within ΔE 8 (:func:`pnp.draw.cmyk.gamut_warnings`). What the
    file cannot hold stops the build before anything is written, every problem at its file and line: a
    deck of a card size the service does not print, a picture that is not CMYK (or grey) on a card
    (:func:`pnp.exports.presets.print_shop_problems`), anything else PDF/X-1a refuses on a card's page."""
    from pnp.components.cards import back_elements, card_key, copy_mark, deck_faces
    from pnp.exports.cards import back_bleed_warnings, preset_bleed, safe_zone_warnings
    from pnp.draw.cmyk import Separation, gamut_warnings
    from pnp.draw.pdfx import PdfxRefusal, cmyk_profile, to_pdfx1a
    from pnp.exports.presets import match_product, print_shop_problems
    from pnp.layout.cards import single_card_pages

    separation = Separation(cmyk_profile().read_bytes())   # a missing profile is reported before any work
    problems = Problems()
    result = validate_game(game_arg, problems, replace(options, thorough=True))      # every check of pnp validate
    if problems.errors:
        raise DataError(problems.errors)
    game = result.game
    files, laid_out, refused = {}, [], Problems()
    with for_game(game):
        for deck in game.decks:
            product = match_product(preset, deck.width, deck.height)
            trim = product.trim_mm if product else (deck.width, deck.height)
            bleed = product.bleed_mm if product else 0.0
            faces, labels, cards = deck_faces(game, deck, replace(options, bleed=bleed), trim)
            if not faces:
                continue
            shared = {}        # each card's back (by a card key, a double-sided card's side B), laid out once
            backs = []
            for c, label in zip(cards, labels):
                two = c is not None and c.side_b is not None and deck.double_sided
                mark = copy_mark(game, c, label) if two else ""
                key = ("side b", c.id, mark) if two else \
                    card_key(c, deck.back.by) if c and deck.back and deck.back.by else None
                if key not in shared:
                    shared[key] = back_elements(game, deck, bleed, c, size_mm=trim, lang=options.lang, mark=mark)
                backs.append(shared[key])
            refused.extend(print_shop_problems(game, deck, preset, product, cards, faces, backs))
            laid_out.append((deck, cards, single_card_pages(faces, backs[0], *trim, bleed, labels, backs,
                                                                 back_first=True)))
        refused.raise_if_errors()
        for deck, cards, pages in laid_out:
            title = f"{game.title}: {deck.name}" if game.several_decks else game.title
            name = f"{preset.name}-{deck.id}.pdf" if game.several_decks else f"{preset.name}.pdf"
            try:
                files[name] = to_pdfx1a(tag_font_subsets(render(pages, title, game.author)), title, separation)
            except PdfxRefusal as exc:          # each page is one side of a card: named at the card's line
                card = cards[(exc.page - 1) // 2]
                path, line = game.source(card) if card is not None else game.deck_where(deck)
                what = f"card '{card.id}'" if card is not None else f"deck '{deck.id}' player aid"
                side = "face" if not exc.page % 2 else "side B" if card is not None and card.side_b else "back"
                if side == "side B" and deck.side_b is not None:
                    line = deck.side_b.where(card.id) or line
                raise DataError([Problem(str(path), line, f"{what} ({side})",
                                         f"--preset {preset.name}: {exc.reason}")]) from None
        bleeds = {d.id: p.bleed_mm for d in game.decks if (p := match_product(preset, d.width, d.height))}
        warnings = problems.warnings + back_bleed_warnings(game, bleeds, preset_bleed(preset)) + \
            safe_zone_warnings(game, preset, options.lang).warnings + gamut_warnings(separation, preset.name)
    return write_atomically(out_dir, files), warnings
