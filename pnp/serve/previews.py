"""What the studio page shows, kept current as the game's files change, made in the preview process.

Everything that loads the game or draws runs here, in a process of its own that the studio starts,
watches and restarts (:mod:`pnp.serve.supervisor`), on one drawing thread (:mod:`pnp.serve.worker`).
The process lives as long as the studio (it keeps the game it loaded, the laid-out faces and the
pictures it drew), unless a render takes too long or needs too much memory: then the studio kills it
and starts another, which shows what was stopped instead of drawing it again, until a file changes.

A :class:`View` is the whole page for one set of :class:`Options` (paper, language, bleed) at one
version of the files. It is made in two steps, both on the drawing thread:

1. **data** (a fraction of a second): the game is loaded as ``pnp validate`` loads it, every card
   face is laid out and fingerprinted, and the faces whose fingerprint is new are drawn; the page can
   show the cards and the loading problems at once (the components of the previous version stay
   until step 2 replaces them);
2. **checked** (seconds for a game with a long rulebook, in slices): each component's pages
   (:mod:`pnp.serve.pages`), then the full validation of ``pnp build`` (every problem of every file).
   The pages come first when the data step found no error (drawn from the game it loaded: the check
   loads the same files the same way), so a chapter edit shows its rulebook page without waiting for
   every other check; each component is shown as soon as its pictures changed, the one changed last
   drawn first. When the check finds an error (or a component failed), the pages are drawn again
   with what it found, as ``pnp build`` would draw them.

After each step the studio, and through it every open page, is told (server-sent events) that a new
view is ready. The pictures drawn since the last event, and the page's data of each view kept, go to
the studio with it, so the page's requests that follow are answered without waiting for this
process (whose drawing thread is on to the next piece of work by then). A card that a problem names shows the problem instead of its picture
(:mod:`pnp.serve.faces`). Each piece of work is named to the studio as it starts (``the preview of
card 'knight'``, ``the pages of component 'rulebook'``): the name its stop is reported by.
"""

from __future__ import annotations

import sys
import threading
import traceback
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from pnp.cache import memo
from pnp.cache import buildcache
from pnp.cache.buildcache import FileDigests, MemoryCache, MemoryEntries, card_files, folder_digest, icons_digest
from pnp.errors import DataError, Problem, Problems, UserError
from pnp.loading.gamedata import load_game
from pnp.loading.i18n import languages, require_language, translate
from pnp.loading.yamlsrc import keep_parsed
from pnp.serve import faces as cardfaces
from pnp.serve.options import BLEED_MM, Options, inside, problem_json, unplaced, where
from pnp.exports.cards import AID, BACK, SIDE_B, card_of_key, is_side_b
from pnp.serve.images import HASH, Image, ImageStore
from pnp.serve.pages import PageMaker
from pnp.serve.replay import replay_work
from pnp.serve.tasks import engine_status
from pnp.serve.worker import CHECK, DATA, URGENT, Stopped, Undrawable, Unplayable, Worker
from pnp.units import PAPERS

#: Option sets whose views are kept (and made again after an edit): the most recently used.
KEPT_VIEWS = 3
#: Card faces drawn in one PDF (one piece of work for the studio's clock: a game with many cards is
#: drawn in several, so no piece grows with the game).
FACES_AT_ONCE = 32
#: Names of the work the studio's clock follows (a piece of it has a name of its own: a card, a component).
CARDS_WORK = "the preview of the game's cards"
CHECK_WORK = "the check of the game"
PIECES_WORK = "the pictures of the replay's pieces"


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
    serial: int = 0                                   # set when kept: the studio's faces follow it

    @property
    def errors(self) -> list:
        return [p for p in self.problems if not p.warning]


def _pictures_of(component: dict) -> list:
    """The pictures a component shows (one per page), to tell whether it changed."""
    return [page["image"] for f in component["files"] for page in f["pages"]]


def _with_files_before(entry: dict, before: dict | None) -> dict:
    """A component's entry as the page shows it: while it is ``partial`` (its first files drawn, the
    others not fingerprinted yet), its other files as they were before, in their place."""
    if not entry.get("partial") or before is None:
        return entry
    names = {f["filename"] for f in entry["files"]}
    return {**entry, "files": entry["files"] + [f for f in before["files"] if f["filename"] not in names]}


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


class Activity:
    """What the drawing thread is doing, told to the studio each time it changes (``tell(("busy",
    name))``, None when idle): the studio's clock for its time limit. Work the studio stopped before
    (``stopped``: name -> message) is not started again: :meth:`doing` raises :class:`Stopped`."""

    def __init__(self, tell, stopped: dict, memory: int):
        self.tell = tell
        self.stopped = dict(stopped)
        self.memory = memory
        self._names: list = []

    @contextmanager
    def doing(self, name: str | None, check: bool = True):
        """Tell the studio that ``name`` is being drawn, for the block; :class:`Stopped` (before the
        block) when the studio stopped it before (not with ``check`` False: a whole job, whose pieces
        check), and when it runs out of memory (the studio is told and starts a new process)."""
        if name is None:
            yield
            return
        if check and name in self.stopped:
            raise Stopped(self.stopped[name])
        self._names.append(name)
        self.tell(("busy", name))
        try:
            yield
        except MemoryError:
            message = f"{name} needed more than {self.memory / 1024 ** 3:g} GB of memory and was stopped"
            self.tell(("exceeded", name, message))
            raise Stopped(message) from None
        finally:
            self._names.pop()
            self.tell(("busy", self._names[-1] if self._names else None))   # the outer work's clock starts again

    def working(self, name: str | None):
        """:meth:`doing` for a whole job of the worker."""
        return self.doing(name, check=False)


def face_name(key: str) -> str:
    """How a face is named in a message: ``card 'knight'`` (``card 'oak' side B``), or ``face 'heroes:back'``
    for a back or aid."""
    if is_side_b(key) and not any(c in key for c in ":|"):
        return f"card '{card_of_key(key)}' side B"
    plain = key not in (BACK, AID) and not any(c in key for c in ":|")
    return f"card '{key}'" if plain else f"face '{key}'"


def face_work(key: str) -> str:
    return f"the preview of {face_name(key)}"


class Previews:
    """The views of one game folder by options, the pictures by hash, and what each view's step
    tells the studio; all drawing on one worker thread."""

    def __init__(self, root: Path, default: Options, version: int = 1, changed=(), stopped=None,
                 tell=lambda message: None, memory: int = 0):
        self.root = Path(root)
        self.default = default
        self.version = version
        self.changed = list(changed)
        self.recent = default                     # the options a page asked for last
        self.tell = tell
        self.activity = Activity(tell, stopped or {}, memory)
        self._fresh: list = []                    # (name, picture) drawn since the studio was last told
        self.images = ImageStore(added=lambda key, image: self._fresh.append((key, image)))
        self.files = FileDigests()
        self.kept = MemoryEntries()               # the build cache's entries, in this process's memory
        self._cache: tuple | None = None          # (version, its MemoryCache, the folder's digest before it)
        self.pages = PageMaker(self.images, self.files, why, self.activity.doing)
        self.drawn = 0                            # pictures drawn (for the benchmark)
        self._views: OrderedDict[Options, View] = OrderedDict()
        self._pieces: tuple | None = None         # (version, piece kind -> PNG bytes) for the replay page
        self.serial = 0
        self._cleared = 0
        self._places: dict = {}                   # path -> where() of it (no line), for this version
        self._lock = threading.Lock()
        self.worker = Worker(around=self.activity.working)

    def publish(self, event: dict) -> None:
        """Tell the studio of ``event``, after the pictures drawn since it was last told: it answers the
        page's requests for them itself, without waiting for this process's drawing thread (which goes
        on with the next piece of work, and holds the interpreter while PDFium or pikepdf run)."""
        fresh, self._fresh = self._fresh, []
        if fresh:
            self.tell(("pictures", fresh))
        self.tell(("event", event))

    def start(self) -> None:
        """Prepare the view of the options a page asked for last."""
        self._background(partial(self._refresh, self.recent), DATA, CARDS_WORK)

    def _background(self, func, priority: int, name: str) -> None:
        """Run ``func`` on the worker with nobody waiting: an unexpected error is printed, not lost."""
        def report(future):
            exc = future.exception()
            if exc is not None and not isinstance(exc, UserError):
                traceback.print_exception(exc, file=sys.stderr)

        self.worker.submit(func, priority, name).add_done_callback(report)

    def files_changed(self, version: int, files: list, recent: Options, refresh: bool = True) -> None:
        """The studio's word that files changed: the view a page looked at last is made again at once
        (the others when a page asks for them; with ``refresh`` False, none until asked); what was
        stopped is tried again."""
        with self._lock:
            self.version = version
            self.changed = list(files)
            self.recent = recent
            self.activity.stopped = {}
        if refresh:
            self._background(partial(self._refresh, recent), DATA, CARDS_WORK)

    # ------------------------------------------------------------------ the studio's questions

    def answer(self, op: str, args: tuple, reply) -> None:
        """Answer the studio's question ``op`` (``json``, ``face``, ``picture``, ``pieces``, ``replay``,
        ``stats``) through ``reply(ok, value)``: at once when the answer is ready, else on the worker."""
        quick = {"json": self.current_json, "face": self.stored_face, "picture": self.stored_picture,
                 "pieces": self.stored_pieces, "replay": lambda spec: None,
                 "stats": lambda: {"pictures": len(self.images), "drawn": self.drawn}}[op](*args)
        if quick is not None:
            reply(True, quick)
            return
        slow = {"json": self.game_json, "face": self.face_picture, "picture": self.picture,
                "pieces": self.piece_pictures, "replay": self.replay}[op]
        name = face_work(args[0]) if op == "face" else replay_work(args[0]) if op == "replay" else \
            {"picture": "a picture the page asked for", "pieces": PIECES_WORK}.get(op, CARDS_WORK)

        def done(future):
            exc = future.exception()
            if exc is None:
                reply(True, future.result())
            else:
                reply(False, exc if isinstance(exc, UserError) else UserError(why(exc)))

        self.worker.submit(partial(slow, *args), URGENT, name).add_done_callback(done)

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
        return self._answered(key, self._put(key, recipe())) if recipe else None

    def _answered(self, key: str, image: Image) -> Image:
        """``image``, drawn to answer the studio (which keeps the answer): not sent again with an event."""
        self._fresh = [(k, i) for k, i in self._fresh if k != key]
        return image

    def stored_face(self, face_key: str, options: Options, dpi: int) -> tuple | None:
        """(view serial, picture name, picture) of one face when the view is current and the picture
        drawn (any thread), else None."""
        view = self._views.get(options)
        if view is None or view.version != self.version:
            return None
        face = view.faces.get(face_key)
        name = face.picture(dpi) if face is not None else None
        image = self.images.get(name) if name is not None else None
        return (view.serial, name, image) if image is not None else None

    def face_picture(self, face_key: str, options: Options, dpi: int) -> tuple:
        """(view serial, picture name, picture) of the current picture of one face
        (``/api/cards/<id>.png``); the picture is None for an unknown face. A face that cannot be drawn
        raises the reason: :class:`Stopped` when its preview was stopped, else :class:`Undrawable` (the
        problems that name the card, or what went wrong drawing it) (on the worker)."""
        view = self._view(options)
        face = view.faces.get(face_key)
        if face is None:
            return view.serial, None, None
        name = face.picture(dpi)
        if name is None:
            problems = cardfaces.by_card(view.problems).get(card_of_key(face_key), [])
            raise self._undrawn(face_key, face.error or "; ".join(self.problem_json(p)["text"] for p in problems[:3])
                                or "no picture (see /api/game's problems)")
        image = self.images.get(name)
        if image is None:
            drawn = cardfaces.draw_faces(view.game, [face_key], options, dpi, why, self.activity.doing,
                                         face_work)[face_key]
            if not isinstance(drawn, Image):
                raise self._undrawn(face_key, drawn)
            image = self._answered(name, self._put(name, drawn))
        return view.serial, name, image

    def _undrawn(self, face_key: str, reason: str) -> UserError:
        """Why the face ``face_key`` has no picture: the studio stopped its preview (the stop's
        message), or ``reason``."""
        stopped = self.activity.stopped.get(face_work(face_key))
        return Stopped(stopped) if stopped else Undrawable(f"{face_name(face_key)} cannot be drawn: {reason}")

    def stored_pieces(self) -> dict | None:
        """The replay's piece pictures when drawn for the current files (any thread), else None."""
        pieces = self._pieces
        return pieces[1] if pieces is not None and pieces[0] == self.version else None

    def piece_pictures(self) -> dict:
        """Piece kind id -> PNG bytes of its standee's front, as the replay page shows the board's
        pieces (:func:`pnp.serve.replay.piece_pictures`), drawn from the game as its files are now
        (on the worker, as a piece of work the studio's limits apply to)."""
        from pnp.serve.replay import piece_pictures

        version = self.version
        self._caches_of(version)
        with self.activity.doing(PIECES_WORK):
            try:
                game = load_game(self.root)
            except DataError:
                raise UserError("The data has problems: fix them to replay a game.") from None
            pictures = piece_pictures(game) if game.map is not None else {}
        self._pieces = (version, pictures)
        return pictures

    def replay(self, spec: dict) -> dict:
        """The replay of ``spec`` (:func:`pnp.serve.replay.play_replay`), played from the game as its files
        are now, as a piece of work the studio's limits apply to (on the worker): :class:`Stopped` when
        the studio stopped it before, :class:`Unplayable` for a game that cannot be played (the reason,
        also for an engine that fails on the reported values)."""
        from pnp.serve.replay import play_replay

        self._caches_of(self.version)
        with self.activity.doing(replay_work(spec)):
            try:
                return play_replay(self.root, spec)
            except (Stopped, MemoryError):
                raise
            except UserError as exc:
                message = str(exc)
            except DataError as exc:
                message = "; ".join(self.problem_json(p)["text"] for p in exc.problems[:3])
            except Exception as exc:  # noqa: BLE001 - the engine's fault or pnp's: said, the studio goes on
                message = f"the game cannot be replayed: {why(exc)}"
        raise Unplayable(unplaced(message, self.root, spec.get("variant")))

    def _put(self, key: str, image: Image) -> Image:
        self.drawn += 1
        return self.images.put(key, image)

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
        self._caches_of(version)
        cache = self._cache_of(version)
        with buildcache.using(cache):
            new = self._data_step(options, version)
        self._settle(version, cache)
        if view is not None:     # the previous pages stay until the check step draws them again
            new.components, new.page_recipes = view.components, view.page_recipes
        self._keep(new)
        self._background(self._with_cache(self._check_step(options, version), version, cache), CHECK, CHECK_WORK)
        self.publish({"type": "update", "version": version, "checked": False, "files": self.changed})
        return new

    def _caches_of(self, version: int) -> None:
        """pnp's caches emptied once per version (the files may have changed since they were filled)."""
        if self._cleared != version:
            memo.clear()
            self._places = {}
            self._cleared = version

    def _cache_of(self, version: int) -> MemoryCache:
        """The build cache of ``version`` of the files (in memory: :class:`pnp.cache.buildcache.MemoryCache`),
        so that what an edit did not change is found laid out and drawn, as ``pnp build`` finds it in its
        cache folder, by the same keys: a card edit lays out that card's faces only, and the rulebook's
        examples are played again only when what they read changed. A version has a cache of its own
        (the in-process memos turn with it: :class:`pnp.cache.buildcache.Generations`); the folder's
        digest is taken when it is made, before the game is read, for :meth:`_settle`."""
        if self._cache is None or self._cache[0] != version:
            self._cache = (version, MemoryCache(self.kept, self.files), folder_digest(self.root, self.files))
        return self._cache[1]

    def _with_cache(self, steps, version: int, cache: MemoryCache):
        """The generator ``steps`` (a check step) with ``version``'s build ``cache`` on in each of its slices
        only (the worker runs other work between them), each slice settled (:meth:`_settle`). Once a newer
        version is there, no slice of it runs (the check step would stop at once)."""
        while self.version == version:
            with buildcache.using(cache):
                try:
                    next(steps)
                except StopIteration as done:
                    finished = done.value
                    break
                finally:
                    self._settle(version, cache)
            yield
        else:
            steps.close()
            return None
        # told once the last slice is settled: an edit made as soon as the page shows the check over
        # (which used to come while that slice was settling, and had it forget every face kept) finds
        # what this version laid out and drew
        if finished is not None and self.version == version:
            self._keep(finished)
            self.publish({"type": "update", "version": version, "checked": True, "files": self.changed})
        return None

    def _settle(self, version: int, cache: MemoryCache) -> None:
        """Keep what the work on ``version`` put in its ``cache`` when the game folder is still as it was
        before that work read it (the same digest, and no newer version); else drop it and every memo
        keyed meanwhile: a file changed under the work, so a key may name another content than the one
        laid out or drawn (a newer version follows and works from the files as they are)."""
        made = self._cache
        before = made[2] if made is not None and made[1] is cache else None
        if before is not None and self.version == version and folder_digest(self.root, self.files) == before:
            cache.store()
        else:
            cache.drop()

    def _keep(self, view: View) -> None:
        with self._lock:
            self.serial += 1
            view.serial = self.serial
            self._views[view.options] = view
            self._views.move_to_end(view.options)
            while len(self._views) > KEPT_VIEWS:
                self._views.popitem(last=False)
            recipes = {}
            for kept in self._views.values():
                recipes.update(kept.face_recipes)
                recipes.update(kept.page_recipes)
        self.images.set_recipes(recipes)
        # the studio forgets which picture each face had, and keeps the page's data of this view to
        # answer /api/game itself until the files change
        self.tell(("kept", view.serial, view.options, view.version, self._json(view)))

    def _stops(self) -> list:
        """Each render stopped at this version, as a problem of the page."""
        return [Problem(None, None, None, message) for message in self.activity.stopped.values()]

    def _data_step(self, options: Options, version: int) -> View:
        problems = Problems()
        problems.extend(self._stops())
        game = self._game("reading the game's files", "read", problems,
                          lambda: load_game(self.root, problems, strict=False))
        cache = buildcache.current()
        if game is not None and cache and cache.game_files is None:
            # what a card face reads of the folder besides its card (pnp.components.cards.face_context)
            # and without the templates: a face keeps the templates it read apart, so a chapter edit
            # (a template) lays out no face that did not read it
            cache.game_files, cache.face_files = folder_digest(self.root, self.files, leave_out=card_files(game),
                                                               templates_apart=True)
        if game is not None and options.lang:
            game = translated(game, options.lang, problems)
        view = View(options, version, game, list(problems))
        self._fill_cards(view)
        return view

    def _game(self, work: str, verb: str, problems: Problems, load):
        """``load()`` (the game, read or checked) as the piece of work named ``work``; what stops it
        becomes a problem of the page (``problems``) and the answer None: the page goes on. A stop is
        listed already (:meth:`_stops`); a file pnp does not expect (half written) is said to be one."""
        try:
            with self.activity.doing(work):
                return load()
        except Stopped:
            pass
        except UserError as exc:
            problems.error(self.root / "game.yaml", None, None, str(exc))
        except DataError as exc:
            problems.extend(exc.problems)
        except Exception as exc:  # noqa: BLE001 - reported, and the page goes on
            problems.error(self.root / "game.yaml", None, None, f"pnp could not {verb} the game: {why(exc)}")
        return None

    def _check_step(self, options: Options, version: int):
        """A generator (worker slices): the components' pages, then the full validation, then the
        components again only when they must be; its value is the checked view, which
        :meth:`_with_cache` keeps and tells of once the last slice is settled (None: a newer edit).

        When the data step found no error, the pages are drawn first, from the game the data step
        loaded (the check loads the same files the same way): a chapter edit shows its rulebook page
        without waiting for every other check. Each component is shown as soon as its pictures changed.
        The check's problems then decide: with no error (and no component that failed), the pages stand;
        else they are drawn again as before, with what the check found (the card sheets wait for the
        cards' problems, the kit's instructions for every problem)."""
        from pnp.validation.checks import validate_game

        if self.version != version:
            return       # a newer edit made this one moot
        early = None
        current = self._views.get(options)
        if current is not None and current.version == version and current.game is not None and not current.errors:
            early = yield from self._pages(current, options, version, early=True)
            if early is None:
                return
        problems = Problems()
        problems.extend(self._stops())
        game = self._game("the check of the game's files", "check", problems,
                          lambda: validate_game(self.root, problems, options.build_options()).game)
        if game is not None and options.lang and problems.errors:    # validation translates a valid game only
            game = translated(game, options.lang, Problems())             # its problems are reported already
        yield
        current = self._views.get(options)
        if self.version != version or current is None:
            return
        view = View(options, version, game if game is not None else current.game, list(problems))
        view.components, view.page_recipes = current.components, current.page_recipes
        self._fill_cards(view, current)
        self._keep(view)
        self.publish({"type": "update", "version": version, "checked": False, "files": self.changed})
        if view.game is not None:
            components, recipes = early if early is not None else (None, None)
            if early is None or view.errors or any(c["error"] for c in components):
                made = yield from self._pages(view, options, version)
                if made is None:
                    return
                components, recipes = made
            view = View(options, version, view.game, view.problems, checked=True, faces=view.faces, decks=view.decks,
                        cards=view.cards, components=components, face_recipes=view.face_recipes,
                        page_recipes=recipes)
        else:
            view = View(options, version, None, view.problems, checked=True)
        return view        # kept and told once this slice is settled (:meth:`_with_cache`)

    def _pages(self, base: View, options: Options, version: int, early: bool = False):
        """A generator (worker slices): (components, their pictures' recipes) of ``base``'s game, with
        the flags its problems give; each component whose pictures changed is shown at once (a view
        like ``base`` with it, the other components as ``base`` had them). None when a newer edit made
        it moot. ``early``: drawn before the check (see :meth:`_check_step`)."""
        recipes: dict = {}
        shown = {c["name"]: _pictures_of(c) for c in base.components}
        finished: set = set()
        before = {c["name"]: c for c in base.components}

        def progress(entries) -> None:
            if self.version != version:
                return
            new = [e for e in entries if (e["files"] or e["error"]) and
                   (e["name"] not in finished or _pictures_of(e) != shown.get(e["name"]))]
            finished.update(e["name"] for e in new)
            changed = [e for e in new if e["files"] and _pictures_of(e) != shown.get(e["name"])]
            if not changed:
                return
            shown.update((e["name"], _pictures_of(e)) for e in changed)
            merged = [_with_files_before(e, before.get(e["name"])) if e["name"] in finished
                      else before.get(e["name"], e) for e in entries]
            view = View(options, version, base.game, base.problems, faces=base.faces, decks=base.decks,
                        cards=base.cards, components=merged, face_recipes=base.face_recipes,
                        page_recipes={**base.page_recipes, **recipes})
            self._keep(view)
            self.publish({"type": "update", "version": version, "checked": False, "files": self.changed})

        drawn = len(self.images)
        components = yield from self.pages.components(
            base.game, options, icons_digest(base.game.icons, self.files), self.problem_json,
            bool(cardfaces.by_card(base.problems)), bool(base.errors), recipes, progress, early)
        self.drawn += max(0, len(self.images) - drawn)
        if self.version != version:
            return None
        return components, recipes

    def _fill_cards(self, view: View, known: View | None = None) -> None:
        """The faces of ``view`` fingerprinted (those of ``known``, a view of the same files and options,
        taken as they are), the new ones drawn, and the cards' and decks' JSON."""
        game, options = view.game, view.options
        if game is None:
            return
        broken, warned = cardfaces.by_card(view.problems), cardfaces.by_card(view.problems, warnings=True)
        same = known is not None and known.version == view.version and known.options == view.options
        view.faces = cardfaces.fingerprint_faces(game, options, icons_digest(game.icons, self.files), self.files,
                                                 set(broken), why, self.activity.doing, face_work,
                                                 known=known.faces if same else None)
        missing = [k for k, f in view.faces.items()
                   if f.picture(cardfaces.CARD_DPI) and f.picture(cardfaces.CARD_DPI) not in self.images]
        for start in range(0, len(missing), FACES_AT_ONCE):
            for key, drawn in cardfaces.draw_faces(game, missing[start:start + FACES_AT_ONCE], options,
                                                   cardfaces.CARD_DPI, why, self.activity.doing, face_work).items():
                if isinstance(drawn, Image):
                    self._put(view.faces[key].picture(cardfaces.CARD_DPI), drawn)
                else:
                    view.faces[key].error = drawn
        for key, face in view.faces.items():
            for dpi in (cardfaces.CARD_DPI, cardfaces.LARGE_CARD_DPI):
                if face.picture(dpi):
                    view.face_recipes[face.picture(dpi)] = partial(self._redraw, game, key, options, dpi)
        view.decks = [cardfaces.deck_json(game, deck, view.faces, options.bleed) for deck in game.decks]
        view.cards = [cardfaces.card_json(game, card, view.faces.get(card.id), broken.get(card.id, []),
                                          warned.get(card.id, []), options.lang, self.where, self.problem_json,
                                          view.faces.get(f"{card.id}{SIDE_B}"))
                      for deck in game.decks for card in deck.cards]

    def _redraw(self, game, key, options, dpi) -> Image:
        drawn = cardfaces.draw_faces(game, [key], options, dpi, why, self.activity.doing, face_work)[key]
        if not isinstance(drawn, Image):
            raise self._undrawn(key, drawn)
        return drawn

    # ------------------------------------------------------------------ places and problems as JSON

    def inside(self, path) -> str | None:
        return inside(self.root, path)

    def where(self, path, line) -> dict:
        """A place as JSON (:func:`pnp.serve.options.where`), kept for the version of the files: each card
        names its file, which the page's data resolved again for every card (two ``realpath`` each)."""
        if not path:
            return where(self.root, path, line)
        found = self._places.get(str(path))
        if found is None:
            found = self._places[str(path)] = where(self.root, path, None)
        return {**found, "line": int(line) if line is not None else None, "column": getattr(line, "column", None)}

    def problem_json(self, p: Problem) -> dict:
        return problem_json(self.root, p)

    def _json(self, view: View) -> dict:
        """The page's data of ``view``, except what the studio itself adds (engine figures, downloads)."""
        game = view.game
        engine = engine_status(game) if game is not None else {"available": False, "reason": "No game to play."}
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
            "engine": engine,
        }


# ---------------------------------------------------------------------- the preview process

def serve(receive, send, root, default: Options, version: int, changed, stopped: dict, memory: int,
          setup=None, prepare: bool = True) -> None:
    """The preview process (:class:`pnp.serve.child.Child`'s target): its memory limit, ``setup()``
    (tests only: a hook run before anything is drawn), the view of ``default`` (unless ``prepare`` is
    False: a studio that only replays), ``("ready",)``, then the studio's messages until it closes the
    pipe: ``(op, ident, args)`` questions, answered ``("result", ident, ok, value)``, and
    ``("changed", None, (version, files, options))``. Meanwhile it tells ``("busy", name)``,
    ``("event", event)`` and ``("exceeded", name, message)``."""
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    except (ImportError, ValueError, OSError):          # pragma: no cover - a system without the limit
        pass
    lock = threading.Lock()

    def tell(message) -> None:
        with lock:
            try:
                send.send(message)
            except (OSError, ValueError):     # the studio went away: it kills this process too
                pass

    if setup is not None:
        setup()
    keep_parsed()               # the files an edit left alone are not parsed again
    previews = Previews(root, default, version, changed, stopped, tell, memory)
    previews.recent = default
    if prepare:
        previews.start()
    tell(("ready",))
    while True:
        try:
            op, ident, args = receive.recv()
        except (EOFError, OSError):
            return
        if op == "changed":
            previews.files_changed(*args, refresh=prepare)
            continue
        try:
            previews.answer(op, args, lambda ok, value, ident=ident: tell(("result", ident, ok, value)))
        except Exception as exc:  # noqa: BLE001 - a question it cannot answer: said, and the next one is answered
            tell(("result", ident, False, UserError(why(exc))))
