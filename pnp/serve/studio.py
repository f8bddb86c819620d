"""What the studio page shows, kept current as the game's files change.

A :class:`View` is the whole page for one set of :class:`Options` (paper, language, bleed) at one
version of the files. It is made in two steps, both on the studio's worker thread
(:mod:`pnp.serve.worker`):

1. **data** (a fraction of a second): the game is loaded as ``pnp validate`` loads it, every card
   face is laid out and fingerprinted, and the faces whose fingerprint is new are drawn; the page can
   show the cards and the loading problems at once (the components of the previous version stay
   until step 2 replaces them);
2. **checked** (seconds for a game with a long rulebook, in slices): the full validation of ``pnp
   build`` (every problem of every file), then each component's pages (:mod:`pnp.serve.pages`).

After each step every open page is told (server-sent events) that a new view is ready. A card that
a problem names shows the problem instead of its picture (:mod:`pnp.serve.faces`).
"""

from __future__ import annotations

import sys
import threading
import traceback
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from pnp import TEMPLATES_DIR, cache
from pnp.buildcache import FileDigests, icons_digest
from pnp.components import BuildOptions
from pnp.errors import DataError, Problem, Problems, UserError
from pnp.loading.gamedata import load_game, resolve_game_dir
from pnp.loading.i18n import languages, require_language, translate
from pnp.serve import faces as cardfaces
from pnp.serve.images import HASH, Image, ImageStore
from pnp.serve.pages import PageMaker
from pnp.serve.tasks import ENGINE_GAMES, engine_figures, engine_status
from pnp.serve.worker import CHECK, DATA, URGENT, Worker
from pnp.units import PAPERS

#: Bleed (mm) shown when the page's bleed toggle is on (print services ask for 3 mm).
BLEED_MM = 3.0
#: Option sets whose views are kept (and made again after an edit): the most recently used.
KEPT_VIEWS = 3


@dataclass(frozen=True)
class Options:
    """What a view is drawn for: the paper of the component pages, the language (None: the game's
    own), and the bleed in mm round each card face and on the card sheets."""

    paper: str = "letter"
    lang: str | None = None
    bleed: float = 0.0

    def build_options(self) -> BuildOptions:
        return BuildOptions(paper=self.paper, lang=self.lang, bleed=self.bleed, thorough=False)


@dataclass
class View:
    """The page for one set of options at one version of the files. Made whole, then never changed:
    any thread may read a view the worker has published."""

    options: Options
    version: int
    game: object | None
    problems: list
    checked: bool = False
    faces: dict = field(default_factory=dict)        # face key -> faces.Face
    decks: list = field(default_factory=list)        # JSON
    cards: list = field(default_factory=list)        # JSON
    components: list = field(default_factory=list)   # JSON
    face_recipes: dict = field(default_factory=dict)  # picture hash -> () -> Image
    page_recipes: dict = field(default_factory=dict)

    @property
    def errors(self) -> list:
        return [p for p in self.problems if not p.warning]


def why(exc: BaseException) -> str:
    """A one-line reason for a picture that cannot be drawn (an unexpected error's traceback goes to
    the server's output)."""
    if isinstance(exc, DataError):
        return "; ".join(str(p) for p in exc.problems[:3])
    if not isinstance(exc, UserError):
        traceback.print_exception(exc, file=sys.stderr)
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:300]


def translated(game, lang: str, problems: Problems):
    """``game`` in ``lang``, also while other problems remain, so the page keeps the language chosen;
    a missing translation is a problem, a game too broken to translate stays as it is."""
    try:
        require_language(game, lang)
        return translate(game, lang)
    except DataError as exc:
        problems.extend(exc.problems)
    except Exception:          # a card the data step could not finish: its own problem says why
        pass
    return game


class Studio:
    """The studio of one game folder: views by options, pictures by hash, builds, engine figures, and
    the open pages to tell about changes."""

    def __init__(self, game_arg, options: Options = Options(), out_dir="output", engine_games: int = ENGINE_GAMES):
        self.engine_games = engine_games
        self.root = resolve_game_dir(game_arg).resolve()
        self.default = options
        self.out_dir = Path(out_dir)
        self.images = ImageStore()
        self.files = FileDigests()
        self.pages = PageMaker(self.images, self.files, why)
        self.version = 1
        self.changed: list[str] = []
        self.stopping = threading.Event()
        self.downloads: dict = {}                 # name -> tasks.Download
        self._views: OrderedDict[Options, View] = OrderedDict()
        self._cleared = 0
        self._figures: dict = {}
        self._figures_lock = threading.Lock()
        self._playing = threading.Lock()
        self._building = threading.Lock()
        self._listeners: set = set()
        self._lock = threading.Lock()
        self.worker = Worker()
        self.watcher = None
        self.recent = options                     # the options a page asked for last


    # ------------------------------------------------------------------ life

    def start(self, watch: bool = True, debounce: float = 0.2) -> None:
        """Start watching the files and prepare the default view."""
        from pnp.serve.watcher import Watcher

        if watch:
            self.watcher = Watcher([self.root, TEMPLATES_DIR], self.files_changed,
                                   ignore_under=[self.out_dir], debounce=debounce)
            self.watcher.start()
        self._background(partial(self._refresh, self.default), DATA)

    def close(self) -> None:
        self.stopping.set()
        if self.watcher is not None:
            self.watcher.stop()
        self.worker.stop()

    def run(self, func, priority: int = URGENT):
        """Run ``func`` on the worker thread (a Future)."""
        return self.worker.submit(func, priority)

    def _background(self, func, priority: int) -> None:
        """Run ``func`` on the worker with nobody waiting: an unexpected error is printed, not lost."""
        def report(future):
            exc = future.exception()
            if exc is not None:
                traceback.print_exception(exc, file=sys.stderr)

        self.worker.submit(func, priority).add_done_callback(report)

    # ------------------------------------------------------------------ events

    def subscribe(self, loop):
        """An asyncio queue (of ``loop``) that receives every event from now on."""
        import asyncio

        q = asyncio.Queue()
        with self._lock:
            self._listeners.add((loop, q))
        return q

    def unsubscribe(self, q) -> None:
        with self._lock:
            self._listeners = {(loop, other) for loop, other in self._listeners if other is not q}

    def publish(self, event: dict) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for loop, q in listeners:
            try:
                loop.call_soon_threadsafe(q.put_nowait, event)
            except RuntimeError:      # that page's loop is closed
                self.unsubscribe(q)

    def files_changed(self, paths) -> None:
        """The watcher's report: files changed. The view a page looked at last is made again at once
        (the others when a page asks for them)."""
        with self._lock:
            self.version += 1
            version = self.version
            self.changed = sorted({self.relative(p) for p in paths})
        self.publish({"type": "changed", "version": version, "files": self.changed})
        self._background(partial(self._refresh, self.recent), DATA)

    # ------------------------------------------------------------------ what the app asks

    def current_json(self, options: Options) -> dict | None:
        """The page's data for ``options`` when its view is current (any thread), else None."""
        self.recent = options
        view = self._views.get(options)
        return self._json(view) if view is not None and view.version == self.version else None

    def game_json(self, options: Options) -> dict:
        """The page's data for ``options``, made when needed (on the worker)."""
        self.recent = options
        return self._json(self._view(options))

    def stored_picture(self, key: str) -> Image | None:
        """A picture already drawn (any thread)."""
        return self.images.get(key) if HASH.fullmatch(key) else None

    def picture(self, key: str) -> Image | None:
        """The picture named ``key``, drawn again from its recipe when it was dropped or not drawn yet;
        None when no current view names it (on the worker)."""
        if not HASH.fullmatch(key):
            return None
        image = self.images.get(key)
        if image is not None:
            return image
        recipe = self.images.recipe(key)
        return self.images.put(key, recipe()) if recipe else None

    def face_picture(self, face_key: str, options: Options, dpi: int) -> Image | None:
        """The current picture of one face (``/api/cards/<id>.png``), None for an unknown face or one
        that cannot be drawn (on the worker)."""
        view = self._view(options)
        face = view.faces.get(face_key)
        name = face.picture(dpi) if face is not None else None
        if name is None:
            return None
        image = self.images.get(name)
        if image is None:
            drawn = cardfaces.draw_faces(view.game, [face_key], options, dpi, why)[face_key]
            image = self.images.put(name, drawn) if isinstance(drawn, Image) else None
        return image

    # ------------------------------------------------------------------ views (worker thread)

    def _view(self, options: Options) -> View:
        view = self._views.get(options)
        if view is None or view.version != self.version:
            view = self._refresh(options)
        return view

    def _refresh(self, options: Options) -> View:
        """Make the data step of ``options``' view for the current version (unless it is made), then
        queue its check step."""
        view = self._views.get(options)
        if view is not None and view.version == self.version:
            return view
        version = self.version
        if self._cleared != version:
            cache.clear()        # the files may have changed since the caches were filled
            self._cleared = version
        new = self._data_step(options, version)
        if view is not None:     # the previous pages stay until the check step draws them again
            new.components, new.page_recipes = view.components, view.page_recipes
        self._keep(new)
        self._background(self._check_step(options, version), CHECK)
        self.publish({"type": "update", "version": version, "checked": False, "files": self.changed})
        return new

    def _keep(self, view: View) -> None:
        with self._lock:
            self._views[view.options] = view
            self._views.move_to_end(view.options)
            while len(self._views) > KEPT_VIEWS:
                self._views.popitem(last=False)
            recipes = {}
            for kept in self._views.values():
                recipes.update(kept.face_recipes)
                recipes.update(kept.page_recipes)
        self.images.set_recipes(recipes)

    def _data_step(self, options: Options, version: int) -> View:
        problems = Problems()
        game = None
        try:
            game = load_game(self.root, problems, strict=False)
        except UserError as exc:
            problems.error(self.root / "game.yaml", None, None, str(exc))
        except DataError as exc:
            problems.extend(exc.problems)
        except Exception as exc:           # a half-written file pnp does not expect: say so, keep serving
            problems.error(self.root / "game.yaml", None, None, f"pnp could not read the game: {why(exc)}")
        if game is not None and options.lang:
            game = translated(game, options.lang, problems)
        view = View(options, version, game, list(problems))
        self._fill_cards(view)
        return view

    def _check_step(self, options: Options, version: int):
        """A generator (worker slices): validation, then the components one by one."""
        from pnp.loading.validation import validate_game

        if self.version != version:
            return       # a newer edit made this one moot
        problems = Problems()
        game = None
        try:
            game = validate_game(self.root, problems, options.build_options()).game
        except UserError as exc:
            problems.error(self.root / "game.yaml", None, None, str(exc))
        except DataError as exc:
            problems.extend(exc.problems)
        except Exception as exc:           # as in the data step: reported, and the page goes on
            problems.error(self.root / "game.yaml", None, None, f"pnp could not check the game: {why(exc)}")
        if game is not None and options.lang and problems.errors:    # validation translates a valid game only
            game = translated(game, options.lang, Problems())             # its problems are reported already
        yield
        current = self._views.get(options)
        if self.version != version or current is None:
            return
        view = View(options, version, game if game is not None else current.game, list(problems))
        view.components, view.page_recipes = current.components, current.page_recipes
        self._fill_cards(view)
        self._keep(view)
        self.publish({"type": "update", "version": version, "checked": False, "files": self.changed})
        if view.game is not None:
            recipes = {}
            components = yield from self.pages.components(
                view.game, options, icons_digest(view.game.icons, self.files), self.problem_json,
                bool(cardfaces.by_card(view.problems)), bool(view.errors), recipes)
            if self.version != version:
                return
            view = View(options, version, view.game, view.problems, checked=True, faces=view.faces, decks=view.decks,
                        cards=view.cards, components=components, face_recipes=view.face_recipes,
                        page_recipes=recipes)
        else:
            view = View(options, version, None, view.problems, checked=True)
        self._keep(view)
        self.publish({"type": "update", "version": version, "checked": True, "files": self.changed})

    def _fill_cards(self, view: View) -> None:
        game, options = view.game, view.options
        if game is None:
            return
        broken, warned = cardfaces.by_card(view.problems), cardfaces.by_card(view.problems, warnings=True)
        view.faces = cardfaces.fingerprint_faces(game, options, icons_digest(game.icons, self.files), self.files,
                                                 set(broken), why)
        missing = [k for k, f in view.faces.items()
                   if f.picture(cardfaces.CARD_DPI) and f.picture(cardfaces.CARD_DPI) not in self.images]
        if missing:
            for key, drawn in cardfaces.draw_faces(game, missing, options, cardfaces.CARD_DPI, why).items():
                if isinstance(drawn, Image):
                    self.images.put(view.faces[key].picture(cardfaces.CARD_DPI), drawn)
                else:
                    view.faces[key].error = drawn
        for key, face in view.faces.items():
            for dpi in (cardfaces.CARD_DPI, cardfaces.LARGE_CARD_DPI):
                if face.picture(dpi):
                    view.face_recipes[face.picture(dpi)] = partial(self._redraw, game, key, options, dpi)
        view.decks = [cardfaces.deck_json(game, deck, view.faces, options.bleed) for deck in game.decks]
        view.cards = [cardfaces.card_json(game, card, view.faces.get(card.id), broken.get(card.id, []),
                                          warned.get(card.id, []), options.lang, self.where, self.problem_json)
                      for deck in game.decks for card in deck.cards]

    @staticmethod
    def _redraw(game, key, options, dpi) -> Image:
        drawn = cardfaces.draw_faces(game, [key], options, dpi, why)[key]
        if not isinstance(drawn, Image):
            raise UserError(drawn)
        return drawn

    # ------------------------------------------------------------------ places and problems as JSON

    def inside(self, path) -> str | None:
        """``path`` relative to the game folder (``/`` separated) when it is inside it, else None."""
        try:
            resolved = Path(path).resolve()
        except OSError:
            return None
        return resolved.relative_to(self.root).as_posix() if resolved.is_relative_to(self.root) else None

    def relative(self, path) -> str:
        """A file as the page names it: relative to the game folder, ``pnp:templates/...`` for pnp's own
        templates, else its name."""
        inside = self.inside(path)
        if inside is not None:
            return inside
        templates = Path(TEMPLATES_DIR).resolve()
        resolved = Path(path).resolve()
        if resolved.is_relative_to(templates):
            return "pnp:templates/" + resolved.relative_to(templates).as_posix()
        return Path(path).name

    def where(self, path, line) -> dict:
        """A place as JSON; ``viewable`` when the page may show the file (one of the game's own)."""
        return {"file": self.relative(path) if path else None, "line": int(line) if line is not None else None,
                "column": getattr(line, "column", None), "viewable": bool(path) and self.inside(path) is not None}

    def problem_json(self, p: Problem) -> dict:
        where = self.where(p.path, p.line)
        at = where["file"] or ""
        if at and p.line is not None:
            at += f":{p.line}"
        text = (f"{at}: " if at else "") + ("warning: " if p.warning else "") + \
            (f"{p.subject}: " if p.subject else "") + p.message
        return {**where, "subject": p.subject, "message": p.message, "warning": p.warning, "text": text}

    def _json(self, view: View) -> dict:
        game = view.game
        engine = engine_status(game, self.engine_games) if game is not None else {"available": False, "reason": "No game to play."}
        return {
            "version": view.version,
            "checked": view.checked,
            "title": game.title if game is not None else self.root.name,
            "folder": self.root.name,
            "changed": self.changed,
            "options": {"paper": view.options.paper, "lang": view.options.lang or "", "bleed": view.options.bleed},
            "choices": {"papers": sorted(PAPERS), "languages": languages(game) if game is not None else [],
                        "language": game.source_language if game is not None else "", "bleed": BLEED_MM},
            "problems": [self.problem_json(p) for p in view.errors] +
                        [self.problem_json(p) for p in view.problems if p.warning],
            "errors": len(view.errors),
            "decks": view.decks,
            "cards": view.cards,
            "components": view.components,
            "engine": {**engine, "figures": self.figures()},
            "downloads": [{"name": d.name, "what": d.what, "url": f"/download/{d.name}", "size": d.size,
                           "stale": d.version != self.version} for d in list(self.downloads.values())],
        }

    # ------------------------------------------------------------------ on demand

    def figures(self) -> dict | None:
        """The last engine figures (marked stale when the files changed since), or None."""
        with self._figures_lock:
            result = dict(self._figures)
        if not result:
            return None
        result["stale"] = result["version"] != self.version
        return result

    def play(self) -> dict:
        """Play the engine's seeded summary of the current data (on a thread of its own, not the
        worker's: the engine draws nothing). UserError when the data has problems or no engine plays it."""
        with self._playing:           # one run at a time; a second request gets the first one's figures
            version = self.version
            known = self.figures()
            if known and not known["stale"]:
                return known
            view = self.run(partial(self._view, self.recent)).result()
            if view.game is None or view.errors:
                raise UserError("The data has problems: fix them to play the game.")
            figures = engine_figures(view.game, version, self.engine_games)
            with self._figures_lock:
                self._figures = figures
        self.publish({"type": "engine", "version": version})
        return dict(figures)

    def build(self, what: str, options: Options) -> list[dict]:
        """Build ``what`` (kit, cards, tts) into the output folder and offer it for download: in a process
        of its own, stopped past its time and memory limits or when the studio stops (any thread but
        the worker's, which goes on drawing the page meanwhile; one build at a time)."""
        from pnp.serve.tasks import build_in_process

        with self._building:
            version = self.version
            made = build_in_process(what, self.root, self.out_dir, options.build_options(), version,
                                    cancel=self.stopping)
        with self._lock:
            for name in [n for n, d in self.downloads.items() if d.what == what]:
                del self.downloads[name]
            self.downloads.update({d.name: d for d in made})
        self.publish({"type": "downloads", "version": version})
        return [{"name": d.name, "url": f"/download/{d.name}", "size": d.size} for d in made]
