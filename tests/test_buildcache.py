"""The build cache (pnp.cache.buildcache): a build that uses it writes the same bytes as a clean build, after
any sequence of edits to a game folder; a damaged or foreign entry is ignored; nothing is written outside
the output folder unless asked."""

from __future__ import annotations

import json
from dataclasses import replace
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp import DATA_DIR, PROJECT_ROOT
from pnp.cache import memo as file_caches
from pnp.cache.buildcache import BLOBS, ENTRIES, FOLDER, LAYOUT, BuildCache, entry_bytes
from pnp.commands.cli import main
from pnp.components import BuildOptions
from pnp.build.kit import build_kit

#: Per bundled game: edits made one after the other (file, text, replacement), each a kind of input a
#: component reads: a card's value and name, a translation, an icon's drawing, a rulebook chapter, the
#: look in game.yaml, a token sheet, a layout.
EDITS = {
    "shadow_throne": [
        ("cards.yaml", "consolation: 3", "consolation: 2"),
        ("cards.yaml", "name: Dutiful Peasant", "name: Dutiful Farmer"),
        ("i18n/en.yaml", None, None),
        ("tokens.yaml", None, None),
        ("box.yaml", None, None),
    ],
    "behind_the_throne": [
        ("cards.yaml", "name: General", "name: General Staff"),
        ("box.yaml", None, None),
    ],
    "shadow_kingdoms_of_valeria": [
        ("champions.yaml", "name: Elite Guard", "name: Elite Guards"),
        ("icons/die.svg", None, None),
        ("templates/layouts/die_face.yaml", None, None),
        ("i18n/en.yaml", None, None),
    ],
    "shadow_queen": [
        ("shadow_cards.yaml", "name: Possess,", "name: Possession,"),
        ("icons/taint.svg", None, None),
        ("map.yaml", None, None),
    ],
}


def kit_files(out: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(out.iterdir()) if p.is_file()}


def copy_game(name: str, tmp_path: Path) -> Path:
    game = tmp_path / name
    shutil.copytree(DATA_DIR / name, game)
    return game


def edit(game: Path, name: str, old, new) -> None:
    """One edit: ``old`` replaced by ``new`` once; without them a change that keeps the file's meaning
    (an SVG's first colour, or a comment) so the data stays valid whatever the file holds."""
    path = game / name
    text = path.read_text(encoding="utf-8")
    if old is not None:
        assert old in text, (name, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    elif path.suffix == ".svg":
        import re

        colour = re.search(r"#[0-9a-fA-F]{6}\b", text)
        changed = (text[:colour.start()] + "#123456" + text[colour.end():]) if colour else text + "\n<!-- edited -->\n"
        path.write_text(changed, encoding="utf-8")
    else:
        path.write_text(text + "\n# edited\n", encoding="utf-8")


def clean_build(game: Path, out: Path, options: BuildOptions) -> dict:
    file_caches.clear()
    build_kit(str(game), out, options)
    return kit_files(out)


def cached_build(game: Path, out: Path, options: BuildOptions, jobs: int = 1) -> tuple[dict, BuildCache]:
    file_caches.clear()
    cache = BuildCache(out / FOLDER)
    build_kit(str(game), out, options, jobs=jobs, cache=cache)
    return kit_files(out), cache


def check_edit_sequence(name: str, tmp_path: Path, options: BuildOptions = BuildOptions(), edits=None) -> None:
    game = copy_game(name, tmp_path)
    out = tmp_path / "out"
    edits = EDITS[name] if edits is None else edits
    originals = {f: (game / f).read_bytes() for f, _, _ in edits}
    first, cache = cached_build(game, out, options)
    assert first == clean_build(game, tmp_path / "clean-0", options)
    assert cache.hits == 0 and (out / FOLDER).is_dir()
    again, cache = cached_build(game, out, options)
    assert again == first
    assert cache.misses == 0 and cache.hits > 0, "nothing changed: every component comes from the cache"
    for step, (file, old, new) in enumerate(edits, 1):
        edit(game, file, old, new)
        rebuilt, cache = cached_build(game, out, options, jobs=1 + step % 2)
        assert rebuilt == clean_build(game, tmp_path / f"clean-{step}", options), f"after editing {file}"
    for file, data in originals.items():          # back where it started: the first entries serve again
        (game / file).write_bytes(data)
    back, cache = cached_build(game, out, options)
    assert back == first
    assert cache.misses == 0


def test_a_rebuild_after_an_edit_is_byte_identical_to_a_clean_build(tmp_path):
    check_edit_sequence("behind_the_throne", tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(EDITS))
def test_every_bundled_game_after_a_sequence_of_edits(name, tmp_path):
    check_edit_sequence(name, tmp_path)


@pytest.mark.slow
def test_translated_kit_after_an_edit_of_its_translation(tmp_path):
    options = BuildOptions(lang="es")
    game = copy_game("shadow_throne", tmp_path)
    out = tmp_path / "out"
    cached_build(game, out, options)
    edit(game, "i18n/es.yaml", "name: Campesino Obediente", "name: Campesino Fiel")
    rebuilt, _ = cached_build(game, out, options)
    assert rebuilt == clean_build(game, tmp_path / "clean", options)


def test_one_card_edit_redraws_only_what_shows_the_card(tmp_path):
    game = copy_game("shadow_throne", tmp_path)
    out = tmp_path / "out"
    cached_build(game, out, BuildOptions())
    edit(game, "cards.yaml", "consolation: 3", "consolation: 2")
    _, cache = cached_build(game, out, BuildOptions())
    kinds = [meta["kind"] for meta, _ in cache.pending.values()] if cache.pending else []
    entries = [json.loads(p.read_text()) for p in (out / FOLDER / LAYOUT / ENTRIES).glob("*.json")]
    assert cache.hits >= 3, "the card backs, the tokens and the box are not drawn again"
    assert not kinds       # stored once the kit was written
    assert len(entries) > 0


def test_a_damaged_or_foreign_entry_is_ignored(tmp_path):
    game = copy_game("behind_the_throne", tmp_path)
    out = tmp_path / "out"
    first, _ = cached_build(game, out, BuildOptions())
    folder = out / FOLDER / LAYOUT
    blobs = sorted((folder / BLOBS).glob("*.blob"))
    # entries a rebuild with nothing changed looks up (not the drawn files inside a component's entry,
    # nor the lists of what a component read, which only lead to its entry)
    metas = sorted(p for p in (folder / ENTRIES).glob("*.json")
                   if json.loads(p.read_text())["entry"]["kind"] in ("component", "described", "merge"))

    def rewrite(path, **changes):       # an entry changed and its own SHA-256 written anew to match
        path.write_bytes(entry_bytes({**json.loads(path.read_text())["entry"], **changes}))

    blobs[0].write_bytes(blobs[0].read_bytes()[:-10] + b"0123456789")     # damaged: its hash does not match
    metas[0].write_text("{not json")
    rewrite(metas[1], format=99)                                            # another pnp's
    rewrite(metas[2], blobs=["../../etc/passwd"])
    if len(metas) > 3:
        rewrite(metas[3], outputs=[{"filename": 1}], problems="x")
    again, cache = cached_build(game, out, BuildOptions())
    assert again == first
    assert cache.misses >= 3
    again, cache = cached_build(game, out, BuildOptions())      # the entries were written anew
    assert again == first and cache.misses == 0


def test_the_cache_folder_is_inside_out_unless_named(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    result = runner.invoke(main, ["build", "behind_the_throne", "--out", "kit", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kit"]
    assert (tmp_path / "kit" / FOLDER).is_dir()
    result = runner.invoke(main, ["build", "behind_the_throne", "--out", "kit2", "--no-cache", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "kit2" / FOLDER).exists()
    assert kit_files(tmp_path / "kit2") == kit_files(tmp_path / "kit")
    result = runner.invoke(main, ["build", "behind_the_throne", "--out", "kit3", "--cache", "elsewhere", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "elsewhere").is_dir() and not (tmp_path / "kit3" / FOLDER).exists()
    result = runner.invoke(main, ["build", "behind_the_throne", "--out", "kit3", "--cache", "x", "--no-cache"])
    assert result.exit_code == 2
    assert "--cache and --no-cache" in result.output


def test_a_failed_build_writes_no_cache(tmp_path):
    game = copy_game("behind_the_throne", tmp_path)
    edit(game, "cards.yaml", "name: General", "nme: General")
    result = CliRunner().invoke(main, ["build", str(game), "--out", str(tmp_path / "out"), "--jobs", "1"])
    assert result.exit_code == 2, result.output
    assert "nme" in result.output
    assert not (tmp_path / "out").exists()


def test_the_studio_builds_the_kit_with_the_cache(tmp_path):
    from pnp.serve.tasks import build

    game = copy_game("behind_the_throne", tmp_path)
    first = build("kit", game, tmp_path / "out", BuildOptions(), 1)
    assert (tmp_path / "out" / FOLDER).is_dir()
    before = kit_files(tmp_path / "out")
    again = build("kit", game, tmp_path / "out", BuildOptions(), 2)
    assert [d.name for d in again] == [d.name for d in first]
    assert kit_files(tmp_path / "out") == before


def test_keys_hold_this_installations_file_stamps(tmp_path, monkeypatch):
    """Another installation (or another version of pnp's code) finds none of the entries: a cache planted
    in a game folder by a stranger is never used."""
    from pnp.cache import buildcache

    game = copy_game("behind_the_throne", tmp_path)
    out = tmp_path / "out"
    first, _ = cached_build(game, out, BuildOptions())
    stamp = buildcache._code_stamp()
    assert len(buildcache._stat_walk(PROJECT_ROOT / "pnp")) > 10
    monkeypatch.setattr(buildcache, "_code_stamp", lambda: buildcache.digest(stamp, "another installation"))
    again, cache = cached_build(game, out, BuildOptions())
    assert again == first
    assert cache.hits == 0 and cache.misses > 0


def test_a_drawn_file_is_keyed_by_the_language_texts_are_set_in(tmp_path):
    """The painter sets quotes and hyphenation in the active language (pnp.text.typography): the same pages in
    another language are drawn again, not taken from the cache."""
    from pnp.text import typography
    from pnp.draw.pdf import drawing_context
    from pnp.layout.geometry import Page, Rect, Text

    cache = BuildCache(tmp_path / "cache")
    pages = [Page(100, 100, [Text(Rect(10, 10, 80, 20), '"Quoted" words')])]
    drawn = []

    def paint(lang):
        def run():
            drawn.append(lang)
            return lang.encode()
        return run

    for lang in ("en", "es", "en"):
        with typography.language(lang):
            assert cache.rendered(pages, "t", "a", "o", "icons", drawing_context(), paint(lang)) == lang.encode()
    assert drawn == ["en", "es"]


def test_files_beside_a_pdf_come_back_from_the_cache(tmp_path):
    """--cutter writes cut files beside their PDF (Output.beside): kept with the component's files."""
    options = BuildOptions(cutter="silhouette")
    game = copy_game("behind_the_throne", tmp_path)
    out = tmp_path / "out"
    first, _ = cached_build(game, out, options)
    again, cache = cached_build(game, out, options)
    assert cache.misses == 0
    assert again == first == clean_build(game, tmp_path / "clean", options)
    assert any(name.endswith((".svg", ".dxf")) for name in first)


def test_a_card_edit_lays_out_and_checks_that_card_only(tmp_path, monkeypatch):
    """Card faces are kept by a key of what they read (their card, its deck but the other cards, the rest
    of the game, the folder's other files): after an edit, a rebuild in the same process (pnp watch, the
    studio) lays out the edited card's faces and no other, and checks no other card."""
    from pnp.components import cards

    game = copy_game("shadow_throne", tmp_path)
    out = tmp_path / "out"
    cached_build(game, out, BuildOptions())
    edit(game, "cards.yaml", "name: Dutiful Peasant", "name: Dutiful Farmer")
    laid, fitted = [], []
    real_face, real_check = cards.card_face, cards._check_texts
    monkeypatch.setattr(cards, "card_face", lambda content, *a, **k: (laid.append(str(content.name)),
                                                                      real_face(content, *a, **k))[1])
    monkeypatch.setattr(cards, "_check_texts", lambda face, problems, path, line, subject, **k: (
        fitted.append(subject), real_check(face, problems, path, line, subject, **k)))
    rebuilt, _ = cached_build(game, out, BuildOptions())
    assert set(laid) == {"Dutiful Farmer"} and fitted == ["card 'dutiful-peasant'"]
    assert rebuilt == clean_build(game, tmp_path / "clean", BuildOptions())


def test_card_sheets_in_pieces_are_the_same_with_any_jobs_and_the_cache(tmp_path, monkeypatch):
    """A large deck's sheets are laid out and drawn in pieces (pnp.components.cards.sheet_pieces: tasks of
    --jobs, entries of the build cache): the kit is byte-identical whatever the jobs and with or without
    the cache, the pieces' pages follow one another with their sheet numbers, and after a card edit
    only the piece that holds the card is drawn again. The game prints its cards alone, in English (its
    other components and its Spanish would be built six times over and tell nothing about the sheets)."""
    from pnp.components import cards
    from pnp.draw.merge import page_count

    monkeypatch.setattr(cards, "PIECE_SHEETS", 2)       # Shadow Throne's 7 sheets: 4 pieces
    game = copy_game("shadow_throne", tmp_path)
    edit(game, "game.yaml", "components: [instructions, power_track, cards, tokens, rulebook, box]",
         "components: [cards]")
    (game / "i18n" / "es.yaml").unlink()
    pieces = cards.sheet_pieces(cards_game(game), BuildOptions())
    assert [[(first, end) for _, first, end in piece] for piece in pieces] == [[(0, 2)], [(2, 4)], [(4, 6)], [(6, 7)]]
    monkeypatch.setattr(cards, "PIECE_SHEETS", 32)
    whole = clean_build(game, tmp_path / "whole", BuildOptions())
    monkeypatch.setattr(cards, "PIECE_SHEETS", 2)
    one = clean_build(game, tmp_path / "one", BuildOptions())
    file_caches.clear()
    build_kit(str(game), tmp_path / "two", BuildOptions(), jobs=2)
    assert kit_files(tmp_path / "two") == one
    assert one["pieces.json"] == whole["pieces.json"] and page_count(one["cards-fronts.pdf"]) == 7
    cached, _ = cached_build(game, tmp_path / "out", BuildOptions(), jobs=2)
    assert cached == one
    edit(game, "cards.yaml", "name: Tax Collector", "name: Tax Farmer")     # on the first sheet only
    drawn = []
    from pnp.draw import pdf

    real_render = pdf.render
    monkeypatch.setattr(pdf, "render", lambda pages, *a, **k: (drawn.append(pages[0].label), real_render(pages, *a, **k))[1])
    rebuilt, cache = cached_build(game, tmp_path / "out", BuildOptions(), jobs=1)
    assert [label for label in drawn if label.startswith("Card")] == ["Card fronts 1", "Card backs 1"]
    monkeypatch.undo()
    monkeypatch.setattr(cards, "PIECE_SHEETS", 2)
    assert rebuilt == clean_build(game, tmp_path / "clean", BuildOptions())


def cards_game(folder):
    from pnp.loading.gamedata import load_game

    return load_game(str(folder))


def big_deck(tmp_path: Path, count: int) -> Path:
    """tests/games/starfall with only its card sheets in the kit and ``count`` omen cards (mini size)."""
    game = tmp_path / "big"
    shutil.copytree(Path(__file__).parent / "games" / "starfall", game)
    text = (game / "game.yaml").read_text(encoding="utf-8")
    start = text.index("\ncomponents:")
    end = text.index("\n\n", start + 1) if "\n\n" in text[start + 1:] else len(text)
    (game / "game.yaml").write_text(text[:start] + "\ncomponents: [cards]" + text[end:], encoding="utf-8")
    rows = ["id,name,copies,turns,flavour,effect"]
    rows += [f"omen-{i},Omen {i},1,{1 + i % 6},Sign number {i}.,\"**Dark:** each player gains {i % 5} [wish].\""
             for i in range(count)]
    (game / "omens.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return game


@pytest.mark.slow
def test_a_large_deck_builds_the_same_with_any_jobs(tmp_path):
    game = big_deck(tmp_path, 5000)
    clean_build(game, tmp_path / "one", BuildOptions())
    one = kit_files(tmp_path / "one")
    file_caches.clear()
    build_kit(str(game), tmp_path / "two", BuildOptions(), jobs=2)
    assert kit_files(tmp_path / "two") == one
    cached, _ = cached_build(game, tmp_path / "cached", BuildOptions(), jobs=2)
    assert cached == one


def test_a_card_edit_the_rulebook_does_not_print_keeps_the_drawn_booklet(tmp_path, monkeypatch):
    """The booklet is kept by what its layout and drawing read (chapters' markup, figures, cover, words,
    icons...): Starfall's rulebook prints no card names, so renaming a card finds it drawn (not laid out
    again); a card's copies are printed (the deck's total), so that edit lays it out again. Both kits
    are byte for byte clean builds."""
    import pnp.rulebook.component as rulebook

    shutil.copytree(Path(__file__).parent / "games" / "starfall", tmp_path / "starfall")
    game, out = tmp_path / "starfall", tmp_path / "out"
    laid = []
    real = rulebook.lay_out
    monkeypatch.setattr(rulebook, "lay_out", lambda *a, **k: laid.append(1) or real(*a, **k))
    cached_build(game, out, BuildOptions())
    assert laid, "a first build lays the booklet out"
    for step, (old, new, again) in enumerate([("name: Tidewatch,", "name: Tidewatcher,", False),
                                              ("copies: 2, light: 1", "copies: 3, light: 1", True)]):
        laid.clear()
        edit(game, "stars.yaml", old, new)
        rebuilt, _ = cached_build(game, out, BuildOptions())
        assert bool(laid) is again, (old, new)
        assert rebuilt == clean_build(game, tmp_path / f"clean-{step}", BuildOptions())


def test_label_inks_are_kept_in_memory_and_in_the_cache(tmp_path, monkeypatch):
    """The colours measured for labels on icons (pnp.draw.labels) are kept by a key of what they depend
    on: a rebuild in the same process (pnp watch: the file caches cleared) measures nothing again, and a
    new process finds them in the cache folder. Every kit is the bytes of a clean build. (On
    tests/games/starfall, whose cards print numbers on icons: the keeping is pnp's, not a game's; four
    builds of Valeria were 17 s of CPU.)"""
    from pnp.draw import labels

    game = tmp_path / "starfall"
    shutil.copytree(Path(__file__).parent / "games" / "starfall", game)
    out = tmp_path / "out"
    rasters = []
    real = labels.icon_raster
    monkeypatch.setattr(labels, "icon_raster", lambda draw: (rasters.append(1), real(draw))[1])
    monkeypatch.setattr(labels, "_INKS", {})
    monkeypatch.setattr(labels, "_RASTERS", {})
    first, _ = cached_build(game, out, BuildOptions())
    assert rasters, "starfall's kit prints labels on icons"

    def drop_drawn_files():
        for entry in (out / FOLDER / LAYOUT / ENTRIES).glob("*.json"):      # the drawn files dropped, the inks kept
            if json.loads(entry.read_text())["entry"]["kind"] != "label inks":
                entry.unlink()

    rasters.clear()
    drop_drawn_files()
    again, _ = cached_build(game, out, BuildOptions())   # same process: the inks in memory
    assert again == first and not rasters
    labels._INKS.clear()                                 # a new process: the inks from the cache folder
    labels._RASTERS.clear()
    drop_drawn_files()
    again, _ = cached_build(game, out, BuildOptions())
    assert again == first and not rasters
    labels._INKS.clear()
    labels._RASTERS.clear()
    assert first == clean_build(game, tmp_path / "clean", BuildOptions())


def test_a_label_ink_on_an_svg_icon_is_keyed_by_its_bytes(tmp_path, monkeypatch):
    """An SVG icon edited under the same name is measured again (pnp watch keeps the inks in memory)."""
    from pnp.draw import icons, labels

    monkeypatch.setattr(labels, "_INKS", {})
    monkeypatch.setattr(labels, "_RASTERS", {})
    svg = tmp_path / "mark.svg"
    svg.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
                   '<circle cx="5" cy="5" r="5" fill="#111111"/></svg>', encoding="utf-8")
    measured = []
    measure = labels._measure
    monkeypatch.setattr(labels, "_measure", lambda *a: (measured.append(1), measure(*a))[1])

    def ink():
        key = ("svg", str(svg), None)
        return labels.label_ink(key, icons._picture(str(svg), 1.0, None), "3", "Lato-Black.ttf", 0, 0, 8, 14,
                                "#ffffff", 6)

    dark = ink()
    assert ink() == dark and len(measured) == 1
    svg.write_text(svg.read_text(encoding="utf-8").replace("#111111", "#fafafa"), encoding="utf-8")
    light = ink()
    assert len(measured) == 2
    assert light.fill != dark.fill or light.outline != dark.outline


def test_changed_since_uses_the_cache(tmp_path, monkeypatch):
    """--changed-since reaches reprint.pdf only: the components come from the cache a plain build filled,
    and the kit (reprint.pdf and pieces.json included) is the bytes of a build without the cache."""
    game = copy_game("behind_the_throne", tmp_path)
    old = tmp_path / "old"
    clean_build(game, old, BuildOptions())
    edit(game, "cards.yaml", "name: General", "name: General Staff")
    out = tmp_path / "out"
    cached_build(game, out, BuildOptions())
    options = BuildOptions(changed_since=str(old))
    from pnp.build import kit

    built = []
    real = kit._Kept.build
    monkeypatch.setattr(kit._Kept, "build", lambda self, game, component, options: (
        built.append(component.name), real(self, game, component, options))[1])
    rebuilt, cache = cached_build(game, out, options)
    assert built == [], "every component comes from the cache"
    assert "reprint.pdf" in rebuilt
    assert rebuilt == clean_build(game, tmp_path / "clean", options)


def test_the_instructions_page_and_the_box_are_keyed_by_the_card_counts(tmp_path, monkeypatch):
    """The instructions page and the box read the decks only to count their cards
    (pnp.cache.buildcache.counts_only): a card renamed finds them in the cache, a card's copies changed builds
    them again; both are a clean build's bytes. The game prints the page, its cards and the box alone,
    in English (its track, tokens, rulebook and Spanish would be built four times over and tell nothing
    about the keys)."""
    from pnp.build import kit
    from pnp.components import instructions

    game = copy_game("shadow_throne", tmp_path)
    edit(game, "game.yaml", "components: [instructions, power_track, cards, tokens, rulebook, box]",
         "components: [instructions, cards, box]")
    (game / "i18n" / "es.yaml").unlink()
    out = tmp_path / "out"
    cached_build(game, out, BuildOptions())
    components = []
    real_build = kit._Kept.build
    monkeypatch.setattr(kit._Kept, "build", lambda self, game, component, options: (
        components.append(component.name), real_build(self, game, component, options))[1])
    built = []
    real = instructions.build.__wrapped__
    monkeypatch.setattr(instructions, "build", instructions.with_game_icons(
        lambda *a, **k: (built.append(1), real(*a, **k))[1]))
    monkeypatch.setattr(instructions, "COMPONENT", replace(instructions.COMPONENT, build=instructions.build))
    edit(game, "cards.yaml", "name: Dutiful Peasant", "name: Dutiful Farmer")
    renamed, _ = cached_build(game, out, BuildOptions())
    assert built == [] and "box" not in components and "cards" in components
    # two of the empire's commoners swap their copies (3 and 4): the deck's totals hold, the counts change
    lines = (game / "cards.yaml").read_text(encoding="utf-8").split("\n")
    assert lines[21] == "    copies: 3" and lines[32] == "    copies: 4", lines[21:33]
    lines[21], lines[32] = lines[32], lines[21]
    (game / "cards.yaml").write_text("\n".join(lines), encoding="utf-8")
    components.clear()
    recounted, _ = cached_build(game, out, BuildOptions())
    assert built and "box" in components, "the counts changed: the page and the box are built again"
    assert renamed != recounted
    assert recounted == clean_build(game, tmp_path / "clean", BuildOptions())
