"""Outside games (issue 32): every game folder in ``../shared/games`` of the project's root (any subfolder
with a game.yaml; games written by people outside the project, see that folder's README), copied to a
temporary folder and used every way pnp offers: ``validate`` (in every language the game ships), ``build``
on Letter and A4 and in every translation of its ``i18n/`` folder, ``--cards gutterfold``, every
``--cutter``, ``--preset drivethrucards``, ``export cards`` plain and with every preset, ``export tts``,
``preview`` of cards, backs and every component, and the studio's ``/api/game``.

None may end in exit 70 (a bug in pnp). The games are meant to build: every command succeeds, except
where pnp refuses what a game's art cannot give (DriveThruCards' CMYK file and its one card size), and a
refusal is exit 2 with every problem at its ``file:line`` inside the game. Each kit built with the build
cache (cold, and again from the filled cache) is byte-identical to ``--no-cache``.

The games are never edited: each is copied once per session, and every kit is built once per
(paper, language, options) and shared by the tests that read it; commands run in this process. Where
``../shared/games`` does not exist (a fresh clone on its own) the tests skip with the reason. The default
run keeps what users reach first: validate, both papers with the cache check, the translations,
DriveThruCards, the plain card export, a card, the backs and the aid, and the studio's card list. The
rest of the matrix (each cutter, gutterfold, every print service, Tabletop Simulator, every component's
preview, the studio drawing every component, the translations' cache check) is marked slow; ``.ci/run``
runs it too (``pytest -m slow tests/test_outside_games.py``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pikepdf
import pytest
from click.testing import CliRunner
from PIL import Image

from pnp.commands.cli import main
from pnp.exports.presets import PRESETS
from pnp.draw.raster import size_px
from pnp.layout.cutter import MACHINES
from pnp.loading.gamedata import load_game
from pnp.units import PAPERS

#: The project's root: the folder holding tests/ (never the working directory pytest runs in).
ROOT = Path(__file__).resolve().parent.parent
CACHE_DIR = ".pnp-cache"
EXIT_INTERNAL = 70


def _main_checkout(root: Path) -> Path | None:
    """The main checkout of the repository whose linked worktree is ``root`` (its ``.git`` is a file naming
    ``<main>/.git/worktrees/<name>``), else None."""
    dot_git = root / ".git"
    if not dot_git.is_file():
        return None
    gitdir = Path(dot_git.read_text().partition("gitdir:")[2].strip())
    common = gitdir / "commondir"
    if not common.is_file():
        return None
    return (gitdir / common.read_text().strip()).resolve().parent


def corpus_folder() -> Path:
    """``../shared/games`` from the project's root (``PNP_OUTSIDE_GAMES`` names another folder; a linked git
    worktree looks beside its main checkout)."""
    named = os.environ.get("PNP_OUTSIDE_GAMES")
    if named:
        return Path(named)
    found = ROOT.parent / "shared" / "games"
    main_checkout = _main_checkout(ROOT)
    if not found.is_dir() and main_checkout is not None:
        return main_checkout.parent / "shared" / "games"
    return found


CORPUS = corpus_folder()
GAMES = sorted(p.name for p in CORPUS.iterdir() if (p / "game.yaml").is_file()) if CORPUS.is_dir() else []
SKIP = f"no outside games: {CORPUS} does not exist or holds no game folder (CI has ../shared/games; see its README)"


def each_game(*combined):
    """Parameters for every outside game (times each of ``combined``'s values), or one that skips with
    the reason when there is none."""
    if not GAMES:
        return [pytest.param(None, *(None for _ in combined), marks=pytest.mark.skip(reason=SKIP))]
    if not combined:
        return GAMES
    (values,) = combined
    return [(game, value) for game in GAMES for value in values]


#: ``path:line[:column]: `` at the start of a problem pnp prints.
AT_LINE = re.compile(r"^(?P<file>[^:\s][^:]*):(?P<line>\d+)(?::\d+)?: ")
SUMMARY = re.compile(r"^\d+ problems? found; nothing was written\.$")


class Corpus:
    """The outside games copied once into a temporary folder, and every command run on them once:
    ``run`` memoises a command's result by its arguments, ``kit`` a build's folder."""

    def __init__(self, tmp_path_factory):
        self.tmp = tmp_path_factory
        self.folders: dict[str, Path] = {}
        self.games: dict = {}
        self.results: dict = {}

    def folder(self, name: str) -> Path:
        if name not in self.folders:
            dest = self.tmp.mktemp(f"outside-{name}") / name
            shutil.copytree(CORPUS / name, dest)
            self.folders[name] = dest
        return self.folders[name]

    def game(self, name: str):
        if name not in self.games:
            self.games[name] = load_game(self.folder(name))
        return self.games[name]

    def languages(self, name: str) -> list[str]:
        """Every translation the game ships: the languages of its i18n/ folder."""
        return sorted(p.stem for p in (self.folder(name) / "i18n").glob("*.yaml"))

    def invoke(self, *args: str):
        result = CliRunner().invoke(main, [str(a) for a in args])
        assert result.exit_code != EXIT_INTERNAL, f"pnp {' '.join(map(str, args))}\n{result.output}"
        return result

    def run(self, name: str, command: tuple, *args: str):
        """``pnp COMMAND... <the game's copy> ARGS...``, once per session."""
        key = (name, command, args)
        if key not in self.results:
            self.results[key] = self.invoke(*command, self.folder(name), *args)
        return self.results[key]

    def kit(self, name: str, *options: str, paper: str = "letter", cache: str = "own") -> Path:
        """The folder of ``pnp build`` of the game with ``options`` on ``paper``; ``cache``: ``own`` (the
        kit folder's, empty before the build), ``none`` (``--no-cache``), or ``warm`` (a new kit folder
        built from the filled cache of the ``own`` build)."""
        key = (name, "kit", options, paper, cache)
        if key not in self.results:
            out = self.tmp.mktemp(f"kit-{name}-{paper}-{cache}")
            extra = {"own": [], "none": ["--no-cache"]}.get(cache)
            if extra is None:
                extra = ["--cache", self.kit(name, *options, paper=paper) / CACHE_DIR]
            result = self.invoke("build", self.folder(name), "--paper", paper, *options, *extra, "--out", out)
            assert result.exit_code == 0, f"pnp build {name} {' '.join(options)} --paper {paper}\n{result.output}"
            self.results[key] = out
        return self.results[key]


@pytest.fixture(scope="session")
def corpus(tmp_path_factory) -> Corpus:
    return Corpus(tmp_path_factory)


def kit_files(folder: Path) -> dict[str, bytes]:
    """Every file of a kit folder (not the build cache) by its path inside it."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and CACHE_DIR not in p.relative_to(folder).parts}


def assert_same_kit(built: Path, reference: Path) -> None:
    """Every file of the two kits byte for byte (the same names, the same bytes)."""
    mine, theirs = kit_files(built), kit_files(reference)
    assert sorted(mine) == sorted(theirs)
    differ = [name for name in theirs if mine[name] != theirs[name]]
    assert not differ, f"{built} and {reference} differ in {differ}"


def assert_refused_at_lines(result, game_dir: Path) -> list[str]:
    """Exit 2, and each problem printed names a file inside the game folder and a line it has."""
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip() and not SUMMARY.match(line)]
    assert lines, result.output
    for line in lines:
        found = AT_LINE.match(line)
        assert found, f"a refusal without file:line: {line!r}"
        path = Path(found["file"]).resolve()
        assert path.is_relative_to(game_dir.resolve()), line
        assert 1 <= int(found["line"]) <= len(path.read_text(encoding="utf-8").splitlines()), line
    return lines


def physical_cards(game, deck) -> int:
    return sum(card.copies for card in deck.cards)


# ---------------------------------------------------------------------------------------------- validate


@pytest.mark.parametrize("name", each_game())
def test_validates_in_every_language_it_ships(corpus, name):
    result = corpus.run(name, ("validate",))
    game = corpus.game(name)
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().splitlines()[-1].startswith(f"{game.title}: ")
    assert result.output.rstrip().endswith(": valid")
    for lang in corpus.languages(name):
        result = corpus.run(name, ("validate",), "--lang", lang)
        assert result.exit_code == 0, f"--lang {lang}\n{result.output}"


# ---------------------------------------------------------------------------------------------- build


@pytest.mark.parametrize("name, paper", each_game(sorted(PAPERS)))
def test_builds_on_both_papers_and_the_cache_gives_the_same_bytes(corpus, name, paper):
    """The kit on Letter and A4: every page the paper's size, every component and every card in the
    manifest; built again from the filled cache, and without the cache, byte for byte the same."""
    kit = corpus.kit(name, paper=paper)
    game = corpus.game(name)
    width, height = PAPERS[paper]
    with pikepdf.open(kit / "kit.pdf") as pdf:
        sizes = {tuple(sorted(round(float(v) * 25.4 / 72, 1) for v in page.mediabox[2:])) for page in pdf.pages}
    assert sizes == {tuple(sorted((round(width, 1), round(height, 1))))}
    manifest = json.loads((kit / "manifest.json").read_text())
    assert manifest["paper"] == paper and manifest["game"] == game.title
    # the kit's shared sheets (pnp.build.sharing) are an entry of kind "shared" after the pieces they hold
    assert [c["id"] for c in manifest["components"] if c["kind"] != "shared"] == list(game.components)
    cards = {p["item"]: p["count"] for c in manifest["components"] for p in c["pieces"] if p["kind"] == "card"}
    aids = {f"{deck.id}-aids": deck.aid_copies for deck in game.decks if deck.aid_copies}
    assert cards == {deck.id: physical_cards(game, deck) for deck in game.decks} | aids

    assert_same_kit(corpus.kit(name, paper=paper, cache="none"), kit)
    assert_same_kit(corpus.kit(name, paper=paper, cache="warm"), kit)


@pytest.mark.parametrize("name", each_game())
def test_builds_in_every_translation_it_ships(corpus, name):
    """``--lang`` for each language of its i18n/ folder: the game's own language gives the kit it builds
    without ``--lang``, byte for byte."""
    game = corpus.game(name)
    if not corpus.languages(name):
        pytest.skip(f"{name} ships no translation (no i18n/*.yaml)")
    for lang in corpus.languages(name):
        kit = corpus.kit(name, "--lang", lang)
        assert (kit / "kit.pdf").is_file()
        if lang == game.language:
            assert_same_kit(kit, corpus.kit(name))


@pytest.mark.slow
@pytest.mark.parametrize("name", each_game())
def test_translations_with_the_cache_give_the_same_bytes(corpus, name):
    for lang in corpus.languages(name):
        for paper in sorted(PAPERS):
            kit = corpus.kit(name, "--lang", lang, paper=paper)
            assert_same_kit(corpus.kit(name, "--lang", lang, paper=paper, cache="none"), kit)


@pytest.mark.slow
@pytest.mark.parametrize("name", each_game())
def test_gutterfold(corpus, name):
    kit = corpus.kit(name, "--cards", "gutterfold")
    assert (kit / "cards-gutterfold.pdf").is_file() and not (kit / "cards-fronts.pdf").exists()
    assert_same_kit(corpus.kit(name, "--cards", "gutterfold", cache="none"), kit)


@pytest.mark.slow
@pytest.mark.parametrize("name", each_game())
def test_every_cutter(corpus, name):
    """Each cutting machine: a cut file in SVG and in DXF for the card sheets (and each other sheet cut),
    the two naming the same sheets; with the cache, the same bytes."""
    import ezdxf

    for machine in sorted(MACHINES):
        kit = corpus.kit(name, "--cutter", machine)
        svgs = {p.stem for p in kit.glob("*-cut-*.svg")}
        dxfs = {p.stem for p in kit.glob("*-cut-*.dxf")}
        assert svgs == dxfs and any(stem.startswith("cards-") for stem in svgs), (machine, sorted(svgs))
        for stem in dxfs:
            assert len(ezdxf.readfile(kit / f"{stem}.dxf").modelspace()) > 0, (machine, stem)
        assert_same_kit(corpus.kit(name, "--cutter", machine, cache="none"), kit)


@pytest.mark.parametrize("name", each_game())
def test_drivethrucards_where_its_art_allows(corpus, name, tmp_path):
    """``--preset drivethrucards``: a CMYK PDF/X-1a file per deck, or (art the service's CMYK file cannot
    take, a card size it does not print) exit 2 with every problem at its file and line."""
    out = tmp_path / "dtc"
    result = corpus.invoke("build", corpus.folder(name), "--preset", "drivethrucards", "--out", out)
    game = corpus.game(name)
    if result.exit_code != 0:
        assert_refused_at_lines(result, corpus.folder(name))
        assert not out.exists() or not any(out.iterdir())
        return
    expected = ([f"drivethrucards-{d.id}.pdf" for d in game.decks] if game.several_decks
                else ["drivethrucards.pdf"])
    assert sorted(p.name for p in out.iterdir()) == sorted(expected)
    for deck, name_ in zip(game.decks, expected):
        with pikepdf.open(out / name_) as pdf:
            assert pdf.docinfo["/GTS_PDFXVersion"] == "PDF/X-1a:2003"
            assert len(pdf.pages) >= 2 * physical_cards(game, deck)


# ---------------------------------------------------------------------------------------------- exports


@pytest.mark.parametrize("name", each_game())
def test_export_cards(corpus, name, tmp_path):
    """One PNG per physical card (and player aid), each of its deck's card size at the dpi asked for."""
    game = corpus.game(name)
    result = corpus.invoke("export", "cards", corpus.folder(name), "--dpi", "60", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    for deck in game.decks:
        folder = tmp_path / deck.id if game.several_decks else tmp_path
        faces = sorted(p for p in folder.glob("*.png") if not p.name.startswith("back"))
        assert len(faces) == physical_cards(game, deck) + deck.aid_copies, deck.id
        with Image.open(faces[0]) as face, Image.open(folder / "back.png") as back:
            assert face.size == back.size == size_px(deck.width, deck.height, 60)


@pytest.mark.slow
@pytest.mark.parametrize("name", each_game())
def test_export_cards_for_every_print_service(corpus, name, tmp_path):
    """For each service, its template's ``fronts/`` (one image per physical card of every deck it prints)
    and ``back.png`` of the same size; a deck a service does not print is named at its line."""
    game = corpus.game(name)
    for service in sorted(PRESETS):
        out = tmp_path / service
        result = corpus.invoke("export", "cards", corpus.folder(name), "--preset", service, "--out", out)
        assert result.exit_code == 0, f"--preset {service}\n{result.output}"
        for deck in game.decks:
            folder = out / deck.id if game.several_decks else out
            if not folder.is_dir():
                line = next(ln for ln in result.output.splitlines() if f"deck '{deck.id}'" in ln)
                assert AT_LINE.match(line) and "left out" in line, line
                continue
            fronts = sorted((folder / "fronts").iterdir())
            assert len(fronts) == physical_cards(game, deck) + deck.aid_copies, (service, deck.id)
            with Image.open(fronts[0]) as first, Image.open(folder / "back.png") as back:
                assert first.size == back.size


@pytest.mark.slow
@pytest.mark.parametrize("name", each_game())
def test_export_tts(corpus, name, tmp_path):
    game = corpus.game(name)
    result = corpus.invoke("export", "tts", corpus.folder(name), "--out", tmp_path)
    assert result.exit_code == 0, result.output
    sheets = json.loads((tmp_path / "tts.json").read_text())
    counted = {}
    for card in sheets["cards"]:
        if card["kind"] == "card":
            counted[card.get("deck", game.decks[0].id)] = counted.get(card.get("deck", game.decks[0].id), 0) + 1
    assert counted == {d.id: physical_cards(game, d) for d in game.decks}
    for sheet in sheets["sheets"]:
        with Image.open(tmp_path / sheet["file"]) as image:
            assert image.size == (sheet["width"], sheet["height"])
    saved = json.loads((tmp_path / f"{game.root.name}.json").read_text())
    assert saved["ObjectStates"]


# ---------------------------------------------------------------------------------------------- previews


def _previews(corpus, name, targets, folder: Path, monkeypatch) -> dict:
    """``pnp preview TARGET`` for each target, run in ``folder`` (it prints the paths it writes): {target:
    the PNGs it wrote}."""
    monkeypatch.chdir(folder)
    written = {}
    for target in targets:
        result = corpus.invoke("preview", target, corpus.folder(name), "--dpi", "40")
        assert result.exit_code == 0, f"pnp preview {target}\n{result.output}"
        written[target] = [folder / line for line in result.output.splitlines() if line.endswith(".png")]
        assert written[target], result.output
        for png in written[target]:
            with Image.open(png) as image:
                assert min(image.size) > 20
    return written


def _card_targets(game) -> list[str]:
    """The first card of every deck, ``back`` (every deck's) and ``aid`` where a deck has one."""
    return ([deck.cards[0].id for deck in game.decks] + ["back"]
            + (["aid"] if any(deck.aid_copies for deck in game.decks) else []))


@pytest.mark.parametrize("name", each_game())
def test_preview_of_a_card_a_back_and_the_aid(corpus, name, tmp_path, monkeypatch):
    game = corpus.game(name)
    written = _previews(corpus, name, _card_targets(game), tmp_path, monkeypatch)
    assert len(written["back"]) == len(game.decks)


@pytest.mark.slow
@pytest.mark.parametrize("name", each_game())
def test_preview_of_every_component_and_every_back(corpus, name, tmp_path, monkeypatch):
    from pnp.exports.preview import face_targets

    game = corpus.game(name)
    backs = [t for t in face_targets(game) if t.rpartition(":")[2].startswith("back")]
    _previews(corpus, name, [*backs, *game.components, "kit"], tmp_path, monkeypatch)


# ---------------------------------------------------------------------------------------------- studio


def _studio_lists_every_card(data, game) -> None:
    assert data["title"] == game.title and data["errors"] == 0, data["problems"]
    assert [d["id"] for d in data["decks"]] == [d.id for d in game.decks]
    assert sorted(c["id"] for c in data["cards"]) == sorted(c.id for d in game.decks for c in d.cards)
    assert all(c["image"] for c in data["cards"])


@pytest.mark.parametrize("name", each_game())
def test_studio_lists_every_card_with_its_picture(corpus, name, tmp_path):
    """``/api/game`` of a studio that does not draw the kit: every deck and card, each card's face drawn."""
    from serve_helpers import running

    game = corpus.game(name)
    with running(corpus.folder(name), tmp_path / "out", draw=False) as (srv, client):
        data = client.json()
        _studio_lists_every_card(data, game)
        status, _, body = client.get(data["cards"][0]["image"])
        assert status == 200 and body.startswith(b"\x89PNG")


@pytest.mark.slow
@pytest.mark.parametrize("name", each_game())
def test_studio_draws_every_component(corpus, name, tmp_path):
    from serve_helpers import running

    game = corpus.game(name)
    with running(corpus.folder(name), tmp_path / "out") as (srv, client):
        data = client.wait_for(lambda d: d["checked"], timeout=300)
        _studio_lists_every_card(data, game)
        assert [c["name"] for c in data["components"]] == list(game.components)
        for component in data["components"]:
            assert component["files"] and not component.get("error"), component
            page = component["files"][0]["pages"][0]
            status, _, body = client.get(page["image"])
            assert status == 200 and body.startswith(b"\x89PNG"), component["name"]
