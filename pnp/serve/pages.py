"""Component pages for the studio: every component of the kit built as ``pnp build`` builds it, each
output file's pages fingerprinted, rendered to PDF only when a page changed, and rasterized only
for the pages that changed.

A component whose build fails shows why (its own problems, with file and line) instead of pages; the
card sheets wait while any card has a problem (the cards show those problems themselves); a
component that describes the kit (the instructions) is drawn once every other one is.
"""

from __future__ import annotations

from collections import OrderedDict
from contextlib import nullcontext
from dataclasses import dataclass
from functools import partial

from pnp.cache.buildcache import digest
from pnp.components import game_components
from pnp.draw.icons import for_game
from pnp.errors import DataError
from pnp.draw.raster import Rasterizer, png_bytes
from pnp.serve.images import Image, layout_fingerprint
from pnp.serve.worker import Stopped

#: Resolutions (dots per inch) of a page in the list and in the large view.
PAGE_DPI = 50
LARGE_PAGE_DPI = 110
#: Rendered output PDFs kept by fingerprint, so an output whose pages did not change is not rendered again.
KEPT_PDFS = 64


@dataclass
class Rendered:
    """An output file with its PDF, its fingerprint and each of its pages'."""

    out: object
    fingerprint: str
    pages: list


#: Keys a page's fingerprint does not follow: links to the document's tree and to other pages, which do
#: not change how the page looks.
_NOT_DRAWN = frozenset({"/Parent", "/P", "/Dest", "/A", "/Next", "/Prev", "/First", "/Last", "/StructParents",
                        "/Length"})
#: What of a page's own dictionary its look depends on.
_PAGE_KEYS = ("/MediaBox", "/CropBox", "/BleedBox", "/TrimBox", "/Rotate", "/UserUnit", "/Contents",
              "/Resources", "/Annots", "/Group")


def pdf_page_prints(pdf: bytes) -> list[str]:
    """A fingerprint of each page of a finished PDF from what it draws with: its boxes, content streams
    and every resource they use (fonts, pictures, forms), followed by content, never by object number.
    So a page whose drawing did not change keeps its fingerprint while another page of the file
    changes (a rulebook whose one table shows an edited card), and is not rasterized again."""
    import io

    import pikepdf

    memo: dict = {}

    def walk(obj, active: frozenset) -> str:
        if not isinstance(obj, pikepdf.Object):          # numbers and booleans come as Python values
            return digest("value", obj)
        key = obj.objgen if obj.is_indirect else None
        if key is not None and key in memo:
            return memo[key]
        if key is not None and key in active:
            return "cycle"
        inner = active | {key} if key is not None else active
        if isinstance(obj, pikepdf.Stream):
            value = digest("stream", walk_dict(obj.stream_dict, inner), obj.read_raw_bytes())
        elif isinstance(obj, pikepdf.Dictionary):
            value = digest("dict", walk_dict(obj, inner))
        elif isinstance(obj, pikepdf.Array):
            value = digest("array", [walk(item, inner) for item in obj])
        else:
            value = digest("value", obj.unparse())
        if key is not None:
            memo[key] = value
        return value

    def walk_dict(obj, active) -> list:
        return [(k, walk(obj[k], active)) for k in sorted(obj.keys()) if k not in _NOT_DRAWN]

    with pikepdf.open(io.BytesIO(pdf)) as doc:
        return [digest("pdf page", [(k, walk(page.obj[k], frozenset())) for k in _PAGE_KEYS if k in page.obj])
                for page in doc.pages]


def page_image(pdf: bytes, index: int, dpi: int) -> Image:
    with Rasterizer(pdf) as doc:
        image = doc.render_at(index, dpi)
    return Image(png_bytes(image, dpi), *image.size)


def page_work(out, index: int) -> str:
    return f"the picture of page {index + 1} of {out.filename}"


def _count(problems) -> str:
    n = len(problems)
    return f"its {n} problem{'s are' if n != 1 else ' is'}"


class PageMaker:
    """Builds, renders and rasterizes components' pages, keeping PDFs and pictures it already made."""

    def __init__(self, images, files, why=str, doing=lambda name: nullcontext()):
        self.images = images
        self.files = files
        self.why = why
        self.doing = doing          # the preview process names what it draws (pnp.serve.previews.Activity)
        self._pdfs: OrderedDict[str, bytes] = OrderedDict()
        self._changed: dict = {}        # component name -> when its pictures last changed (a counter)
        self._serial = 0

    def components(self, game, options, icons: str, problem_json, card_errors: bool, any_errors: bool,
                   recipes: dict, progress=None, early: bool = False):
        """A generator: one slice per component (so the worker can serve the page between them); its
        return value is the components as the page shows them. ``recipes`` receives every picture's.
        Each component's pages are rasterized as soon as it is built, and ``progress(entries)`` is then
        told (every component's entry; those not drawn yet have no files). ``early``: drawn before the
        full check (see :mod:`pnp.serve.previews`): a component that fails says so in one line, without
        a traceback (the check that follows reports the cause, and the pages are drawn again)."""
        build_options = options.build_options()
        try:
            components = game_components(game)
        except Exception as exc:
            return [{"name": "components", "kind": "components", "error": self.why(exc), "problems": [],
                     "files": []}]
        kinds = {spec.id: spec.kind for spec in getattr(game, "component_specs", ()) or ()}
        entries, done = [], {}         # done: component name -> [Rendered]
        for component in components:
            entries.append((component, {"name": component.name, "kind": kinds.get(component.name, component.name),
                                        "error": None, "problems": [], "files": []}))
        # the components whose pictures changed last are drawn first (the one the designer works on),
        # the page still lists them in the kit's order
        order = sorted(entries, key=lambda pair: -self._changed.get(pair[0].name, 0))
        for component, entry in order:
            if component.needs_kit:
                continue
            if entry["kind"] == "cards" and card_errors:
                entry["error"] = "The card sheets are drawn again once the cards' problems are fixed."
                continue
            drawn = len(self.images)
            first = partial(self._first_files, entry, recipes, progress, [e for _, e in entries])
            with for_game(game):
                self._build(entry, done, component, lambda c=component: c.build(game, build_options), game,
                            icons, build_options, problem_json, any_errors or early, first)
            self._pictures(entry, done, component, recipes, progress, [e for _, e in entries], drawn)
            yield
        others = [c for c, _ in entries if not c.needs_kit]
        for component, entry in entries:
            if not component.needs_kit:
                continue
            if any_errors or any(c.name not in done for c in others):
                entry["error"] = "Drawn once every other component can be drawn (it lists their pages)."
                continue
            from pnp.build.kit import describe_kit
            from pnp.build.sharing import share_sheets

            built = {c.name: [r.out for r in done[c.name]] for c, _ in entries if c.name in done}
            with for_game(game):
                # the instructions list the kit's files as the build makes them: shared sheets included
                kit_components, built = share_sheets(game, components, built, build_options)
                self._build(entry, done, component,
                            lambda c=component: describe_kit(game, c, kit_components, built, build_options),
                            game, icons, build_options, problem_json, early)
            self._pictures(entry, done, component, recipes, progress, [e for _, e in entries])
            yield
        while len(self._pdfs) > KEPT_PDFS:
            self._pdfs.popitem(last=False)
        return [entry for _, entry in entries]

    def _first_files(self, entry, recipes, progress, entries, rendered: list) -> None:
        """The first files of a component being drawn (its reading order before its imposed sheets),
        rasterized where new and shown (``progress``) before the next file is fingerprinted: the entry is
        ``partial`` (:mod:`pnp.serve.previews` shows the other files as they were meanwhile)."""
        if progress is None:
            return
        entry["files"] = [self._pages_json(r, recipes) for r in rendered]
        entry["partial"] = True
        progress(entries)

    def _pictures(self, entry, done, component, recipes, progress, entries, drawn: int | None = None) -> None:
        """The pages of a component just built, rasterized where new; then ``progress`` is told.
        ``drawn``: how many pictures there were before the component was built (its first files may be
        rasterized already)."""
        missing = len(self.images) if drawn is None else drawn
        entry["files"] = [self._pages_json(rendered, recipes) for rendered in done.get(component.name, [])]
        entry.pop("partial", None)
        if component.name not in self._changed:         # its first pictures: no edit changed them yet
            self._changed[component.name] = 0
        elif len(self.images) != missing:               # new pictures after an edit: drawn first next time
            self._serial += 1
            self._changed[component.name] = self._serial
        if progress is not None:
            progress(entries)

    def _build(self, entry, done, component, build, game, icons, options, problem_json,
               after_problems: bool = False, first=None) -> None:
        try:
            with self.doing(f"the pages of component '{component.name}'"):
                made = self._made(build, game, icons, options, first)
            done[component.name] = list(made.values())
        except Stopped as exc:
            entry["error"] = str(exc)
        except DataError as exc:
            entry["problems"] = [problem_json(p) for p in exc.problems]
            entry["error"] = f"{component.name} is drawn again once {_count(exc.problems)} fixed."
        except Exception as exc:
            if after_problems:      # most likely a reported problem's consequence: no traceback for it
                reason = str(exc).splitlines()[0][:300] if str(exc) else type(exc).__name__
                entry["error"] = f"{component.name} cannot be drawn while the problems above remain ({reason})."
            else:
                entry["error"] = self.why(exc)

    def _made(self, build, game, icons: str, options, first=None) -> dict:
        """Each output of ``build()`` rendered and fingerprinted; ``first(rendered so far)`` is called after
        each but the last (a component's first file is shown before the others are fingerprinted)."""
        made = {}
        outs = list(build())
        for i, out in enumerate(outs):
            if out.interleave:      # made of two files already rendered (cards for duplex printers)
                from pnp.build.kit import interleaved

                interleaved(game, out, {name: made[name].out for name in out.interleave})
            made[out.filename] = self._render(game, out, icons, options)
            if first is not None and i + 1 < len(outs):
                first(list(made.values()))
        return made

    def _render(self, game, out, icons: str, options) -> Rendered:
        """``out`` with its PDF (the one made before when no page changed) and its pages' fingerprints."""
        if out.pdf is None:
            prints = [digest(layout_fingerprint(page.elements, icons, self.files), page.width, page.height,
                             page.trim, page.bleed) for page in out.pages]
            fingerprint = digest("output", out.filename, prints)
            if fingerprint in self._pdfs:
                out.pdf = self._pdfs[fingerprint]
            else:
                from pnp.build.kit import rendered

                rendered(game, out, options)
        else:                    # made by its component (the rulebook): fingerprinted from the PDF itself
            fingerprint = digest("output", out.filename, digest(out.pdf))
            try:
                prints = pdf_page_prints(out.pdf)
            except Exception:    # a PDF pikepdf cannot walk: every page changes with any byte of it
                with Rasterizer(out.pdf) as doc:
                    prints = [digest(fingerprint, i) for i in range(len(doc))]
        self._pdfs[fingerprint] = out.pdf
        self._pdfs.move_to_end(fingerprint)
        return Rendered(out, fingerprint, prints)

    def _page_image(self, pdf: bytes, index: int, dpi: int, name: str) -> Image:
        with self.doing(name):
            return page_image(pdf, index, dpi)

    def _pages_json(self, rendered: Rendered, recipes: dict) -> dict:
        out = rendered.out
        pages, missing = [], []
        for i, fp in enumerate(rendered.pages):
            small, large = digest("page", fp, PAGE_DPI), digest("page", fp, LARGE_PAGE_DPI)
            recipes[small] = partial(self._page_image, out.pdf, i, PAGE_DPI, page_work(out, i))
            recipes[large] = partial(self._page_image, out.pdf, i, LARGE_PAGE_DPI, page_work(out, i))
            if small not in self.images:
                missing.append((i, small))
            pages.append({"page": i + 1, "image": f"/img/{small}.png", "large": f"/img/{large}.png", "name": small})
        if missing:
            with Rasterizer(out.pdf) as doc:
                for i, name in missing:
                    try:
                        with self.doing(page_work(out, i)):
                            image = doc.render_at(i, PAGE_DPI)
                    except Stopped:        # its picture says so when the page asks for it
                        continue
                    self.images.put(name, Image(png_bytes(image, PAGE_DPI), *image.size))
        for page in pages:
            image = self.images.get(page.pop("name"))
            if image is not None:
                page["width"], page["height"] = image.width, image.height
        return {"filename": out.filename, "title": out.title, "in_kit": out.in_kit, "pages": pages}
