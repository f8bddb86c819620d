"""``tokens.yaml``: which tokens a game has, how many, their shape and size, and their two faces."""

from __future__ import annotations

from dataclasses import dataclass

from pnp.loading import placeholders
from pnp.errors import Problems
from pnp.loading.paths import data_path, excerpt
from pnp.loading.schema import Field, check
from pnp.loading.yamlsrc import line_of, load_yaml_or_report

#: Cut shapes of a token. ``size`` is the diameter (circle), the side (square, rounded) or the width
#: across the flats (hexagon, pointy-top); an ``outline`` token is cut along an SVG file's shape.
SHAPES = ("circle", "square", "rounded", "hexagon", "outline")
#: Patterns a face may draw inside its edge: a second cue, beside colour, for sets of tokens that are
#: alike but for their colour (each player's markers), so that colour-blind players and greyscale
#: prints still tell them apart (see pnp.layout.tokens.pattern_elements).
PATTERNS = ("none", "ring", "double_ring", "dashed_ring", "dotted_ring")

_FACE = {
    "background": Field("str", required=True, doc="'#rrggbb' or 'faction' (the token's faction colour)"),
    "icon": Field("str", doc="an icon: the game's own or a built-in one"),
    "icon_colour": Field("colour"),
    "label": Field("str", default=None, nullable=True, doc="text drawn on the icon (a value)"),
    "caption": Field("str", default=None, nullable=True, doc="small text under the icon; 'faction' = its name"),
    "icon_size": Field("number", default=None, nullable=True, min=0.2, max=1.5,
                       doc="the icon's size as a fraction of its usual size (0.7 of the token, 0.5 with a caption)"),
    "pattern": Field("str", default=None, nullable=True, choices=PATTERNS,
                     doc="a ring drawn inside the edge (a second cue beside colour)"),
    "pattern_colour": Field("colour", doc="the pattern's colour (default: the icon's, else white or ink)"),
}

SCHEMA = {
    "sheet": Field("map", default={}, schema={
        "gap": Field("length", default=2.5, min=0, max=20),
        "fold_gutter": Field("length", default=4.0, min=0, max=30),
        "bleed": Field("length", default=1.0, min=0, max=5),
    }),
    "kinds": Field("list", default=[], items=Field("id"),
                   doc="the token kinds, in the order the rulebook lists them (default: as they come)"),
    "tokens": Field("list", required=True),
}

TOKEN_SCHEMA = {
    "id": Field("id", required=True),
    "kind": Field("id", required=True, doc="what it counts (gold, marker, ...): the game's own names"),
    "faction": Field("str"),
    "value": Field("int", min=1, max=100),
    "count": Field("int", required=True, min=1, max=500),
    "shape": Field("str", required=True, choices=SHAPES),
    "outline": Field("str", nullable=True, doc="shape 'outline': an SVG file whose shape the token is cut to"),
    "size": Field("length", required=True, min=5, max=150),
    "on_track": Field("bool", default=False, doc="moves on the power track"),
    "front": Field("map", required=True, schema=_FACE),
    "back": Field("map", required=True, schema=_FACE),
    "placeholder": Field("any", nullable=True, doc="true, or the keys whose values are invented (e.g. [count])"),
}


@dataclass(frozen=True)
class Face:
    """One side of a token: its background, icon and the icon's colour, label and caption."""

    background: str
    icon: str | None
    icon_colour: str | None
    label: str | None
    caption: str | None
    icon_size: float | None = None   # a fraction of the icon's usual size
    pattern: str | None = None       # one of PATTERNS (None, "none": no pattern)
    pattern_colour: str | None = None


@dataclass(frozen=True)
class Token:
    """One entry of tokens.yaml: what it counts, how many copies, its cut shape and size (mm), and its faces."""

    id: str
    kind: str
    faction: str | None
    value: int | None
    count: int
    shape: str
    size: float
    on_track: bool
    front: Face
    back: Face
    line: int | None = None
    outline: object = None          # shape 'outline': the SVG file (a Path inside the game folder)

    @property
    def extent(self) -> float:
        """Side of the square the token takes on the sheet (a hexagon is taller than wide)."""
        return self.size * 2 / 3 ** 0.5 if self.shape == "hexagon" else self.size


@dataclass(frozen=True)
class TokenSet:
    """The game's tokens.yaml, checked: the sheet settings (gap, fold gutter, bleed, in mm) and every token."""

    path: str
    gap: float
    fold_gutter: float
    bleed: float
    tokens: tuple
    kinds: tuple = ()                 # every kind, in the declared (or first-use) order
    placeholders: int = 0             # placeholder marks (values invented where the source has none)

    @property
    def total(self) -> int:
        return sum(t.count for t in self.tokens)

    def count_of(self, kind: str) -> int:
        return sum(t.count for t in self.tokens if t.kind == kind)

    def value_of(self, kind: str) -> int:
        return sum(t.count * (t.value or 1) for t in self.tokens if t.kind == kind)


def _face(data: dict) -> Face:
    return Face(*(data.get(k) for k in ("background", "icon", "icon_colour", "label", "caption", "icon_size",
                                        "pattern", "pattern_colour")))


def tokens_path(game):
    return game.root / "tokens.yaml"


def load_tokens(game, problems: Problems | None = None) -> TokenSet | None:
    """Load and check the game's tokens.yaml (None when the game has none)."""
    path = tokens_path(game)
    if not (path.exists() or path.is_symlink()):
        return None
    own = problems is None
    problems = Problems() if own else problems
    before = len(problems.errors)
    raw = load_yaml_or_report(path, problems, within=game.root)
    if raw is None:
        if len(problems.errors) == before:
            problems.error(path, None, None, "the file is empty; expected a mapping with tokens: [...]")
        if own:
            problems.raise_if_errors()
        return None
    top = check(raw, SCHEMA, problems, path)
    sheet = top.get("sheet") or {}
    raw_list = raw.get("tokens") if isinstance(raw, dict) else None
    tokens, seen, marks = [], {}, 0
    factions = {f.id for f in game.factions}
    for i, item in enumerate(top.get("tokens") or []):
        tid = item.get("id") if isinstance(item, dict) else None
        tid = tid if isinstance(tid, str) else None
        subject = f"token {excerpt(tid)}" if tid else f"token #{i + 1}"
        line = line_of(raw_list, i)
        clean = check(item, TOKEN_SCHEMA, problems, path, subject)
        marks += placeholders.weight(list(placeholders.check_mark(
            clean.get("placeholder"), list(item) if isinstance(item, dict) else [],
            lambda message: problems.error(path, placeholders.mark_line(item) or line, subject, message))))
        if tid is not None and tid in seen:
            problems.error(path, line, subject, f"id: duplicate id (first at line {seen[tid]})")
        if tid is not None:
            seen.setdefault(tid, line)
        if clean.get("faction") and clean["faction"] not in factions:
            problems.error(path, line_of(item, "faction"), subject,
                           f"faction: '{clean['faction']}' is not one of: {', '.join(sorted(factions))}")
        for side in ("front", "back"):
            face = clean.get(side) or {}
            bg = face.get("background")
            if bg and bg != "faction" and not (bg.startswith("#") and len(bg) == 7):
                problems.error(path, line_of(item, side), subject,
                               f"{side}.background: expected a colour like '#8a1c1c' or 'faction', got {bg!r}")
            if face.get("icon") is not None and getattr(game, "icons", None) is not None:
                why = game.icons.problem(face["icon"])
                if why:
                    problems.error(path, line_of(item, side), subject, f"{side}.icon: {why}")
            if "faction" in (bg, face.get("caption")) and not clean.get("faction"):
                problems.error(path, line_of(item, side), subject,
                               f"{side}: uses the faction's colour or name but the token has no faction")
        declared = top.get("kinds") or []
        if declared and clean.get("kind") and clean["kind"] not in declared:
            problems.error(path, line_of(item, "kind"), subject,
                           f"kind: '{clean['kind']}' is not one of kinds: {', '.join(declared)}")
        for side in ("front", "back"):
            if clean.get("shape") == "outline" and (clean.get(side) or {}).get("pattern") not in (None, "none"):
                problems.error(path, line_of(item, side), subject,
                               f"{side}.pattern: a pattern follows the token's edge, which a shape 'outline' "
                               f"token does not have: use an icon or a caption as the second cue")
        outline = None
        if clean.get("shape") == "outline":
            if not clean.get("outline"):
                problems.error(path, line, subject, "shape 'outline' needs outline: an SVG file in the game folder")
            else:
                outline = data_path(game.root, clean["outline"], problems, path, line_of(item, "outline"), subject,
                                    "outline")
                if outline is not None and (outline.suffix.lower() != ".svg" or not outline.is_file()):
                    problems.error(path, line_of(item, "outline"), subject,
                                   f"outline: no SVG file {excerpt(clean['outline'])} in the game folder")
                    outline = None
                elif outline is not None:
                    from pnp.loading.svg import check_svg

                    for at, message in check_svg(outline).problems:
                        problems.error(outline, at, subject, f"outline: {message}")
                        outline = None
        elif clean.get("outline"):
            problems.error(path, line_of(item, "outline"), subject, "outline: only for shape 'outline'")
        if not {"id", "kind", "count", "shape", "size", "front", "back"} <= clean.keys():
            continue
        tokens.append(Token(clean["id"], clean["kind"], clean.get("faction"), clean.get("value"), clean["count"],
                            clean["shape"], clean["size"], bool(clean.get("on_track")), _face(clean["front"]),
                            _face(clean["back"]), line, outline))
    kinds = tuple(dict.fromkeys(list(top.get("kinds") or []) + [t.kind for t in tokens]))
    result = TokenSet(str(path), sheet.get("gap", 2.5), sheet.get("fold_gutter", 4.0), sheet.get("bleed", 1.0),
                      tuple(tokens), kinds, marks)
    if own:
        problems.raise_if_errors()
    return result
