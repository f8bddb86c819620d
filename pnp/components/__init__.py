"""The kit's components, one module per kind of piece (cards, tokens, boards, dice, standees, tracks, the hex
map, the box, the instructions page), found through the registry here (:data:`KINDS`; a game's ``components``
list in game.yaml names which it has). A component turns a game into output files of layout pages and may add
its own checks to ``pnp validate``; every build records the pieces they print (:mod:`pnp.components.record`)
and adds up their parts (:mod:`pnp.components.manifest`). Components may import draw, loading, layout, text,
the caches and pnp's leaves; the rulebook and its sheets, whose figures show these pieces, are
:mod:`pnp.rulebook`'s.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Callable

from pnp.text.markup import Safe
from pnp.units import PAPERS


@dataclass(frozen=True)
class BuildOptions:
    """The print settings a build or a check runs with (paper, duplex edges, language, sleeves, bleed, ...),
    given to every component."""

    paper: str = "letter"
    flip: str = "long"
    lang: str | None = None
    sleeved: str | None = None       # None, or a sleeve thickness name from the game's box data
    booklet_flip: str = "short"      # duplex edge for the imposed rulebook (landscape sheets)
    thorough: bool = True            # checks that play simulated games (validate: yes; build: no)
    bleed: float = 0.0               # mm of art past the trim line, with crop marks (print shops)
    back_offset: tuple = (0.0, 0.0)  # mm shift of card back pages, to correct duplex drift
    ink_saver: bool = False          # large colour fills become light tints with outlines
    players: int | None = None       # build the deck for this many players (None: the full deck)
    allow_missing: bool = False      # --lang: untranslated words are warnings, printed in the data's language
    cards: str = "sheets"            # sheets: fronts and backs on separate pages; gutterfold: on one sheet, folded
    cutter: str | None = None        # a cutting machine (pnp.layout.cutter.MACHINES): its marks, cut files beside
    changed_since: str | None = None  # an earlier kit's folder or a git reference: reprint.pdf holds the pieces
                                      # changed since (pnp.reprint.changes)

    @property
    def page_size(self) -> tuple[float, float]:
        return PAPERS[self.paper]


@dataclass(frozen=True)
class Part:
    """One line of the kit's bill of materials: ``count`` physical pieces of one kind made from a file.

    ``kind`` is what sort of piece it is (``card``, ``token``, ``die``, ``board``, ``tile``, ``standee``,
    ``booklet``, ``box``, ...), ``item`` names which (a deck's id, a token kind, a component's id) and
    ``name`` is how the instructions page prints it: markup (escaped data, or printed words), kept as
    :class:`pnp.text.markup.Safe` so templates print it as it is."""

    kind: str
    item: str
    count: int
    name: str = ""
    faces: int = 1        # printed faces of each piece: 2 for double-sided cards (both sides are played)

    def __post_init__(self):
        object.__setattr__(self, "name", Safe(self.name or ""))


#: How a file's sheets are printed: on one side, on both sides (duplex, or a second pass), or on one
#: side and folded double (fold-and-glue pieces).
SIDES = ("single", "double", "fold")


@dataclass
class Output:
    """One file of the kit: layout pages to paint, or a PDF already made (e.g. by platypus).

    ``parts`` are the physical pieces it makes; ``sides`` says how its sheets are printed; ``sheets``
    how many sheets of paper it takes (None: one per page; 0: it prints on the back of another file's
    sheets, as card backs do)."""

    filename: str
    title: str                       # outline entry in kit.pdf
    pages: list = field(default_factory=list)
    pdf: bytes | None = None
    in_kit: bool = True              # False for screen-only files (e.g. the rulebook in reading order)
    parts: tuple = ()                # Part per kind of piece it makes
    sides: str = "single"
    sheets: int | None = None
    interleave: tuple = ()           # two earlier files of the component, a page of each in turn (no pages)
    page_count: int | None = None    # known once the PDF is made
    beside: dict = field(default_factory=dict)  # other files written next to it (file name -> bytes): cut files
    record: str | None = None        # the pieces it prints, each with its drawing's fingerprint (JSON, made by
                                     # pnp.components.record.fragment): the kit's pieces.json gathers them
    share: str = ""                  # its nearly empty pages may go onto sheets shared with other files' pages
                                     # of the same ``share`` (pnp.build.sharing): how those sheets are printed
    blocks: tuple = ()               # per page, what it prints: (x, y, w, h) mm, or () for an empty page (set
                                     # when a file that shares is finished, from its layout pages)
    holds: tuple = ()                # a shared sheets' file: per file it holds pages of, (component id, title,
                                     # file name, "kind:sides"), for the instructions' words on each
    shared_page: object = None       # a layout page that goes onto shared sheets in place of the file's last
                                     # page (the last token sheet as a fold block); its other pages never do
    shared_pdf: bytes | None = None  # that page drawn (set when the file is finished)


@dataclass(frozen=True)
class KitEntry:
    """Where one file sits in kit.pdf (1-based pages), for pages that describe the kit."""

    filename: str
    title: str
    first: int
    last: int
    component: str = ""              # the component's id
    sheets: int = 0                  # sheets of paper (see Output.sheets)
    sides: str = "single"
    parts: tuple = ()                # Part per kind of piece
    pages: int = 0                   # the file's own pages (a file beside the kit has them too)
    beside: tuple = ()               # the names of the files written next to it (pictures, cut files)
    holds: tuple = ()                # shared sheets: what files' pages they hold (see Output.holds)


@dataclass(frozen=True)
class Component:
    """One kind of component: how it builds its files and checks its data. The kit holds the components
    in the order game.yaml's ``components`` lists them."""

    name: str
    build: Callable                  # (game, options) -> list[Output]; or, with needs_kit,
                                     # (game, options, entries: list[KitEntry]) -> list[Output]
    check: Callable | None = None    # (game, problems, options) -> None; runs when the data has no errors
    check_files: Callable | None = None  # (game, problems) -> None: its own files' problems, on every validate
    needs_kit: bool = False          # built last, knowing every other file's place in the kit
    kind: str = ""                   # the kind in KINDS (set per entry by game_components)
    weight: int = 1                  # its rough share of a build's time: parallel builds start big ones first
    warm: Callable | None = None     # (game, options) -> None: work a needs_kit component can do ahead (compile
                                     # its templates) while a parallel build waits for the other files
    pieces: Callable | None = None   # (game, options) -> its CutPieces (pnp.layout.outline), for the check that
                                     # text, icons and figures keep inside every cut line (pnp.validation.piececheck)
    words: Callable | None = None    # (game) -> [pnp.loading.i18n.catalogue.Source]: what its data prints that a
                                     # translation must give (titles, captions, labels, layouts' literals)
    split: Callable | None = None    # (game, options) -> its parts (a list) or None: a parallel build runs
                                     # run_part(game, options, checking, parts, i) for each part as a task, then
                                     # join_parts(game, problems, options, checking, parts, results) adds the
                                     # check's problems as check would and gives its outputs (None on errors);
                                     # build must give the same bytes (the card sheets of a large deck)
    run_part: Callable | None = None
    join_parts: Callable | None = None
    printed: Callable | None = None  # (game, options) -> [pnp.components.record.Printed]: every physical piece it prints with
                                     # its drawing, for pieces.json and --changed-since (its build records them too)
    reprint: Callable | None = None  # (game, options, labels: set, first: int) -> pnp.components.record.Reprinted: the sheets
                                     # of only the copies ``labels``, laid out as its build lays them out
    listed: Callable | None = None   # (game, options) -> its Outputs as the instructions page lists them (titles,
                                     # pieces, sides, pages), nothing laid out: a heavy build's stand-in for the
                                     # page's check (pnp.components.instructions.kit_entries)
    shares: bool = False             # its files' nearly empty pages may go onto shared sheets: the instructions
                                     # page's estimate lays it out (quick: nothing drawn) to count them
    view: Callable | None = None     # (game) -> the game as its build reads it (all it reads; the build narrows the
                                     # game to it first): the build cache keys it by this view instead of recorded reads


#: Every component kind and the module that defines it (its ``COMPONENT`` and, when it takes
#: settings, ``SCHEMA``: the keys of its entry in game.yaml's ``components``). An explicit table: no
#: import side effects, and a kind whose module fails to import fails loudly.
KINDS = {
    "instructions": "pnp.components.instructions",
    "track": "pnp.components.track",
    "hexmap": "pnp.components.hexmap",
    "cards": "pnp.components.cards",
    "tokens": "pnp.components.tokens",
    "rulebook": "pnp.rulebook.component",
    "box": "pnp.components.box",
    "sheet": "pnp.rulebook.sheets",
    "board": "pnp.components.board",
    "standee": "pnp.components.standee",
    "dice": "pnp.components.dice",
    "pad": "pnp.components.pad",
}
#: Older names, read as a kind with settings (``power_track`` is the track of game.yaml's
#: ``power_track:`` mapping, its start area holding the factions' tokens).
ALIASES = {"power_track": "track"}


@dataclass(frozen=True)
class ComponentSpec:
    """One entry of game.yaml's ``components``: its kind, its id (file names, preview targets) and its
    checked settings (``config``), with the line that declared it."""

    kind: str
    id: str
    config: dict = field(default_factory=dict, hash=False, compare=False)
    line: int | None = None

    def config_key(self) -> str:
        """The settings as a hashable key (a cache of what an entry lays out keys on it)."""
        return repr(sorted(self.config.items()))


def component(kind: str) -> Component:
    """The component of a kind (its module is imported the first time)."""
    return importlib.import_module(KINDS[ALIASES.get(kind, kind)]).COMPONENT


def schema(kind: str) -> dict:
    """The settings a kind accepts in a ``components`` entry (``{}`` when it takes none)."""
    return getattr(importlib.import_module(KINDS[ALIASES.get(kind, kind)]), "SCHEMA", {})


def load_all() -> dict[str, Component]:
    """Every component kind's component, by kind name."""
    return {kind: component(kind) for kind in KINDS}


def game_components(game) -> list[Component]:
    """The game's components in kit order (as game.yaml's ``components`` lists them), each bound to its
    entry's settings: ``build(game, options)``, ``check(game, problems, options)``,
    ``check_files(game, problems)``."""
    out = []
    for spec in getattr(game, "component_specs", ()) or _legacy_specs(game):
        base = component(spec.kind)
        out.append(replace(
            base, name=spec.id, kind=spec.kind,
            build=partial(base.build, spec=spec),
            check=partial(base.check, spec=spec) if base.check else None,
            check_files=partial(base.check_files, spec=spec) if base.check_files else None,
            pieces=partial(base.pieces, spec=spec) if base.pieces else None,
            words=partial(base.words, spec=spec) if base.words else None,
            printed=partial(base.printed, spec=spec) if base.printed else None,
            reprint=partial(base.reprint, spec=spec) if base.reprint else None,
            listed=partial(base.listed, spec=spec) if base.listed else None))
    return out


def _legacy_specs(game) -> tuple:
    return tuple(ComponentSpec(ALIASES.get(name, name), name) for name in game.components if
                 ALIASES.get(name, name) in KINDS)
