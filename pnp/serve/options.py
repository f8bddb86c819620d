"""The studio's view options and how it names places, shared by the studio and its preview process
(light: the studio itself imports nothing that draws)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pnp import TEMPLATES_DIR
from pnp.components import BuildOptions
from pnp.errors import Problem

#: Bleed (mm) shown when the page's bleed toggle is on (print services ask for 3 mm).
BLEED_MM = 3.0
#: Resolutions (dots per inch) of a card face in the grid and in the large view.
CARD_DPI = 120
LARGE_CARD_DPI = 250


@dataclass(frozen=True)
class Options:
    """What a view is drawn for: the paper of the component pages, the language (None: the game's
    own), and the bleed in mm round each card face and on the card sheets."""

    paper: str = "letter"
    lang: str | None = None
    bleed: float = 0.0

    def build_options(self) -> BuildOptions:
        return BuildOptions(paper=self.paper, lang=self.lang, bleed=self.bleed, thorough=False)


def inside(root: Path, path) -> str | None:
    """``path`` relative to the game folder (``/`` separated) when it is inside it, else None."""
    try:
        resolved = Path(path).resolve()
    except OSError:
        return None
    return resolved.relative_to(root).as_posix() if resolved.is_relative_to(root) else None


def relative(root: Path, path) -> str:
    """A file as the page names it: relative to the game folder, ``pnp:templates/...`` for pnp's own
    templates, else its name."""
    found = inside(root, path)
    if found is not None:
        return found
    templates = Path(TEMPLATES_DIR).resolve()
    resolved = Path(path).resolve()
    if resolved.is_relative_to(templates):
        return "pnp:templates/" + resolved.relative_to(templates).as_posix()
    return Path(path).name


def where(root: Path, path, line) -> dict:
    """A place as JSON; ``viewable`` when the page may show the file (one of the game's own)."""
    return {"file": relative(root, path) if path else None, "line": int(line) if line is not None else None,
            "column": getattr(line, "column", None), "viewable": bool(path) and inside(root, path) is not None}


def problem_json(root: Path, p: Problem) -> dict:
    place = where(root, p.path, p.line)
    at = place["file"] or ""
    if at and p.line is not None:
        at += f":{p.line}"
    text = (f"{at}: " if at else "") + ("warning: " if p.warning else "") + \
        (f"{p.subject}: " if p.subject else "") + p.message
    return {**place, "subject": p.subject, "message": p.message, "warning": p.warning, "text": text}


def unplaced(text: str, root: Path, *files) -> str:
    """``text`` (a message) without the machine's paths it may quote: each of ``files`` (a variant file
    a report names, anywhere) by its name, the game folder's files relative to it, then whatever else
    lies under the working folder or the home folder by its name (the studio's answers name no path of
    the machine)."""
    for file in files:
        if file:
            for form in {str(file), str(Path(file).resolve())}:
                text = text.replace(form, Path(file).name)
    for folder in (root, Path.cwd(), Path.home()):
        for form in sorted({str(folder), str(Path(folder).resolve())}, key=len, reverse=True):
            if len(form) > 1:
                text = text.replace(form + "/", "").replace(form, Path(form).name)
    return text
