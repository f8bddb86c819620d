"""Component pages for the studio: every component of the kit built as ``pnp build`` builds it, each
output file's pages fingerprinted, rendered to PDF only when a page changed, and rasterized only
for the pages that changed.

A component whose build fails shows why (its own problems, with file and line) instead of pages; the
card sheets wait while any card has a problem (the cards show those problems themselves); a
component that describes the kit (the instructions) is drawn once every other one is.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from functools import partial

from pnp.components import game_components
from pnp.draw.icons import using
from pnp.errors import DataError
from pnp.exports.raster import Rasterizer, png_bytes
from pnp.serve.images import Image, digest, layout_fingerprint

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


def page_image(pdf: bytes, index: int, dpi: int) -> Image:
    with Rasterizer(pdf) as doc:
        image = doc.render_at(index, dpi)
    return Image(png_bytes(image, dpi), *image.size)


def _count(problems) -> str:
    n = len(problems)
    return f"its {n} problem{'s are' if n != 1 else ' is'}"


class PageMaker:
    """Builds, renders and rasterizes components' pages, keeping PDFs and pictures it already made."""

    def __init__(self, images, files, why=str):
        self.images = images
        self.files = files
        self.why = why
        self._pdfs: OrderedDict[str, bytes] = OrderedDict()

    def components(self, game, options, icons: str, problem_json, card_errors: bool, any_errors: bool,
                   recipes: dict):
        """A generator: one slice per component (so the worker can serve the page between them); its
        return value is the components as the page shows them. ``recipes`` receives every picture's."""
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
        for component, entry in entries:
            if component.needs_kit:
                continue
            if entry["kind"] == "cards" and card_errors:
                entry["error"] = "The card sheets are drawn again once the cards' problems are fixed."
                continue
            with using(game.icons):
                self._build(entry, done, component, lambda c=component: c.build(game, build_options), game,
                            icons, build_options, problem_json)
            yield
        others = [c for c, _ in entries if not c.needs_kit]
        for component, entry in entries:
            if not component.needs_kit:
                continue
            if any_errors or any(c.name not in done for c in others):
                entry["error"] = "Drawn once every other component can be drawn (it lists their pages)."
                continue
            from pnp.kit import describe_kit

            built = {name: [r.out for r in outs] for name, outs in done.items()}
            with using(game.icons):
                self._build(entry, done, component,
                            lambda c=component: describe_kit(game, c, components, built, build_options),
                            game, icons, build_options, problem_json)
            yield
        for component, entry in entries:
            for rendered in done.get(component.name, []):
                entry["files"].append(self._pages_json(rendered, recipes))
        while len(self._pdfs) > KEPT_PDFS:
            self._pdfs.popitem(last=False)
        return [entry for _, entry in entries]

    def _build(self, entry, done, component, build, game, icons, options, problem_json) -> None:
        try:
            done[component.name] = [self._render(game, out, icons, options) for out in build()]
        except DataError as exc:
            entry["problems"] = [problem_json(p) for p in exc.problems]
            entry["error"] = f"{component.name} is drawn again once {_count(exc.problems)} fixed."
        except Exception as exc:
            entry["error"] = self.why(exc)

    def _render(self, game, out, icons: str, options) -> Rendered:
        """``out`` with its PDF (the one made before when no page changed) and its pages' fingerprints."""
        if out.pdf is None:
            prints = [digest(layout_fingerprint(page.elements, icons, self.files), page.width, page.height,
                             page.trim, page.bleed) for page in out.pages]
            fingerprint = digest("output", out.filename, prints)
            if fingerprint in self._pdfs:
                out.pdf = self._pdfs[fingerprint]
            else:
                from pnp.kit import rendered

                rendered(game, out, options)
        else:                    # made by its component (the rulebook): its bytes are its fingerprint
            whole = digest(out.pdf)
            fingerprint = digest("output", out.filename, whole)
            with Rasterizer(out.pdf) as doc:
                prints = [digest(whole, i) for i in range(len(doc))]
        self._pdfs[fingerprint] = out.pdf
        self._pdfs.move_to_end(fingerprint)
        return Rendered(out, fingerprint, prints)

    def _pages_json(self, rendered: Rendered, recipes: dict) -> dict:
        out = rendered.out
        pages, missing = [], []
        for i, fp in enumerate(rendered.pages):
            small, large = digest("page", fp, PAGE_DPI), digest("page", fp, LARGE_PAGE_DPI)
            recipes[small] = partial(page_image, out.pdf, i, PAGE_DPI)
            recipes[large] = partial(page_image, out.pdf, i, LARGE_PAGE_DPI)
            if small not in self.images:
                missing.append((i, small))
            pages.append({"page": i + 1, "image": f"/img/{small}.png", "large": f"/img/{large}.png", "name": small})
        if missing:
            with Rasterizer(out.pdf) as doc:
                for i, name in missing:
                    image = doc.render_at(i, PAGE_DPI)
                    self.images.put(name, Image(png_bytes(image, PAGE_DPI), *image.size))
        for page in pages:
            image = self.images.get(page.pop("name"))
            if image is not None:
                page["width"], page["height"] = image.width, image.height
        return {"filename": out.filename, "title": out.title, "in_kit": out.in_kit, "pages": pages}
