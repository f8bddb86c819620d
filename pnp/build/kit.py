"""Building a game's kit: validate, lay out every component, render, write atomically.

Nothing is written unless the whole build succeeds: every file is rendered first, then the whole set
is written with :func:`pnp.build.output.write_atomically` (a temporary folder next to the output folder,
moved into place only when every file is there; the previous kit stays as it was on any failure).

With ``jobs`` above 1 (``pnp build --jobs``), components are checked and rendered in forked worker
processes too (:mod:`pnp.build.workers`): the workers start on the components as soon as the game is
loaded, while this process runs the rest of the validation, then joins them. A component is one
task (its check, then its files), the biggest (:attr:`Component.weight`) first; problems and files are
put back in kit order, so the messages and the kit are the same, byte for byte, with any ``jobs``.
"""

from __future__ import annotations

import os
from contextlib import nullcontext
from dataclasses import dataclass, fields, replace
from pathlib import Path

from pnp.cache import buildcache
from pnp.reprint import changes
from pnp.components.record import RECORD_FILE, kit_record
from pnp.cache.buildcache import BuildCache
from pnp.components import BuildOptions, KitEntry, Output, Part, game_components
from pnp.draw.icons import for_game
from pnp.draw.merge import interleave, merge, page_count, tag_font_subsets
from pnp.draw.pdf import drawing_context, render
from pnp.draw.text import fits_kept
from pnp.errors import DataError, Problems, UserError
from pnp.loading.gamedata import load_game
from pnp.layout.inksaver import save_ink_page
from pnp.components.manifest import MANIFEST_FILE, entry_of, manifest, to_json
from pnp.text.markup import Safe
from pnp.build.output import write_atomically
from pnp.validation.checks import validate_game
from pnp.build.workers import TaskPool
from pnp.build.sharing import share_sheets
from pnp.components.sharing import share_blocks

KIT_FILE = "kit.pdf"


@dataclass
class BuildResult:
    """What a build wrote: the files in kit order, the page count of each PDF, the warnings, and the sheets
    of paper the kit takes."""

    game: object
    files: list           # Paths written, in kit order, kit.pdf last
    pages: dict           # filename -> page count (PDFs)
    warnings: list = ()   # Problems worth telling the user, which do not stop the build
    sheets: int = 0       # sheets of paper the kit takes (manifest.json)


def build_kit(game_arg, out_dir: str | os.PathLike, options: BuildOptions, progress=None,
              jobs: int = 1, cache: BuildCache | None = None, kit_key: str | None = None) -> BuildResult:
    """Validate and build the kit into ``out_dir``; ``jobs`` processes share the work (see the module).
    With a ``cache`` (:mod:`pnp.cache.buildcache`), what it holds for the same inputs is used instead of being
    checked and drawn again, and what is drawn anew is kept there once the kit is written. ``kit_key``
    (:func:`pnp.cache.uptodate.kit_key`, taken before this build read anything): the kit written is recorded
    under it, for ``pnp build``'s fast path."""
    problems = Problems()
    cache = cache if cache is not None else BuildCache(None)
    # every check of `pnp validate` (its simulated games too): the same errors refuse the kit and the same
    # warnings are told; each check is kept in the build cache as pnp validate keeps it
    checking = replace(options, thorough=True)
    kept = _Kept(cache, out_dir, options, checking)
    written = {} if kit_key is not None else None      # the files' bytes, for the kit's record
    # each text fitted once, by the checks and the drawing alike (pnp.draw.text.fits_kept)
    with buildcache.using(cache), fits_kept(), _Parallel.start(game_arg, options, checking, jobs, kept) as parallel:
        result = validate_game(game_arg, problems, checking,
                               component_checks=parallel.checks if parallel else kept.checks,
                               cache=cache, skip=(out_dir,))
        if problems.errors:
            raise DataError(problems.errors)
        with for_game(result.game):      # the game's icons, wherever a page names one
            prebuilt = parallel.built if parallel else {}
            built = _build(result.game, out_dir, options, progress, {**kept.built, **prebuilt}, kept, written)
    built.warnings = problems.warnings
    if kit_key is not None:
        from pnp.cache import uptodate

        uptodate.remember(cache, kit_key, game_arg, out_dir, options, built.game, written, built.pages,
                          built.warnings, built.sheets)
    cache.store()
    return built


class _Kept:
    """The components the build cache holds for this build's inputs (see :mod:`pnp.cache.buildcache`): their
    check's problems and their files. A component not held is checked and built as always (its reads of
    the game object recorded), and kept.

    A component's entry is found in two steps. Its *identity* (:meth:`ident`: pnp's code, the options,
    the component's name and kind, and the bytes of every file of the game folder but the card files,
    :func:`pnp.cache.buildcache.card_files`) names the list of the game's attributes it read last time; the
    values of those attributes now (:func:`pnp.cache.buildcache.reads_digest`) complete the key of its entry.
    The same values read, the same work: a card edit misses only the components that read the cards."""

    def __init__(self, cache: BuildCache, out_dir, options, checking):
        self.cache, self.out_dir, self.options, self.checking = cache, out_dir, options, checking
        self.built: dict = {}        # component name -> its finished outputs, from the cache
        self.fresh: dict = {}        # component name -> (identity, its check's problems, the names it read)
        self._files_key = None
        self._root = None

    def ident(self, game, component, *more) -> str | None:
        if not self.cache:
            return None
        if self._files_key is None:
            self._root = game.root
            self._files_key = buildcache.folder_digest(game.root, self.cache.files,
                                                       skip=(self.out_dir, self.cache.folder),
                                                       leave_out=buildcache.card_files(game))
            self.cache.game_files = self._files_key
        # --changed-since reaches reprint.pdf only (made apart, from the kit's record): the components'
        # checks and files are the same with it and without, and kept under the same keys
        options, checking = (replace(o, changed_since=None) for o in (self.options, self.checking))
        seen = self.view(game, component)
        return buildcache.digest("component", buildcache.code_digest(), self._files_key, component.name,
                                 component.kind, repr(options), repr(checking), *more,
                                 *(("view", seen) if seen is not None else ()))

    def view(self, game, component) -> str | None:
        """The description of what ``component`` reads of the game when it says (``Component.view``: its
        check and build narrow the game to it and read nothing else): then that is its key, in place of
        its recorded reads. None: its reads are recorded."""
        if component.view is None:
            return None
        memo = self.cache.memo.setdefault("views", {})
        found = memo.get((id(game), component.view))
        if found is None or found[0] is not game:
            with buildcache.unrecorded():
                seen = repr(component.view(game))
            found = memo[(id(game), component.view)] = (game, None if " at 0x" in seen else seen)
        return found[1]

    def reads_of(self, game, component, reads):
        """The names a component's entry is keyed by: none for one keyed by its view."""
        return set() if self.view(game, component) is not None else reads

    def _entry_key(self, game, ident, names) -> str | None:
        values = buildcache.reads_digest(game, names, self.cache.memo.setdefault("values", {}))
        return None if values is None else buildcache.digest("read", ident, buildcache.data_names(game, names), values)

    def lookup(self, game, ident):
        """(meta, blobs) of the entry of ``ident`` whose recorded reads have today's values, or None."""
        if ident is None:
            return None
        found = self.cache.get(buildcache.digest("reads of", ident))
        names = found[0].get("reads") if found is not None else None
        if not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
            return None
        return self.cache.get(self._entry_key(game, ident, names))

    def remember(self, game, ident, names, meta: dict, blobs: list) -> None:
        """Keep an entry for ``ident`` under the values of the attributes ``names`` it read."""
        key = self._entry_key(game, ident, names) if ident is not None else None
        if key is None:
            return
        self.cache.put(buildcache.digest("reads of", ident), {"kind": "reads", "reads": buildcache.data_names(game, names)},
                       [])
        self.cache.put(key, meta, blobs)

    def held(self, game, component) -> tuple | None:
        """(problems, outputs) the cache holds for ``component``, or None."""
        found = self.lookup(game, self.ident(game, component))
        if found is None:
            return None
        meta, blobs = found
        problems = buildcache.problems_from_json(meta.get("problems"), game.root)
        outs = outputs_from_json(meta.get("outputs") or [], blobs)
        if problems is None or outs is None:
            return None
        return problems, outs

    def checks(self, game, problems: Problems) -> None:
        """Validation's component checks, each component's from the cache when it holds it."""
        for component in game_components(game):
            if not component.needs_kit:
                held = self.held(game, component)
                if held is not None:
                    problems.extend(held[0])
                    self.built[component.name] = held[1]
                    continue
            before = len(problems)
            reads = set()
            if component.check:
                with buildcache.recording(game, reads):
                    component.check(game, problems, self.checking)
            self.fresh[component.name] = (self.ident(game, component), problems[before:], reads)

    def build(self, game, component, options) -> list:
        """A component's files, built anew (its reads recorded with its check's)."""
        reads = self.fresh.get(component.name, (None, None, set()))[2]
        with buildcache.recording(game, reads):
            return finished(game, component.build(game, options), options)

    def keep(self, game, component, outs) -> None:
        """Keep a component built anew (its files finished), with its check's problems."""
        ident, found, reads = self.fresh.get(component.name, (None, None, None))
        if not self.cache or ident is None or component.needs_kit:
            return
        problems = buildcache.problems_to_json(found, self._root)
        written = outputs_to_json(outs)
        if problems is None or written is None or any(not p[4] for p in problems):
            return
        self.remember(game, ident, self.reads_of(game, component, reads),
                      {"kind": "component", "problems": problems, "outputs": written[0]}, written[1])

    def described(self, game, component, entries, options) -> list:
        """A kit-describing component's files for ``entries``, from the cache or built and kept. A component
        with a ``view`` (what its build reads of the game, :class:`pnp.components.Component`) is keyed by
        that view whole instead of by its recorded reads."""
        seen = self.view(game, component)
        ident = self.ident(game, component, "described", repr(entries))
        found = self.lookup(game, ident)
        if found is not None:
            outs = outputs_from_json(found[0].get("outputs") or [], found[1])
            if outs is not None:
                return outs
        with buildcache.unrecorded() if seen is not None else buildcache.recording(game) as reads:
            outs = finished(game, component.build(game, options, entries), options)
        reads = self.reads_of(game, component, reads)
        written = outputs_to_json(outs)
        if written is not None:
            self.remember(game, ident, reads, {"kind": "described", "outputs": written[0]}, written[1])
        return outs


def outputs_to_json(outs) -> tuple[list, list] | None:
    """(metadata, PDF bytes) of a component's finished outputs; None when one holds something this
    cannot write down (then the component is not kept: nothing is guessed back)."""
    metas, blobs = [], []
    for out in outs:
        if type(out) is not Output or out.pdf is None or out.pages:
            return None
        meta = {}
        for f in fields(Output):
            value = getattr(out, f.name)
            if f.name == "pdf":
                meta["pdf"] = len(blobs)
                blobs.append(value)
            elif f.name == "pages":
                continue
            elif f.name == "shared_page":
                if value is not None:
                    return None
                meta["shared_page"] = None
            elif f.name == "shared_pdf":
                meta["shared_pdf"] = None
                if value is not None:
                    meta["shared_pdf"] = len(blobs)
                    blobs.append(value)
            elif f.name == "parts":
                if any(type(p) is not Part for p in value):
                    return None
                meta["parts"] = [[p.kind, p.item, p.count, str(p.name)] for p in value]
            elif f.name == "title":
                meta["title"] = [str(value), isinstance(value, Safe)]
            elif f.name == "interleave":
                meta["interleave"] = list(value)
            elif f.name in ("blocks", "holds"):
                meta[f.name] = [list(b) for b in value]
            elif f.name == "beside":            # files written next to it (cut files): their bytes
                if not all(type(k) is str and type(v) is bytes for k, v in value.items()):
                    return None
                meta["beside"] = {}
                for name, data in value.items():
                    meta["beside"][name] = len(blobs)
                    blobs.append(data)
            elif value is None or type(value) in (str, int, float, bool):
                meta[f.name] = value
            else:
                return None
        metas.append(meta)
    return metas, blobs


def outputs_from_json(metas, blobs) -> list | None:
    """The outputs :func:`outputs_to_json` wrote down, or None when the metadata is not sound."""
    names = {f.name for f in fields(Output)} - {"pages"}
    outs = []
    try:
        for meta in metas:
            if not isinstance(meta, dict) or set(meta) != names:
                return None
            title, safe = meta["title"]
            kwargs = {k: v for k, v in meta.items() if k not in ("pdf", "parts", "title", "interleave", "beside",
                                                                 "blocks", "holds", "shared_pdf")}
            if "beside" in names:
                # in the order they were written (their blobs' order): the JSON holds them sorted by name
                kwargs["beside"] = {str(n): blobs[i] for n, i in sorted(meta["beside"].items(), key=lambda kv: kv[1])}
            if not all(v is None or type(v) in (str, int, float, bool) for k, v in kwargs.items() if k != "beside"):
                return None
            parts = tuple(Part(str(k), str(i), int(n), str(name)) for k, i, n, name in meta["parts"])
            out = Output(**kwargs, title=Safe(title) if safe else str(title), pdf=blobs[meta["pdf"]],
                         parts=parts, interleave=tuple(str(n) for n in meta["interleave"]),
                         blocks=tuple(tuple(float(v) for v in b) for b in meta["blocks"]),
                         holds=tuple(tuple(str(v) for v in h) for h in meta["holds"]),
                         shared_pdf=None if meta["shared_pdf"] is None else blobs[meta["shared_pdf"]])
            outs.append(out)
    except (KeyError, TypeError, ValueError, IndexError):
        return None
    return outs


def _build(game, out_dir, options: BuildOptions, progress=None, prebuilt: dict | None = None,
           kept: _Kept | None = None, written: dict | None = None) -> BuildResult:
    """The kit's files built (from ``prebuilt`` and ``kept`` where they hold them) and written; ``written``,
    when given, receives every file's bytes by name."""
    components = game_components(game)
    built = {}
    for component in components:
        if not component.needs_kit:
            if prebuilt and component.name in prebuilt:
                built[component.name] = prebuilt[component.name]
            elif kept is not None:
                built[component.name] = kept.build(game, component, options)
            else:
                built[component.name] = finished(game, component.build(game, options), options)
            if kept is not None:
                kept.keep(game, component, built[component.name])
            if progress:
                progress(component.name)
    # nearly empty pages of files that allow it go onto shared sheets (pnp.build.sharing)
    components, built = share_sheets(game, components, built, options)
    # components that describe the kit (instructions) come last, once every other page is known;
    # their own length can shift the numbers, so they are rebuilt until it stops changing
    for component in components:
        if component.needs_kit:
            built[component.name] = describe_kit(game, component, components, built, options, kept)
            if progress:
                progress(component.name)
    outputs = [out for component in components for out in built[component.name]]
    files = {}
    for out in outputs:
        files[out.filename] = out.pdf
        files.update(out.beside)          # cut files next to their PDF
    pages = {out.filename: out.page_count for out in outputs}
    # pieces.json: every piece's drawing; with --changed-since, reprint.pdf of those that changed (pnp.reprint.changes)
    files[RECORD_FILE] = record = kit_record(game, components, built)
    if options.changed_since:
        for out in finished(game, [changes.reprint_output(game, options, components, record)], options):
            files[out.filename] = out.pdf
            files.update(out.beside)
            pages[out.filename] = out.page_count
    parts = [(o.title, o.pdf) for o in outputs if o.in_kit]
    files[KIT_FILE] = buildcache.current().combined("merge", [game.title, game.author] + [p for part in parts for p in part],
                                                    lambda: merge(parts, game.title, game.author))
    pages[KIT_FILE] = sum(pages[o.filename] for o in outputs if o.in_kit)
    bill = manifest(game.title, options.paper, kit_entries(components, built), {c.name: c.kind for c in components})
    if any(c.kind == "box" for c in components):
        from pnp.components.box import manifest_entry
        bill["box"] = manifest_entry(game, options.lang)
    files[MANIFEST_FILE] = to_json(bill)
    if written is not None:
        written.update(files)
    return BuildResult(game, write_atomically(out_dir, files), pages, sheets=bill["sheets"]["total"])


class _Parallel:
    """The components shared out between this process and forked workers (``build_kit(jobs=...)``).

    Workers begin as soon as the game is loaded, on the game as validation will see it (translated
    for ``--lang``); this process joins in when validation reaches the components' own checks
    (:meth:`checks`). Should validation fail before that, the workers' results are thrown away."""

    def __init__(self, game, options, checking, jobs, kept: _Kept | None = None):
        from pnp.loading.i18n import translate

        self.options, self.checking = options, checking
        # the game as validation will see it (translated for --lang): the cache's keys read its values
        game = translate(game, checking.lang) if checking.lang else game
        self.base, self.game = game, None
        self.kept = kept
        self.listed = [c for c in game_components(game) if not c.needs_kit]
        # what the build cache holds is not done again (see _Kept)
        self.held = {}
        if kept is not None and kept.cache:
            for c in self.listed:
                found = kept.held(game, c)
                if found is not None:
                    self.held[c.name] = found
        # biggest first (kit order among equals), so the last task to finish is a small one; a component
        # that splits (Component.split: the card sheets of a large deck) is a task per part
        self.tasks, self.parts = [], {}
        for c in sorted((c for c in self.listed if c.name not in self.held), key=lambda c: -c.weight):
            parts = c.split(game, options) if c.split else None
            if parts:
                self.parts[c.name] = parts
                self.tasks += [(c, k) for k in range(len(parts))]
            else:
                self.tasks.append((c, None))
        self.task_of = {(id(c), k): i for i, (c, k) in enumerate(self.tasks)}
        self.built: dict = {}
        self.pool = TaskPool(len(self.tasks), self._task, workers=jobs - 1)

    @classmethod
    def start(cls, game_arg, options, checking, jobs, kept: _Kept | None = None):
        """A context manager: the workers at work (None: one process does it all)."""
        if jobs <= 1:
            return nullcontext()
        try:
            problems = Problems()
            game = load_game(game_arg, problems, strict=False)
        except (DataError, UserError):
            game = None                     # validation reports it
        if game is None or problems.errors:
            return nullcontext()
        return cls(game, options, checking, jobs, kept)

    def _task(self, i: int):
        """Task ``i``: the component's check, then (when it passes) its files, finished.
        Returns (problems, outputs or None, the exception its build raised or None, the build cache's
        new entries: a worker's go back to this process, which writes them; the names of the game's
        attributes it read)."""
        if self.game is None:               # a worker: the game as validation sees it
            self.game = self.base
        (component, part), game, problems = self.tasks[i], self.game, Problems()
        cache = buildcache.current()
        before = set(cache.pending)
        if part is not None:                # a part of a component that splits: joined in checks()
            with for_game(game), buildcache.recording(game) as reads:
                value = component.run_part(game, self.options, self.checking, self.parts[component.name], part)
            return value, {k: v for k, v in cache.pending.items() if k not in before}, reads
        with for_game(game), buildcache.recording(game) as reads:
            if component.check:
                component.check(game, problems, self.checking)
            if problems.errors:
                return problems, None, None, {}, reads
            try:
                outs = finished(game, component.build(game, self.options), self.options)
                return problems, outs, None, {k: v for k, v in cache.pending.items() if k not in before}, reads
            except (DataError, UserError) as exc:
                return problems, None, exc, {}, reads

    def checks(self, game, problems: Problems) -> None:
        """Validation's component checks: run tasks here too, then gather every task's problems in kit
        order; the files are kept for the build (:attr:`built`)."""
        self.game = game
        outcomes = self.pool.outcomes(idle=self._warm)
        failed = None
        for component in self.listed:
            if component.name in self.held:
                found, outs = self.held[component.name]
                problems.extend(found)
                self.built[component.name] = outs
                continue
            if component.name in self.parts:
                found, outs, exc, entries, reads = self._joined(game, component, outcomes)
            else:
                ok, value = outcomes[self.task_of[(id(component), None)]]
                if not ok:
                    raise value
                found, outs, exc, entries, reads = value
            problems.extend(found)
            if self.kept is not None:
                self.kept.fresh[component.name] = (self.kept.ident(game, component), found, reads)
                self.kept.cache.pending.update(entries)
            if outs is not None:
                self.built[component.name] = outs
            failed = failed or exc
        if failed is not None and not problems.errors:
            raise failed          # a build error, once the data itself is known to be valid

    def _joined(self, game, component, outcomes) -> tuple:
        """A split component's parts put together, as a task's outcome (see :meth:`_task`)."""
        parts = self.parts[component.name]
        results, entries, reads = [], {}, set()
        for k in range(len(parts)):
            ok, value = outcomes[self.task_of[(id(component), k)]]
            if not ok:
                raise value
            results.append(value[0])
            entries.update(value[1])
            reads |= value[2]
        found = Problems()
        with for_game(game), buildcache.recording(game, reads):
            outs = component.join_parts(game, found, self.options, self.checking, parts, results)
            if outs is not None:
                outs = finished(game, outs, self.options)
        return found, outs, None, entries, reads

    def _warm(self) -> None:
        """While workers finish: what the kit-describing components can do ahead (``Component.warm``)."""
        with for_game(self.game):
            for component in game_components(self.game):
                if component.needs_kit and component.warm:
                    component.warm(self.game, self.options)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.pool.close()


def build_calibration(game_arg, out_dir, options: BuildOptions) -> Path:
    """Write calibration.pdf: the duplex drift test sheet for the game's paper and flip."""
    from pnp.loading.i18n import strings
    from pnp.layout.calibration import calibration_pages

    game = load_game(game_arg)
    w, h = options.page_size
    pages = calibration_pages(w, h, options.flip, strings(game, options.lang))
    data = render(pages, f"{game.title}: calibration", game.author)
    return write_atomically(out_dir, {"calibration.pdf": data})[0]


def describe_kit(game, component, components, built: dict, options, kept: _Kept | None = None) -> list:
    """Outputs of a component that describes the kit (``needs_kit``), given every other one ``built``.

    Its own length shifts the page numbers it prints, so it is rebuilt until that length settles. With
    the build cache (``kept``), each of its builds is kept by the game's inputs and the kit's entries."""
    own_pages, outs = 1, []
    for _ in range(3):
        entries = kit_entries(components, built, component.name, own_pages)
        outs = kept.described(game, component, entries, options) if kept is not None and kept.cache else \
            finished(game, component.build(game, options, entries), options)
        n = sum(o.page_count for o in outs if o.in_kit)
        if n == own_pages:
            break
        own_pages = n
    return outs


def finished(game, outs, options) -> list:
    """A component's outputs as the kit holds them: PDFs made (:func:`rendered`, :func:`interleaved`),
    font subsets tagged, page counts known, layout pages let go."""
    done = {}
    for out in outs:
        if out.interleave:
            interleaved(game, out, done)
            out.page_count = sum(done[name].page_count for name in out.interleave)
        else:
            count = len(out.pages) if out.pdf is None else None
            if out.share and out.pages:
                out.blocks = share_blocks(out)
            if out.shared_page is not None:
                page = save_ink_page(out.shared_page) if options.ink_saver else out.shared_page
                out.shared_pdf = tag_font_subsets(render([page], f"{game.title}: {out.title}", game.author,
                                                         outline=out.title))
                out.shared_page = None
            rendered(game, out, options)
            out.page_count = count if count is not None else page_count(out.pdf)
            out.pdf = tag_font_subsets(out.pdf)
        out.pages = []
        done[out.filename] = out
    return outs


def pages_of(out) -> int:
    """The pages of an output whose PDF is made (counted when it was finished, else read from the PDF)."""
    return out.page_count if out.page_count is not None else page_count(out.pdf)


def rendered(game, out, options):
    """``out`` with its PDF made (layout pages painted, ink saver applied)."""
    if out.pdf is None:
        pages = [save_ink_page(p) for p in out.pages] if options.ink_saver else out.pages
        title = f"{game.title}: {out.title}"
        cache = buildcache.current()
        if cache:
            icons = buildcache.icons_digest(getattr(game, "icons", None), cache.files)
            out.pdf = cache.rendered(pages, title, game.author, out.title, icons, drawing_context(pages),
                                     lambda: tag_font_subsets(render(pages, title, game.author, outline=out.title)))
        else:
            out.pdf = render(pages, title, game.author, outline=out.title)
    return out


def interleaved(game, out, done: dict):
    """``out`` made of two files of its component, already made (``done``: by file name), a page of
    one then a page of the other (card fronts and backs for duplex printers)."""
    first, second = (done[name].pdf for name in out.interleave)
    title = f"{game.title}: {out.title}"
    out.pdf = buildcache.current().combined("interleave", [first, second, title, game.author, out.title],
                                            lambda: interleave(first, second, title, game.author, out.title))
    return out


def kit_entries(components, built, describing: str | None = None, own_pages: int = 0) -> list[KitEntry]:
    """Every kit file's first and last page (0 for files kept beside the kit), with what it makes and the
    paper it takes. While the ``describing`` component is being built, ``own_pages`` are reserved for it
    and stand as one entry without a file name."""
    entries, page = [], 1
    for component in components:
        if component.name == describing:
            entries.append(KitEntry("", component.name, page, page + own_pages - 1, component.name, own_pages))
            page += own_pages
            continue
        for out in built.get(component.name, []):
            own = pages_of(out)
            n = own if out.in_kit else 0
            entries.append(entry_of(component.name, out, page if n else 0, page + n - 1 if n else 0, n, own))
            page += n
    return entries
