"""The studio's build cache in memory (issue 38): after an edit, the preview process lays out again only
what the edit reached (a card edit: that card's faces; a chapter edit: the rulebook's booklet, its
examples not played again), keyed as ``pnp build`` keys its cache folder, and never shows a stale
picture: what it finds in the cache is what it would lay out and draw afresh, an undone edit shows the
picture from before (its face laid out again, its picture found by content), and a key that leaves an
input out is caught by the comparison these tests make."""

import functools
import re
import shutil

import pytest

from pnp import DATA_DIR
from pnp.cache import buildcache, memo
from pnp.cache.buildcache import BuildCache, FileDigests, MemoryCache, MemoryEntries, card_files, folder_digest
from pnp.components import BuildOptions, cards as cards_component, game_components
from pnp.draw.icons import for_game
from pnp.errors import Problems
from pnp.exports.cards import face_elements
from pnp.loading.gamedata import load_game
from pnp.loading.yamlsrc import load_yaml
from pnp.serve.faces import _listed as listed, face_keys, fingerprint_faces
from pnp.serve.options import Options
from pnp.serve.pages import pdf_page_prints
import studio_hooks
from serve_helpers import Events, running, write_game


def card(data, cid):
    return next(c for c in data["cards"] if c["id"] == cid)


class Versions:
    """The studio's data step, in this process: each version of the files loaded with a build cache of
    its own over one store of entries (as :class:`pnp.serve.previews.Previews` does), and every face
    laid out and fingerprinted; also laid out afresh, without any cache, to compare."""

    def __init__(self, root):
        self.root, self.entries, self.files = root, MemoryEntries(), FileDigests()

    def faces(self, cached: bool = True) -> dict:
        memo.clear()
        cache = MemoryCache(self.entries, self.files) if cached else BuildCache(None)
        with buildcache.using(cache):
            game = load_game(self.root, Problems(), strict=False)
            if cached:      # as the studio's data step keys the folder: the templates apart
                cache.game_files, cache.face_files = folder_digest(self.root, self.files, leave_out=card_files(game),
                                                                   templates_apart=True)
            with for_game(game):
                out = {key: repr(face_elements(game, key)) for key, _ in face_keys(game)}
            prints = fingerprint_faces(game, Options(), buildcache.icons_digest(game.icons, self.files), self.files)
            out.update((f"{key} fingerprint", face.fingerprint) for key, face in prints.items())
            # the cards' fields as the page lists them (the ability text is a template's render)
            out.update((f"{c.id} fields", repr(listed(game, c, None))) for d in game.decks for c in d.cards)
        if cached:
            cache.store()
        return out


def stale_faces(root, edits) -> list:
    """The faces whose layout from the studio's cache differs from the layout made afresh, after each edit
    (``(file, old, new)``, made in turn): [] when every key holds everything its face shows."""
    versions = Versions(root)
    versions.faces()
    stale = []
    for name, old, new in edits:
        path = root / name
        path.write_text(path.read_text().replace(old, new))
        cached, fresh = versions.faces(), versions.faces(cached=False)
        stale += [(name, key) for key in fresh if cached.get(key) != fresh[key]]
    return stale


EDITS = [
    ("heroes.yaml", "name: Rogue", "name: Cutpurse"),             # a card (its own face)
    ("heroes.yaml", "might: 4", "might: 5"),
    ("game.yaml", "title: Studio Test", "title: Studio Quest"),   # the game (backs print the title)
    ("game.yaml", 'colour: "#2d4f7c"', 'colour: "#7c2d4f"'),     # a faction's colour (its cards' frames)
    ("heroes.yaml", "name: Cutpurse", "name: Rogue"),             # undone: the faces from before, from the cache
]


def test_faces_from_the_studios_cache_are_the_faces_laid_out_afresh(tmp_path):
    assert stale_faces(write_game(tmp_path / "game"), EDITS) == []


def test_a_face_keyed_without_its_card_is_caught(tmp_path, monkeypatch):
    """The comparison above finds a key that leaves out what a face shows: keyed by its deck's context
    alone, a card's face edited keeps the picture from before."""
    def without_the_card(game, deck, card, lang, mark, size_mm, bleed, narrow=False):
        context = cards_component.face_context(game, deck, narrow=narrow)
        return None if context is None else buildcache.digest(context, card.id, lang, mark, tuple(size_mm), bleed)

    monkeypatch.setattr(cards_component, "face_key", without_the_card)     # (the key pnp build's cache folder uses)
    monkeypatch.setattr(cards_component, "narrow_face_key", functools.partial(without_the_card, narrow=True))
    stale = stale_faces(write_game(tmp_path / "game"), EDITS[:1])
    assert ("heroes.yaml", "rogue") in stale and ("heroes.yaml", "rogue fingerprint") in stale


def test_a_card_edit_lays_out_that_cards_face_only(tmp_path, monkeypatch):
    laid = []
    original = cards_component.card_face
    monkeypatch.setattr(cards_component, "card_face", lambda content, *a, **k: laid.append(content.name) or
                        original(content, *a, **k))
    root = write_game(tmp_path / "game")
    versions = Versions(root)
    versions.faces()
    assert sorted(laid) == ["Guard the Caravan", "Knight", "Rogue", "Slay the Dragon", "Squire"]
    heroes = root / "heroes.yaml"
    for old, new, expected in (("name: Rogue", "name: Cutpurse", ["Cutpurse"]),
                               ("name: Cutpurse", "name: Rogue", ["Rogue"])):   # undone: that face only
        laid.clear()
        heroes.write_text(heroes.read_text().replace(old, new))
        versions.faces()
        assert laid == expected


def test_the_studio_lays_out_only_the_edited_card_and_an_undone_edit_shows_the_picture_from_before(tmp_path):
    root = write_game(tmp_path / "game")
    log = tmp_path / "faces.log"
    hook = functools.partial(studio_hooks.log_face_layouts, str(log))
    with running(root, tmp_path / "out", preview_setup=hook) as (srv, client):
        before = client.wait_for(lambda d: d["checked"])
        heroes = root / "heroes.yaml"
        original = heroes.read_text()
        for text, laid in ((original.replace("name: Rogue", "name: Cutpurse"), ["Cutpurse"]), (original, ["Rogue"])):
            log.write_text("")
            events = Events(client)
            try:
                heroes.write_text(text)
                version = events.next("changed")["version"]
                while not (update := events.next("update", timeout=120))["checked"] or update["version"] != version:
                    pass
            finally:
                events.close()
            after = client.json()
            assert log.read_text().split() == laid
            if laid == ["Cutpurse"]:
                assert card(after, "rogue")["name"] == "Cutpurse"
                assert card(after, "rogue")["image"] != card(before, "rogue")["image"]
        assert card(after, "rogue")["image"] == card(before, "rogue")["image"]
        for cid in ("knight", "squire", "dragon", "caravan"):
            assert card(after, cid)["image"] == card(before, cid)["image"]
        assert client.get(card(after, "rogue")["image"])[0] == 200


@pytest.fixture(scope="module")
def throne(tmp_path_factory):
    root = tmp_path_factory.mktemp("rulebook") / "shadow_throne"
    shutil.copytree(DATA_DIR / "shadow_throne", root)
    return root


def test_a_chapter_edit_changes_its_page_and_the_cached_booklet_is_the_one_drawn_afresh(throne, monkeypatch):
    """The rulebook in the studio's cache (a version's cache over one store): an edited sentence changes the
    page that prints it and no other page of the reading order; every booklet is byte for byte the one
    drawn without a cache; an undone edit finds the booklet from before; the examples are played once."""
    from pnp.rulebook import component as rulebook

    chapter = throne / "templates" / "rulebook" / "en" / "overview.md.j2"
    text = chapter.read_text()
    at = re.search(r"^[A-Z].*[a-z]\.$", text, re.M).end() - 1
    entries, files = MemoryEntries(), FileDigests()
    played = []
    original_play = rulebook._play_example
    monkeypatch.setattr(rulebook, "_play_example", lambda game, path: played.append(path) or original_play(game, path))

    def booklet(cached: bool) -> bytes:
        memo.clear()
        cache = MemoryCache(entries, files) if cached else BuildCache(None)
        with buildcache.using(cache):
            game = load_game(throne, Problems(), strict=False)
            with for_game(game):
                rulebook_component = next(c for c in game_components(game) if c.name == "rulebook")
                pdf = rulebook_component.build(game, BuildOptions(paper="letter"))[0].pdf
        if cached:
            cache.store()
        return pdf

    first = booklet(True)
    assert played, "the examples are played"
    assert booklet(False) == first
    chapter.write_text(text[:at] + " 42" + text[at:])
    played.clear()
    edited = booklet(True)
    assert played == []                     # the chapter is no input of the examples
    assert booklet(False) == edited
    changed = [i + 1 for i, (a, b) in enumerate(zip(pdf_page_prints(first), pdf_page_prints(edited))) if a != b]
    assert changed == [2], changed          # the overview's page, and no other
    played.clear()
    chapter.write_text(text)
    assert booklet(True) == first           # undone: the booklet from before
    assert played == []


def test_a_components_first_file_is_shown_before_the_next_is_fingerprinted(tmp_path):
    """The card sheets' first file (the fronts) is rasterized and shown, the entry marked partial, before
    the next file is fingerprinted; the page meanwhile lists the other files as they were before, in
    their place; the finished entry has every file and no mark."""
    from pnp.serve.images import ImageStore
    from pnp.serve.pages import PageMaker
    from pnp.serve.previews import _with_files_before

    root = write_game(tmp_path / "game")
    game = load_game(root, Problems(), strict=False)
    files = FileDigests()
    maker = PageMaker(ImageStore(), files)
    seen = []

    def progress(entries):
        entry = next(e for e in entries if e["name"] == "cards")
        state = ([f["filename"] for f in entry["files"]], entry.get("partial"))
        if entry["files"] and (not seen or seen[-1][1:] != state):      # (told again after the track)
            seen.append((len(maker.images), *state))

    steps = maker.components(game, Options(), buildcache.icons_digest(game.icons, files), lambda p: {}, False, False,
                             {}, progress)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            components = done.value
            break
    cards = next(c for c in components if c["name"] == "cards")
    names = [f["filename"] for f in cards["files"]]
    assert len(names) >= 2 and "partial" not in cards
    assert [s[1] for s in seen] == [names[:k] for k in range(1, len(names))] + [names]
    assert all(s[2] for s in seen[:-1]) and not seen[-1][2]
    pictures = [s[0] for s in seen]
    assert pictures == sorted(pictures) and pictures[0] < pictures[-1]    # the fronts rasterized first
    shown = _with_files_before({**cards, "files": cards["files"][:1], "partial": True},
                               {**cards, "files": [dict(f, title="before") for f in cards["files"]]})
    assert [f["filename"] for f in shown["files"]] == names
    assert [f.get("title") == "before" for f in shown["files"]] == [False] + [True] * (len(names) - 1)


# ---------------------------------------------------------------------- templates: what each face read

KILL = "**Kill** [kill] every"


@pytest.fixture
def throne_with_a_snippet(tmp_path):
    """A copy of Shadow Throne whose ability words include a template at run time (the kill effect's
    macro includes templates/snippets/kill.j2): a face reads that template only when its card kills."""
    root = tmp_path / "shadow_throne"
    shutil.copytree(DATA_DIR / "shadow_throne", root)
    abilities = root / "templates" / "abilities" / "en.j2"
    text = abilities.read_text()
    at = text.index(KILL)
    end = text.index("{%- endmacro -%}", at)
    abilities.write_text(text[:end] + '{% include "snippets/kill.j2" %}' + text[end:])
    (root / "templates" / "snippets").mkdir()
    (root / "templates" / "snippets" / "kill.j2").write_text(" Then rest.")
    return root


THRONE_EDITS = [
    ("templates/rulebook/en/overview.md.j2", "Shadow Throne", "Shadow Thrones"),   # a chapter: no face reads it
    ("templates/snippets/kill.j2", "Then rest.", "Then sleep."),                  # read at run time by some
    ("templates/abilities/en.j2", KILL, "**Slay** [kill] every"),                # the ability words
    ("templates/abilities/en.j2", "**Slay** [kill] every", KILL),                # undone
]


def test_template_edits_lay_out_again_the_faces_that_read_them_and_only_those(throne_with_a_snippet, monkeypatch):
    """The studio keys a face without the game's templates, and keeps the templates it read (found, included
    at run time, or looked for and missing) with their bytes: a chapter edit lays out no face; an edit of a
    template some faces read lays out those, and each face and its listed fields are the ones made afresh."""
    root = throne_with_a_snippet
    game = load_game(root)
    killers = sorted(c.name for c in game.cards if c.ability is not None and c.ability.kind == "kill")
    assert 0 < len(killers) < len(game.cards)
    laid = []
    original = cards_component.card_face
    monkeypatch.setattr(cards_component, "card_face", lambda content, *a, **k: laid.append(content.name) or
                        original(content, *a, **k))
    versions = Versions(root)
    versions.faces()
    for name, old, new in THRONE_EDITS:
        path = root / name
        path.write_text(path.read_text().replace(old, new))
        laid.clear()
        cached = versions.faces()
        seen = sorted(laid)
        fresh = versions.faces(cached=False)
        assert [key for key in fresh if cached.get(key) != fresh[key]] == [], name
        if name.startswith("templates/rulebook"):
            assert seen == []
        elif name.startswith("templates/snippets"):
            assert seen == killers
        else:
            assert killers and set(killers) <= set(seen)
    assert "Then sleep." in fresh[f"{game.cards[[c.name for c in game.cards].index(killers[0])].id} fields"]


def test_a_face_keyed_without_the_templates_it_read_is_caught(throne_with_a_snippet, monkeypatch):
    """The comparison above finds a face kept without the templates it read: with no template noted, an
    edit of the snippet the kill cards include keeps their faces from before."""
    from pnp.text import templating

    monkeypatch.setattr(templating.MarkupSandbox, "_load_template",
                        lambda self, name, globals: super(templating.MarkupSandbox, self)._load_template(name, globals))
    monkeypatch.setattr(templating, "note_templates", lambda names: None)
    assert any(name.startswith("templates/snippets") for name, _ in
               stale_faces(throne_with_a_snippet, THRONE_EDITS[1:2]))


def test_an_edit_as_soon_as_the_check_is_told_finds_the_faces_kept(tmp_path):
    """What a version laid out is settled before anyone hears its check is over: an edit made at that
    moment (a designer saving again as the page shows "up to date") lays out that card's face only (it
    came while the check's last slice was settling, and every face kept was forgotten)."""
    import threading

    from pnp.serve.previews import Previews

    root = write_game(tmp_path / "game")
    heroes = root / "heroes.yaml"
    original = heroes.read_text()
    laid, checked = [], threading.Event()
    real = cards_component.card_face

    def card_face(content, *a, **k):
        laid.append(content.name)
        return real(content, *a, **k)

    previews = None

    def tell(message):
        if message[0] == "event" and message[1].get("checked") and message[1]["version"] == 1:
            heroes.write_text(original.replace("name: Rogue", "name: Cutpurse"))     # saved at once
            previews.files_changed(2, ["heroes.yaml"], Options(), refresh=False)
        if message[0] == "event" and message[1].get("checked"):
            checked.set()

    cards_component.card_face = card_face
    try:
        previews = Previews(root, Options(), tell=tell)
        previews._refresh(Options())
        assert checked.wait(120)
        laid.clear()
        previews._refresh(Options())
        assert laid == ["Cutpurse"]
    finally:
        cards_component.card_face = real
        previews.worker.stop() if hasattr(previews.worker, "stop") else None


# ---------------------------------------------------------------------- what the preview process keeps besides

def test_parsed_files_are_kept_by_their_text_each_load_its_own_copy(tmp_path, monkeypatch):
    """The preview process parses a data file once per text (keep_parsed): an unchanged file is not parsed
    again after pnp's memos are emptied (as after every edit), an edited one is, an undone edit gives the
    data from before, a file that does not parse gives its problem each time, and a caller that changes what
    it loaded does not change the next load."""
    from pnp.errors import DataError
    from pnp.loading import yamlsrc

    parsed = []
    real = yamlsrc.parse_yaml
    monkeypatch.setattr(yamlsrc, "parse_yaml", lambda text, path="<input>", *a: parsed.append(path) or
                        real(text, path, *a))
    monkeypatch.setattr(yamlsrc, "_PARSED", type(yamlsrc._PARSED)())
    monkeypatch.setattr(yamlsrc, "_PARSED_BYTES", [0])
    yamlsrc.keep_parsed()
    try:
        path = tmp_path / "cards.yaml"
        path.write_text("cards:\n  - id: a\n    name: Ann\n")

        def load():
            memo.clear()
            return yamlsrc.load_yaml(path)

        first = load()
        first["cards"][0]["name"] = "changed by a caller"
        again = load()
        assert again == {"cards": [{"id": "a", "name": "Ann"}]} and again["cards"][0].line_of("name") == 3
        assert len(parsed) == 1                                     # not parsed again
        path.write_text("cards:\n  - id: a\n    name: Bob\n")
        assert load()["cards"][0]["name"] == "Bob" and len(parsed) == 2
        path.write_text("cards:\n  - id: a\n    name: Ann\n")       # undone
        assert load()["cards"][0]["name"] == "Ann" and len(parsed) == 2
        path.write_text("cards: [a\n")
        for _ in range(2):
            with pytest.raises(DataError) as err:
                load()
            assert "malformed YAML" in str(err.value.problems[0])
    finally:
        yamlsrc.keep_parsed(False)


def test_a_named_layout_is_built_once_per_files_and_again_when_one_changes(tmp_path, monkeypatch):
    """Valeria's three decks name one layout: it is built once, not once per deck, and not again after an
    edit that left its files alone; an edit of its file, or a game layout of the name it extends put in the
    game folder (taking the place of pnp's), builds it again, and the deck then has the layout built afresh."""
    from pnp.loading import cardlayout

    root = tmp_path / "valeria"
    shutil.copytree(DATA_DIR / "shadow_kingdoms_of_valeria", root)
    built = []
    real = cardlayout._build
    monkeypatch.setattr(cardlayout, "_build", lambda name, *a, **k: built.append(name) or real(name, *a, **k))
    monkeypatch.setattr(cardlayout, "_NAMED", {}, raising=False)

    def decks():
        memo.clear()
        built.clear()
        return [repr(d.layout) for d in load_game(root).decks]

    def afresh():
        kept = dict(cardlayout._NAMED)
        cardlayout._NAMED.clear()
        try:
            return decks()
        finally:
            cardlayout._NAMED.clear()
            cardlayout._NAMED.update(kept)

    first = decks()
    assert built.count("valeria") == 1 and len(first) == 3
    (root / "battle_plans.yaml").write_text((root / "battle_plans.yaml").read_text() + "\n# a comment\n")
    assert decks() == first and "valeria" not in built
    layout = root / "templates" / "layouts" / "valeria.yaml"
    parent = load_yaml(layout).get("extends")
    assert parent, "the test needs a layout that extends another"
    own_parent = root / "templates" / "layouts" / f"{parent}.yaml"
    assert not own_parent.exists()
    own_parent.write_text((cardlayout.TEMPLATES_DIR / "layouts" / f"{parent}.yaml").read_text() + "\n")
    shadowed = decks()                                        # the parent is now the game's own file
    assert built.count("valeria") == 1 and parent in built and shadowed != first and shadowed == afresh()
    layout.write_text(layout.read_text().replace("regions:", "size: [60, 90]\nregions:", 1))
    edited = decks()
    assert built.count("valeria") == 1 and edited == afresh() and all("size=(60" in d for d in edited)


def test_a_chapter_edit_fits_the_booklet_again_from_the_last_fit_with_the_same_result(throne, monkeypatch):
    """The studio fits the booklet after a chapter edit from its last fit when it can show the search would
    choose the same (one chapter changed, before what any trial changed, its first layout of the same
    shape): two layout passes instead of the search's; every fit is the one made without the last fit, a
    sentence that grows the chapter by lines and an edit after what a trial changed are fitted afresh."""
    from pnp.rulebook import component as rulebook

    passes = []
    real = rulebook.lay_out
    monkeypatch.setattr(rulebook, "lay_out", lambda *a, **k: passes.append(1) or real(*a, **k))
    monkeypatch.setattr(rulebook, "_FITS", {}, raising=False)

    def fit(afresh: bool = False):
        memo.clear()
        game = load_game(throne)
        with for_game(game):
            cfg, figures, chapters, fills, words, size, _, _ = rulebook._prepared(game, "letter", game.language)
            kept = dict(rulebook._FITS)
            if afresh:
                rulebook._FITS.clear()
            passes.clear()
            laid, target, chosen = rulebook.fitted(game, cfg, chapters, fills, figures, size, game.language, words)
            if afresh:
                rulebook._FITS.clear()
                rulebook._FITS.update(kept)
            placed = [[(type(e[1]).__name__, getattr(e[1], "source", None), e[2:]) for e in page.events]
                      for page in laid.pages]
            return (placed, [p.template for p in laid.pages], target, chosen), len(passes)

    _, searched = fit()
    assert searched > 2
    chapters = throne / "templates" / "rulebook" / "en"
    for name, added, again in (("overview", " 42", True), ("overview", " and a long tail of words" * 8, False),
                               ("gold", " 7", True), ("reference", " 7", False)):
        path = chapters / f"{name}.md.j2"
        text = path.read_text()
        at = re.search(r"^[A-Z].*[a-z]\.$", text, re.M).end() - 1
        path.write_text(text[:at] + added + text[at:])
        try:
            (kept, made), (fresh, _) = fit(), fit(afresh=True)
            assert kept == fresh, name
            assert (made <= 2) == again, (name, made)
        finally:
            path.write_text(text)
            fit()
