"""The build cache: what a build drew before, kept on disk and used again when nothing it depends on changed.

A rebuild after one edit redraws only what the edit changed. Entries of a few kinds, each named by a hash
(its *key*) of everything the work depends on, so that a missed dependency cannot make a stale entry
look current:

* **a drawn file** (:meth:`BuildCache.rendered`): the PDF painted from an output's layout pages, keyed
  by the pages themselves (the same plain, frozen elements the painter reads: every text, colour,
  position and icon name), the bytes of every picture file they place, the game's icons (names and SVG
  bytes), the document's title and author, and what pnp draws with (below). Whatever the data, the
  look, a translation or a layout changes reaches the PDF only through those elements, so they are the
  key; a card edit redraws the sheets that show the card and reuses the others. Files two PDFs are
  merged from (card fronts and backs interleaved, kit.pdf) are keyed by the bytes of their parts.
* **a whole component** (:class:`pnp.build.kit._Kept`): its check's warnings and its finished files, keyed
  by its identity (pnp's code, the build's options, the component's name and kind, and the bytes of every
  file of the game folder but the card files, :func:`card_files`) and by the values of the attributes of
  the loaded game it read (:class:`recording`, :func:`reads_digest`). A card file reaches a component only
  through the cards it holds, so a card edit misses exactly the components that read the cards.
* **finer pieces** keyed the same way: each card's face and check (:mod:`pnp.components.cards`, by the
  card and its deck without the other cards), the card sheets of a large deck in pieces of 32 sheets,
  the rulebook's drawn booklet by what its layout and drawing read (:mod:`pnp.rulebook.component`),
  and the record of a whole kit that lets ``pnp build`` do nothing when nothing it reads changed
  (:mod:`pnp.cache.uptodate`).

"What pnp draws with" (:func:`code_digest`): pnp's version, the size and modification time of every
file of pnp's own code, bundled templates and fonts and the rules engines, the versions of the
libraries that write the bytes, and ``SOURCE_DATE_EPOCH`` (the documents' dates).

The cache folder is ``.pnp-cache`` inside the output folder unless ``--cache DIR`` names another, so
pnp writes nowhere else unasked; entries are stored only once the kit is written (a failed build
leaves no folder behind). The folder is pnp's alone (:mod:`pnp.cache.cachedir`): marked, refused when it
holds anything pnp did not put there, and pruned of pnp's own files only (``LAYOUT/entries/KEY.json``,
``LAYOUT/blobs/SHA256.blob``). An entry is JSON metadata, with the SHA-256 of its own content, and the
PDF bytes it names by SHA-256 and size, each checked when read (the sizes before anything is read):
nothing is unpickled or executed, and an entry that is damaged, foreign, too large or of another format
is ignored (the work is done again). The folder is kept to :data:`MAX_BYTES`, the least recently used
entries dropped first.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import threading
import time
import weakref
from dataclasses import dataclass, fields, is_dataclass, replace
from functools import lru_cache
from pathlib import Path

from pnp import FONTS_DIR, PROJECT_ROOT, TEMPLATES_DIR, __version__
from pnp.cache import cachedir

#: The default cache folder's name, inside the output folder.
FOLDER = ".pnp-cache"
#: What an entry's metadata says it is; another format is ignored.
MARK = "pnp build cache"
FORMAT = 2
#: This format's subfolder of the cache folder, and its entries' and blobs' subfolders.
LAYOUT = f"build-v{FORMAT}"
ENTRIES, BLOBS = "entries", "blobs"
#: The cache folder's size limit: least recently used entries are dropped past it.
MAX_BYTES = 512 << 20
#: An entry's metadata larger than this is not pnp's.
MAX_META_BYTES = 8 << 20
#: A blob larger than this is not kept (nor read: its size is checked before it is).
MAX_BLOB_BYTES = 256 << 20
#: The names pnp gives: an entry's key, a blob's SHA-256, and their files (format 2, and before: flat).
_KEY = re.compile(r"[0-9a-f]{32}")
_SHA = re.compile(r"[0-9a-f]{64}")
_ENTRY_FILE = re.compile(r"[0-9a-f]{32}\.json")
_BLOB_FILE = re.compile(r"[0-9a-f]{64}\.blob")
_OLD_ENTRY, _OLD_BLOB = _ENTRY_FILE, _BLOB_FILE
_OLD_TEMPORARY = re.compile(r"\.(?:[0-9a-f]{32}\.json|[0-9a-f]{64}\.blob)\.[0-9a-f]{8}\.tmp")
#: A file modified less than this long ago (ns) is hashed again at its next use, whatever its stamp says.
RACY_NS = 2_000_000_000
#: Folders of a game folder whose files are no part of the game (version control, Python's caches).
SKIPPED_DIRS = frozenset({".git", ".hg", ".svn", "__pycache__"})


def digest(*parts) -> str:
    """A content hash (32 hex digits) of ``parts``, each bytes or turned into text with ``repr``."""
    h = hashlib.blake2b(digest_size=16)
    for part in parts:
        data = part if isinstance(part, bytes) else repr(part).encode("utf-8", "surrogatepass")
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def _stat_walk(root: Path) -> list:
    out = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
        for name in sorted(files):
            path = os.path.join(folder, name)
            try:
                st = os.stat(path)
            except OSError:
                continue
            out.append((os.path.relpath(path, root), st.st_size, st.st_mtime_ns))
    return out


@lru_cache(maxsize=1)
def _code_stamp() -> str:
    import importlib.metadata as md

    versions = []
    for dist in ("reportlab", "pikepdf", "pillow", "svglib", "jinja2", "pyyaml", "pypdfium2"):
        try:
            versions.append((dist, md.version(dist)))
        except md.PackageNotFoundError:
            versions.append((dist, None))
    trees = [PROJECT_ROOT / "pnp", PROJECT_ROOT / "rules_engine", TEMPLATES_DIR, FONTS_DIR]
    return digest(__version__, versions, [(str(t), _stat_walk(t)) for t in trees])


def code_digest() -> str:
    """What pnp draws with (see the module). The code's stamp is taken once per process: a long-running
    ``pnp watch`` or ``pnp serve`` runs the code it started with."""
    return digest(_code_stamp(), os.environ.get("SOURCE_DATE_EPOCH", "").strip())


class FileDigests:
    """Hashes of files' bytes, read again only when a file's size, modification time or inode changes
    (kept for the life of the process: ``pnp watch`` and ``pnp serve`` hash an unchanged file once)."""

    def __init__(self):
        self._known: dict[str, tuple] = {}
        self._lock = threading.Lock()

    def __call__(self, path) -> str:
        path = os.fspath(path)
        try:
            st = os.stat(path)
        except OSError:
            return "missing"
        if not stat.S_ISREG(st.st_mode):        # a FIFO or a device in a game folder: never opened (it could block)
            return "not a regular file"
        stamp = (st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)
        with self._lock:
            known = self._known.get(path)
        if known and known[0] == stamp:
            return known[1]
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
            with open(fd, "rb") as f:
                if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):     # replaced since the stat
                    return "not a regular file"
                value = digest(f.read())
        except OSError:
            return "unreadable"
        if time.time_ns() - st.st_mtime_ns > RACY_NS:      # a file written just now may change again
            with self._lock:                                 # within the clock's tick: read it next time too
                self._known[path] = (stamp, value)
        return value


def card_files(game) -> set:
    """The files that hold a game's cards (its decks' ``cards_file``, game.yaml excepted): their contents
    reach the build only through the game object (``cards``, ``decks``, ``sources``), whose reads are
    recorded (:class:`recording`), so the folder key of a component leaves them out and a card edit
    misses only the components that read the cards."""
    out = set()
    for deck in getattr(game, "decks", ()) or ():
        path = getattr(deck, "cards_file", None)
        if path is not None and Path(path).name != "game.yaml":
            out.add(_real(path))
    return out


def _real(path) -> Path:
    """``path`` with its links followed as far as they go (a link loop in a game folder is no error here:
    ``Path.resolve`` raises on it; the file's own check reports it)."""
    return Path(os.path.realpath(path))


def folder_digest(root, files: FileDigests, skip=(), leave_out=(), templates_apart: bool = False):
    """The bytes of every file under ``root`` (not under ``skip``, nor version control's folders, nor
    the files ``leave_out`` names), with their paths: any other edit, new or removed file of a game
    folder changes it. ``templates_apart``: (that digest, the same without the bytes of the templates,
    ``templates/**.j2``: the key of a piece of work that keys the templates it read apart, with
    :func:`pnp.text.templating.templates_stamp`)."""
    root = _real(root)
    skipped = {_real(p) for p in skip if p is not None}
    left = {_real(p) for p in leave_out}
    entries, apart = [], []
    templates = root / "templates"
    for folder, dirs, names in os.walk(root):
        here = Path(folder)
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and _real(here / d) not in skipped)
        for name in sorted(names):
            path = here / name
            if left and _real(path) in left:
                entries.append((str(path.relative_to(root)), "read through the game object"))
                apart.append(entries[-1])
                continue
            entries.append((str(path.relative_to(root)), files(path)))
            if templates_apart:
                template = name.endswith(".j2") and path.is_relative_to(templates)
                apart.append((entries[-1][0], "a template: keyed by what reads it") if template else entries[-1])
    if templates_apart:
        return digest(str(root), entries), digest(str(root), "templates apart", apart)
    return digest(str(root), entries)


# ---------------------------------------------------------------------- what a component reads of the cards

@dataclass(frozen=True)
class _Copies:
    """A card as :func:`counts_only` shows it: how many copies it has (and whether it has a side B)."""

    copies: int
    side_b: bool = False


#: One :class:`_Copies` for each number of copies and side B (equal values, one object): a view of
#: 20,000 cards holds a handful, which a template's conversion of the view converts once each
#: (:func:`pnp.text.templating.data_value` keeps what it converted by the object).
_SHARED_COPIES: dict = {}


def _copies(copies, side_b: bool) -> _Copies:
    try:
        found = _SHARED_COPIES.get((type(copies), copies, side_b))
    except TypeError:                   # not a number: made for this card
        return _Copies(copies, side_b)
    if found is None:
        if len(_SHARED_COPIES) >= 1024:
            _SHARED_COPIES.clear()
        found = _SHARED_COPIES[(type(copies), copies, side_b)] = _Copies(copies, side_b)
    return found


def counts_only(game):
    """``game`` as a component that only counts the cards reads it (the instructions page, the box): every
    card's contents left out, each deck's cards standing as their numbers of copies (``deck.physical()``,
    ``game.deck_for()`` and ``aid_count`` count as before; where each card and each of its keys is written,
    ``sources`` and ``field_lines``, left out with them). Such a component narrows the game to this
    first and reads nothing else, so the cache keys it by this view (``Component.view``): a card edit that
    keeps the counts finds it built."""
    if all(isinstance(c, _Copies) for d in game.decks for c in d.cards) and not game.cards:
        return game
    decks = tuple(replace(d, cards=tuple(_copies(c.copies, c.side_b is not None) for c in d.cards), art={},
                          side_b=replace(d.side_b, art={}, lines={}) if d.side_b is not None else None)
                  for d in game.decks)
    return replace(game, cards=(), sources={}, field_lines={}, decks=decks)


# ---------------------------------------------------------------------- recorded reads of the game object

_RECORDING: list = []          # the name sets being recorded into (innermost last)
_TARGETS: list = []            # the same sets, each once (a check records the game and every card into one)
_TARGET_USES: dict = {}        # id of a set of _TARGETS -> how many entries of _RECORDING it has
_SUBCLASSES: dict = {}
_HASHING: list = []            # objects being hashed or compared (their fields' reads are not the work's)
_KEYED: list = [None]          # the object a memo that replays its reads is about to hash (see replays_reads)


def _note(names) -> None:
    for reads in _TARGETS:
        reads.update(names)


def note_reads(names) -> None:
    """Count ``names`` as read by whatever is being recorded now: a result kept from an earlier run hands
    back what that run read (:mod:`pnp.cache.played`), so a key made of the recorded reads is as complete
    as when the work is done."""
    _note(names)


def _start_target(reads: set) -> None:
    """``reads`` recorded into once more. A set recorded into through several objects (a validation unit
    records the game and each of its cards into one set) stands once in :data:`_TARGETS`, so a read
    updates it once, not once for each of them (55 times for Shadow Throne's cards: most of what the
    recording cost)."""
    _RECORDING.append(reads)
    uses = _TARGET_USES.get(id(reads), 0)
    if not uses:
        _TARGETS.append(reads)
    _TARGET_USES[id(reads)] = uses + 1


def _stop_target(reads: set) -> None:
    del _RECORDING[next(i for i, r in enumerate(_RECORDING) if r is reads)]
    uses = _TARGET_USES.pop(id(reads)) - 1
    if uses:
        _TARGET_USES[id(reads)] = uses
    else:
        del _TARGETS[next(i for i, r in enumerate(_TARGETS) if r is reads)]


def _recording_class(cls):
    """A subclass of ``cls`` whose instances note the name of every attribute read of them into the
    sets being recorded (the class of a game object while a component's work is recorded)."""
    sub = _SUBCLASSES.get(cls)
    if sub is None:
        get = object.__getattribute__
        names = tuple(f.name for f in fields(cls)) if is_dataclass(cls) else ()

        def __getattribute__(self, name):
            if _RECORDING and not _HASHING and name[:2] != "__":
                for reads in _TARGETS:
                    reads.add(name)
            return get(self, name)

        def whole(self, compare):
            # hashed or compared whole: a memo keyed by the object may give back anything computed from
            # it, so every field counts as read (unless the memo replays its own reads: replays_reads)
            if _KEYED[0] is self:
                _KEYED[0] = None
            else:
                _note(names)
            _HASHING.append(self)
            try:
                return compare()
            finally:
                _HASHING.pop()

        def __hash__(self):
            return whole(self, lambda: cls.__hash__(self))

        def __eq__(self, other):
            return whole(self, lambda: cls.__eq__(self, other))

        sub = type(cls.__name__, (cls,), {"__getattribute__": __getattribute__, "__hash__": __hash__,
                                          "__eq__": __eq__, "__slots__": (),
                                          "__doc__": cls.__doc__, "__module__": cls.__module__,
                                          "__qualname__": cls.__qualname__})
        _SUBCLASSES[cls] = sub
        _SUBCLASSES[sub] = sub
    return sub


def replays_reads(func):
    """Above ``@lru_cache`` (and ``@reads_files``) of a function whose first argument is the game: the
    names of the game's attributes it read when it computed a result are noted with it and counted as
    read again whenever the result is given back from the memo (without it, handing a memoized result
    to a recorded component counts every attribute of the game as read).

    Asked for while the game's cards' reads are recorded too (by a validation unit, :mod:`pnp.cache.checked`,
    or a play, :mod:`pnp.cache.played`), the result is made apart, neither taken from the memo nor kept
    in it, and kept for the next unit with what it read of the game and the cards (:class:`_Apart`):
    what it reads of the cards is then recorded where it belongs, and the names kept with a memoized
    result are the game's only, whichever check asked first. (Kept, they held the names of
    the cards' attributes when a unit had made the result, not when a component had, so a component
    given the result back was keyed by other names as the checks before it ran or came from the build
    cache: after an edit undone, Valeria's rulebook and cards looked up names their entries were not
    kept under, and missed.)"""
    import functools

    from pnp.cache import memo as file_memos

    noted: dict = {}
    apart = _Apart()           # (id of the game, arguments) -> (game, result, names): made for units
    apart.__module__, apart.__name__ = func.__module__, f"{func.__name__} (made for validation units)"
    file_memos.reads_files(apart)

    @functools.wraps(func)
    def wrapper(game, *args):
        cards = _cards_of(game)
        if cards and is_recorded(cards[0]):
            key = (id(game), args)
            found = apart.get(key)
            if found is not None and found[0] is game:
                _note(found[2])
                return found[1]
            names = set()
            with recording(game, names):        # the unit's cards note their reads into it as well
                result = func.__wrapped__(game, *args)
            apart.put(key, (game, result, frozenset(names)))
            return result
        names = set()
        before = func.cache_info().misses
        with recording(game, names):
            _KEYED[0] = game
            try:
                result = func(game, *args)
            finally:
                _KEYED[0] = None
        key = (id(game), args)
        if func.cache_info().misses > before:        # computed now: what it read is what it depends on
            if len(noted) > 256:
                noted.clear()
            noted[key] = (game, frozenset(names))
        else:
            found = noted.get(key)
            names = found[1] if found is not None and found[0] is game else \
                (tuple(f.name for f in fields(game)) if is_dataclass(game) else ())
        _note(names)
        return result

    def cache_clear():
        noted.clear()
        apart.cache_clear()
        func.cache_clear()

    wrapper.cache_clear = cache_clear
    wrapper.cache_info = func.cache_info
    return wrapper


class _Apart(dict):
    """The results a memo under :func:`replays_reads` made for validation units, with what each read of the
    game and its cards (a few: the units of one validation share them); emptied with pnp's file memos."""

    def put(self, key, value) -> None:
        if len(self) >= 16:
            self.pop(next(iter(self)))
        self[key] = value

    def cache_clear(self) -> None:
        self.clear()

    __hash__ = object.__hash__
    __eq__ = object.__eq__


def _cards_of(game) -> tuple:
    """``game``'s cards, read without counting as a read of ``cards``; () when it has none."""
    try:
        cards = object.__getattribute__(game, "cards")
    except AttributeError:
        return ()
    return cards if isinstance(cards, (tuple, list)) else ()


def is_recorded(obj) -> bool:
    """Whether the reads of ``obj`` are being recorded now (:class:`recording`)."""
    return _SUBCLASSES.get(type(obj)) is type(obj)


class recording:
    """``with recording(game) as reads:`` every attribute of ``game`` read in the block (by any code: its
    methods and properties read through it too) is added to the set ``reads``. :func:`reads_digest`
    then makes a key of the values read: the same values, the same work (the work is a function of
    them, pnp's code, its options and the files of the game folder other than :func:`card_files`)."""

    def __init__(self, game, reads: set | None = None):
        self.game, self.reads = game, set() if reads is None else reads

    def __enter__(self) -> set:
        self.before = type(self.game)
        object.__setattr__(self.game, "__class__", _recording_class(self.before))
        _start_target(self.reads)
        return self.reads

    def __exit__(self, *exc):
        _stop_target(self.reads)
        object.__setattr__(self.game, "__class__", self.before)


class unrecorded:
    """``with unrecorded():`` reads in the block are not noted (making a copy whose own reads are
    recorded later: :func:`recorded_copy`)."""

    def __enter__(self):
        _HASHING.append(None)

    def __exit__(self, *exc):
        _HASHING.pop()


def recorded_copy(copy) -> None:
    """Make ``copy`` (a converted copy of a game object, whose attributes stand for the game's: what
    templates see, :func:`pnp.text.templating.game_part`) note its reads as :class:`recording` does, for
    good: it may be made while one component is recorded and read while another is."""
    object.__setattr__(copy, "__class__", _recording_class(type(copy)))


def data_names(game, names) -> list:
    """``names`` without the game's methods and properties (whose own reads are recorded as reads of the
    attributes they use), sorted."""
    cls = type(game)
    return sorted(n for n in names if not (callable(getattr(cls, n, None)) or isinstance(getattr(cls, n, None), property)))


def reads_digest(game, names, memo: dict | None = None) -> str | None:
    """A key of the values of ``game``'s attributes ``names`` (:func:`data_names`: what methods and
    properties read is recorded as such); None when a value's description names an object by its
    address (then nothing is cached under it). ``memo`` keeps each value's description for the build
    (the game's values are frozen: every component's key describes the same cards)."""
    parts = []
    for name in data_names(game, names):
        found = memo.get((id(game), name)) if memo is not None else None
        if found is not None and found[0] is game:
            parts.append((name, found[1]))
            continue
        try:
            described = repr(object.__getattribute__(game, name))
        except AttributeError:
            described = None
        if memo is not None:
            memo[(id(game), name)] = (game, described)
        parts.append((name, described))
    described = repr(parts)
    if " at 0x" in described:
        return None
    return digest("reads", described)


def picture_paths(elements):
    """The path of every picture among ``elements`` (layout elements), inside groups and transforms too."""
    for element in elements:
        path = getattr(element, "path", None)
        if isinstance(path, str) and hasattr(element, "rect"):      # a Picture
            yield path
        inner = getattr(element, "elements", None)
        if isinstance(inner, (list, tuple)):
            yield from picture_paths(inner)


def icons_digest(icon_set, files: FileDigests) -> str:
    """The game's icons (names, aliases and the bytes of each SVG file): any page may draw any of them."""
    return digest(repr(icon_set), *(files(path) for _, path, _ in getattr(icon_set, "files", ())))


def pages_digest(pages, icons: str, files: FileDigests) -> str | None:
    """The key of painting ``pages``: their size, boxes and elements, the pictures' bytes and the icons.
    None when an element's description names an object by its address (not a description of content:
    such pages are drawn every time rather than cached under a key that never comes again)."""
    described = repr([(p.width, p.height, p.trim, p.bleed, p.elements) for p in pages])
    if " at 0x" in described:
        return None
    pictures = sorted({path for p in pages for path in picture_paths(p.elements)})
    return digest("pages", described, icons, [(path, files(path)) for path in pictures])


class BuildCache:
    """One cache folder (``folder`` None: the cache is off and every method finds nothing).

    Lookups read the folder; new entries wait in memory (:attr:`pending`) until :meth:`store` writes
    them, once the kit is written. The folder is pnp's alone (:mod:`pnp.cache.cachedir`): a command calls
    :meth:`claim` first, which refuses a folder holding anything pnp did not put there; a folder that is
    not pnp's is neither read nor written. Inside it, this format's entries are ``LAYOUT/entries/KEY.json``
    and the bytes they name ``LAYOUT/blobs/SHA256.blob``; pruning removes only files of those names."""

    def __init__(self, folder=None, files: FileDigests | None = None):
        self.folder = Path(folder) if folder is not None else None
        self.files = files or FileDigests()
        self.pending: dict[str, tuple] = {}     # key -> (meta, [blobs])
        self.used: set[str] = set()
        self.hits = self.misses = 0
        #: the key of the game folder's files but the card files (set by the build, pnp.build.kit._Kept.ident):
        #: what a card face reads of the folder besides its game object (pnp.components.cards.face_key)
        self.game_files: str | None = None
        #: the same without the templates, for a cache that keys faces by the templates they read
        #: (pnp.components.cards.narrow_face_key: the studio's)
        self.face_files: str | None = None
        #: what one build works out once and shares (in this process)
        self.memo: dict = {}
        self._readable: bool | None = None      # whether the folder is pnp's (looked at once, at the first read)

    def __bool__(self) -> bool:
        return self.folder is not None

    def claim(self, option: str | None = "--cache") -> "BuildCache":
        """Refuse (:class:`pnp.cache.cachedir.CacheFolderError`, exit 2 with one line) a folder that is not pnp's
        (see :mod:`pnp.cache.cachedir`); ``option`` is how the command's user named it (None: the default folder)."""
        if self:
            cachedir.claim(self.folder, option, earlier=_earlier_layout,
                           subfolders=(LAYOUT, f"{LAYOUT}/{ENTRIES}", f"{LAYOUT}/{BLOBS}"))
        return self

    # ------------------------------------------------------------------ entries

    def _meta_path(self, key: str) -> Path:
        return self.folder / LAYOUT / ENTRIES / f"{key}.json"

    def _blob_path(self, sha: str) -> Path:
        return self.folder / LAYOUT / BLOBS / f"{sha}.blob"

    def _ours(self) -> bool:
        """Whether entries may be read from the folder: it is pnp's and its subfolders are plain folders."""
        if self._readable is None:
            self._readable = cachedir.state(self.folder) == "ours" and all(
                cachedir.real_folder(p) for p in (self.folder / LAYOUT, self.folder / LAYOUT / ENTRIES,
                                                  self.folder / LAYOUT / BLOBS))
        return self._readable

    def get(self, key: str):
        """(meta, blobs) of the entry ``key``, or None when there is none or it is not sound."""
        if not self or key is None:
            return None
        if key in self.pending:
            return self.pending[key]
        found = self._read(key) if _KEY.fullmatch(key) and self._ours() else None
        if found is None:
            self.misses += 1
        else:
            self.hits += 1
            self.used.add(key)
        return found

    def _meta(self, key: str) -> dict | None:
        """The metadata of the entry ``key`` when its file is sound (:func:`entry_from_bytes`)."""
        return entry_from_bytes(cachedir.read_regular(self._meta_path(key), MAX_META_BYTES), key)

    def _read(self, key: str):
        meta = self._meta(key)
        if meta is None:
            return None
        blobs = []
        for sha, size in zip(meta["blobs"], meta["sizes"]):
            data = cachedir.read_regular(self._blob_path(sha), MAX_BLOB_BYTES, size)    # the size first
            if data is None or hashlib.sha256(data).hexdigest() != sha:
                return None
            blobs.append(data)
        return meta, blobs

    def put(self, key: str, meta: dict, blobs: list) -> None:
        """Keep an entry, written by :meth:`store` (not one whose blob is larger than :data:`MAX_BLOB_BYTES`)."""
        if not self or key is None or any(len(b) > MAX_BLOB_BYTES for b in blobs):
            return
        meta = {**meta, "mark": MARK, "format": FORMAT, "key": key,
                "blobs": [hashlib.sha256(b).hexdigest() for b in blobs], "sizes": [len(b) for b in blobs]}
        self.pending[key] = (meta, list(blobs))
        self.used.add(key)

    def store(self) -> None:
        """Write the new entries, touch the ones used, and keep the folder within :data:`MAX_BYTES`.
        The cache is a help, not a product: a folder that cannot be written, or that is not pnp's (see
        :mod:`pnp.cache.cachedir`), is left as it is."""
        if not self or not (self.pending or self.used):
            return
        try:
            if not cachedir.make_ours(self.folder, _earlier_layout, _forget_earlier_layout):
                return
            entries = cachedir.subfolder(self.folder, LAYOUT, ENTRIES)
            blobs = cachedir.subfolder(self.folder, LAYOUT, BLOBS)
            if entries is None or blobs is None:
                return
            self._readable = None
            for folder, names in ((entries, _ENTRY_FILE), (blobs, _BLOB_FILE)):
                cachedir.remove_stale_temporaries(folder, names)
        except OSError:
            return
        for key, (meta, data) in self.pending.items():
            try:
                for sha, blob in zip(meta["blobs"], data):
                    target = self._blob_path(sha)
                    if cachedir.read_regular(target, MAX_BLOB_BYTES, len(blob)) != blob:
                        cachedir.write_file(target, blob)
                cachedir.write_file(self._meta_path(key), entry_bytes(meta))
            except OSError:
                continue
        for key in self.used - set(self.pending):
            _touch(self._meta_path(key))
        self.pending.clear()
        try:
            self._prune()
        except OSError:
            pass

    def _prune(self) -> None:
        """Past :data:`MAX_BYTES` (counting this format's entries and blobs only), drop the entries used
        longest ago, down to half of it, and the blobs no entry left names. Only files named as pnp names
        them, in its own subfolders, are removed; the entries this build used are kept."""
        entries, blobs = {}, {}
        for folder, pattern, found in ((self.folder / LAYOUT / ENTRIES, _ENTRY_FILE, entries),
                                       (self.folder / LAYOUT / BLOBS, _BLOB_FILE, blobs)):
            with os.scandir(folder) as it:
                for entry in it:
                    if pattern.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                        st = entry.stat(follow_symlinks=False)
                        found[entry.name.rsplit(".", 1)[0]] = (st.st_mtime_ns, st.st_size)
        total = sum(size for _, size in entries.values()) + sum(size for _, size in blobs.values())
        if total <= MAX_BYTES:
            return
        live = {}
        for key in entries:
            meta = self._meta(key)
            live[key] = meta["blobs"] if meta else []
        for key in sorted(entries, key=lambda k: entries[k]):
            if total <= MAX_BYTES // 2:
                break
            if key in self.used:
                continue
            total -= cachedir.remove_file(self._meta_path(key))
            for sha in live.pop(key):
                if sha in blobs and not any(sha in shas for shas in live.values()):
                    total -= cachedir.remove_file(self._blob_path(sha))
                    del blobs[sha]
        named = {sha for shas in live.values() for sha in shas}
        for sha in blobs:               # a blob no entry names (its entry was lost): only room taken
            if sha not in named:
                cachedir.remove_file(self._blob_path(sha))

    # ------------------------------------------------------------------ what a build keeps

    def rendered(self, pages, title: str, author: str, outline, icons: str, context: tuple, paint):
        """PDF bytes of ``pages`` (a component's layout pages, finished: painted and fonts tagged), from
        the cache or made by ``paint()`` and kept. ``context``: what the painter reads besides the pages
        and the icons (:func:`pnp.draw.pdf.drawing_context`), part of the key."""
        key = None
        if self:
            pages_key = pages_digest(pages, icons, self.files)
            key = digest("rendered", code_digest(), title, author, outline, context,
                         pages_key) if pages_key else None
            found = self.get(key)
            if found is not None and len(found[1]) == 1:
                return found[1][0]
        pdf = paint()
        self.put(key, {"kind": "rendered"}, [pdf])
        return pdf

    def combined(self, what: str, parts, make):
        """PDF bytes made by ``make()`` from other PDFs (merged, interleaved), keyed by ``parts``: their
        bytes and the titles and names given with them."""
        key = None
        if self:
            key = digest(what, code_digest(),
                         [hashlib.sha256(p).hexdigest() if isinstance(p, bytes) else p for p in parts])
            found = self.get(key)
            if found is not None and len(found[1]) == 1:
                return found[1][0]
        pdf = make()
        self.put(key, {"kind": what}, [pdf])
        return pdf


def _touch(path: Path) -> None:
    try:
        if os.path.isfile(path) and not os.path.islink(path):
            os.utime(path)
    except OSError:
        pass


# ---------------------------------------------------------------------- an entry's file

def _canonical(meta: dict) -> bytes:
    return json.dumps(meta, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def entry_bytes(meta: dict) -> bytes:
    """The file of an entry: its metadata and the SHA-256 of the metadata's canonical JSON, so that any
    change to the file (a flipped bit that leaves valid JSON, an edited value) is seen when it is read."""
    body = _canonical(meta)
    return b'{"entry":' + body + b',"sha256":"' + hashlib.sha256(body).hexdigest().encode() + b'"}\n'


def entry_from_bytes(data: bytes | None, key: str) -> dict | None:
    """The metadata in an entry's file (:func:`entry_bytes`) when it is sound and is the entry ``key``'s
    (its SHA-256, the key, the format, the blobs' SHA-256 and sizes checked); None otherwise."""
    if data is None:
        return None
    try:
        held = json.loads(data)
        if not (isinstance(held, dict) and set(held) == {"entry", "sha256"} and isinstance(held["entry"], dict)):
            return None
        meta = held["entry"]
        if hashlib.sha256(_canonical(meta)).hexdigest() != held["sha256"]:
            return None
    except (ValueError, UnicodeError, RecursionError, TypeError):
        return None
    shas, sizes = meta.get("blobs"), meta.get("sizes")
    if not (meta.get("mark") == MARK and meta.get("format") == FORMAT and meta.get("key") == key
            and isinstance(shas, list) and isinstance(sizes, list) and len(shas) == len(sizes)):
        return None
    if not all(isinstance(s, str) and _SHA.fullmatch(s) for s in shas):
        return None
    if not all(type(n) is int and 0 <= n <= MAX_BLOB_BYTES for n in sizes):
        return None
    return meta


def _earlier_layout(folder, names) -> bool:
    """Whether ``folder`` (holding ``names``, not marked) is a build cache pnp made: one whose mark was lost
    or damaged (nothing in it but the two tags and this format's folder, holding nothing but its entries'
    and blobs' folders), or the cache of a pnp before format 2 (no mark, its entries and blobs side by
    side: every name one that pnp gave, every file a regular one, and at least one entry, each entry's JSON
    saying it is pnp's entry for its name)."""
    if all(name == LAYOUT or cachedir.marks_or_their_temporaries(name) for name in names):
        try:
            return LAYOUT not in names or (cachedir.real_folder(os.path.join(folder, LAYOUT)) and
                                           set(os.listdir(os.path.join(folder, LAYOUT))) <= {ENTRIES, BLOBS})
        except OSError:
            return False
    found = False
    for name in names:
        if not (_OLD_ENTRY.fullmatch(name) or _OLD_BLOB.fullmatch(name) or _OLD_TEMPORARY.fullmatch(name)):
            return False
        try:
            if not stat.S_ISREG(os.lstat(os.path.join(folder, name)).st_mode):
                return False
        except OSError:
            return False
        if _OLD_ENTRY.fullmatch(name):
            data = cachedir.read_regular(os.path.join(folder, name), MAX_META_BYTES)
            try:
                meta = json.loads(data) if data is not None else None
            except (ValueError, UnicodeError, RecursionError):
                meta = None
            if not (isinstance(meta, dict) and meta.get("mark") == MARK and meta.get("key") == name[:-5]):
                return False
            found = True
    return found


def _forget_earlier_layout(folder) -> None:
    """Remove the files of an earlier pnp's cache (:func:`_earlier_layout`): of a format this pnp does not
    read, they would only take room."""
    names = os.listdir(folder)
    for name in sorted(names, key=lambda n: bool(_OLD_ENTRY.fullmatch(n))):     # the entries last: killed
        if _OLD_ENTRY.fullmatch(name) or _OLD_BLOB.fullmatch(name) or _OLD_TEMPORARY.fullmatch(name):
            cachedir.remove_file(os.path.join(folder, name))        # meanwhile, it is still recognised


class Generations:
    """A memo kept from one build to the next in a long-running process (``pnp watch``, the studio): what
    a build looks up is kept for the next; what it did not look up is dropped when the build after it
    starts (a build is told by its :class:`BuildCache`). Keys are content keys (:func:`digest`)."""

    def __init__(self):
        self._owner = None
        self.now: dict = {}
        self.before: dict = {}
        _GENERATIONS.append(weakref.ref(self))

    def forget(self) -> None:
        """Drop everything kept (see :func:`forget_generations`)."""
        self._owner, self.now, self.before = None, {}, {}

    def _turn(self, cache) -> None:
        owner = self._owner() if self._owner is not None else None
        if owner is not cache:
            self.before, self.now = self.now, {}
            self._owner = weakref.ref(cache)

    def get(self, cache, key):
        self._turn(cache)
        found = self.now.get(key)
        if found is None:
            found = self.before.pop(key, None)
            if found is not None:
                self.now[key] = found
        return found

    def put(self, cache, key, value) -> None:
        self._turn(cache)
        self.now[key] = value


_GENERATIONS: list = []         # weak references to every Generations of the process


def forget_generations() -> None:
    """Empty every :class:`Generations` memo of this process: what they hold was keyed while a file
    may have changed under the work (the studio saw the game folder change during a step), so nothing
    of it is used again."""
    for ref in list(_GENERATIONS):
        kept = ref()
        if kept is None:
            _GENERATIONS.remove(ref)
        else:
            kept.forget()


class MemoryEntries:
    """Build cache entries kept in memory, by key, up to ``limit`` bytes of blobs and metadata (the least
    recently used dropped first): the store of :class:`MemoryCache`, shared by the caches of one process."""

    def __init__(self, limit: int = 128 << 20):
        self.limit = limit
        self.size = 0
        self._entries: dict = {}        # key -> (meta, blobs, size), least recently used first
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: str):
        with self._lock:
            found = self._entries.pop(key, None)
            if found is None:
                return None
            self._entries[key] = found              # used last
            return found[0], list(found[1])

    def add(self, entries: dict) -> None:
        """Keep ``entries`` (key -> (meta, blobs)), dropping the least recently used past the limit."""
        with self._lock:
            for key, (meta, blobs) in entries.items():
                old = self._entries.pop(key, None)
                if old is not None:
                    self.size -= old[2]
                size = sum(len(b) for b in blobs) + len(repr(meta))
                if size > self.limit:
                    continue
                self._entries[key] = (meta, tuple(blobs), size)
                self.size += size
            while self.size > self.limit and self._entries:
                self.size -= self._entries.pop(next(iter(self._entries)))[2]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.size = 0


class MemoryCache(BuildCache):
    """A build cache kept in this process's memory instead of a folder, for one version of a game's files
    (the studio's preview process, which loads, lays out and draws the same game again after every edit).
    It keys everything as a cache folder does (so a card edit lays out that card's face only, a chapter
    edit plays the rulebook's examples again only when what they read changed); the entries live in
    ``entries`` (:class:`MemoryEntries`), shared by the versions that follow. New entries wait in
    :attr:`pending` (this version finds them there) until :meth:`store`: the studio stores them only when
    the files did not change while the work read them, else it drops them (:meth:`drop`)."""

    def __init__(self, entries: MemoryEntries, files: FileDigests | None = None):
        super().__init__(None, files)
        self.entries = entries

    def __bool__(self) -> bool:
        return True

    def claim(self, option: str | None = "--cache") -> "MemoryCache":
        return self

    def get(self, key: str):
        if key is None:
            return None
        if key in self.pending:
            return self.pending[key]
        found = self.entries.get(key)
        if found is None:
            self.misses += 1
        else:
            self.hits += 1
        return found

    def put(self, key: str, meta: dict, blobs: list) -> None:
        if key is None or any(len(b) > MAX_BLOB_BYTES for b in blobs):
            return
        self.pending[key] = ({**meta, "key": key}, list(blobs))

    def store(self) -> None:
        self.entries.add(self.pending)
        self.pending.clear()

    def drop(self) -> None:
        """Forget this version's new entries, and every in-process memo keyed while it worked."""
        self.pending.clear()
        forget_generations()


# ---------------------------------------------------------------------- problems as JSON

def _place(path, root: Path):
    """A problem's file as the cache writes it down: relative to the game folder or to pnp's own folder,
    so a cache shared with a kit names no folder of the machine it was built on (None: neither)."""
    if path is None:
        return None
    for base, name in ((root, "game"), (PROJECT_ROOT, "pnp")):
        try:
            return [name, str(_real(path).relative_to(_real(base)))]
        except ValueError:
            continue
    raise ValueError(path)


def problems_to_json(problems, root) -> list | None:
    from pnp.errors import Cell, Problem

    if any(type(p) is not Problem for p in problems):
        return None
    try:        # a spreadsheet cell's line keeps its column ([row, column]): read back, it prints the same
        return [[_place(p.path, root), [int(p.line), p.line.column] if isinstance(p.line, Cell) else p.line,
                 p.subject, p.message, p.warning] for p in problems]
    except ValueError:
        return None


def problems_from_json(items, root) -> list | None:
    from pnp.errors import Cell, Problem

    try:
        out = []
        for place, line, subject, message, warning in items:
            if place is None:
                path = None
            else:
                base, rel = place
                if base not in ("game", "pnp") or not isinstance(rel, str):
                    return None
                path = str((Path(root) if base == "game" else PROJECT_ROOT) / rel)
            if isinstance(line, list) and len(line) == 2 and all(type(n) is int for n in line):
                line = Cell(*line)
            elif not (line is None or type(line) is int):
                return None
            if not (subject is None or isinstance(subject, str)) or not isinstance(message, str):
                return None
            out.append(Problem(path, line, subject, message, bool(warning)))
        return out
    except (TypeError, ValueError):
        return None


# ---------------------------------------------------------------------- the cache a build draws with

_CURRENT = None


def current() -> BuildCache:
    """The cache of the build running in this process (one that is off when none is)."""
    return _CURRENT if _CURRENT is not None else _OFF


_OFF = BuildCache(None)


class using:
    """``with using(cache):`` drawing in the block looks in ``cache`` first (forked build workers
    inherit it)."""

    def __init__(self, cache: BuildCache | None):
        self.cache = cache

    def __enter__(self):
        global _CURRENT
        self.before, _CURRENT = _CURRENT, self.cache
        return self.cache

    def __exit__(self, *exc):
        global _CURRENT
        _CURRENT = self.before
