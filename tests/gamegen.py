"""Generated games (issue 32): a hypothesis strategy that composes random but valid game folders from the
documented features (docs/data-format.md, docs/rulebook.md), and the mistakes a designer makes in them.

:func:`games` draws a :class:`Game`: a model of every file of a game folder (YAML written one entry a line
or one key a line, CSV, templates, SVG icons, PNG/JPEG/SVG pictures) that a test writes to a folder
(:meth:`Game.write`). It uses decks from CSV and YAML with every field type, the one-deck form, factions,
ranks, layouts (``classic``, a layout file extending it or standing alone, inline, one per card value)
with every card region kind, ``when:``, ``in:``, ``before:`` and ``remove:``; card text and rulebook markup
with every block and inline form (the ``>`` example box included) and figures; tables with icons; tokens
of every shape and face key; tracks of every shape; boards (one-sided, double-sided, one per data item,
tables, tracks, circles, ``for:``), dice, standees (listed and from data), sheets, the instructions page,
boxes (telescoping and tuck, every contents count), data files (YAML and CSV), pictures and backs of every
form, and translations (a Spanish ``i18n/es.yaml`` with its chapters, complete or half done).

While it composes a game it records its **sites**: the places where a name, a reference, a value of a
type or a file is written. :func:`mutations` draws a mistake at one of them (a typo in a name, a wrong
type, an out-of-range value, a misspelt key, a missing file, broken markup...), and :func:`edits` a
change a designer makes that keeps the game valid. :meth:`Game.changed_lines` says at which lines of which
file a change lands, which is where pnp must point.
"""

from __future__ import annotations

import copy
import csv
import difflib
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import strategies as st

BUILTIN_ICONS = ("coin", "seal", "heater", "purse", "skull", "gem", "cycle", "plus", "pip", "step", "crown", "star",
                 "sun", "circle", "square", "diamond", "triangle", "hexagon", "heart")
#: The game's own icons (icons/<name>.svg) and names game.yaml gives icons (``icons:``).
OWN_ICONS = ("acorn", "anchor", "bloom", "ember", "lamp", "shell", "quill", "tide")
ALIASES = ("glow", "wish", "might", "mana", "spirit")
WORDS = ("moon", "lantern", "river", "stone", "ember", "harbour", "market", "crown", "storm", "wind", "night",
         "dawn", "garden", "tower", "bridge", "raven", "willow", "copper", "silver", "amber", "forest", "meadow",
         "candle", "signal", "thorn", "velvet", "marble", "pepper", "saffron", "quarry", "orchard", "beacon",
         "comet", "island", "valley", "summit", "hollow", "ferry", "tavern", "cellar")
SPANISH = {w: s for w, s in zip(WORDS, (
    "luna", "farol", "río", "piedra", "brasa", "puerto", "mercado", "corona", "tormenta", "viento", "noche",
    "alba", "jardín", "torre", "puente", "cuervo", "sauce", "cobre", "plata", "ámbar", "bosque", "prado", "vela",
    "señal", "espina", "terciopelo", "mármol", "pimienta", "azafrán", "cantera", "huerto", "baliza", "cometa",
    "isla", "valle", "cumbre", "hondo", "barca", "taberna", "bodega"))}
FIELD_NAMES = ("might", "cost", "reward", "speed", "kind", "tags", "effect", "note", "swift", "heavy", "glow2",
               "range")
COLOURS = ("#c0602a", "#3a4f8c", "#3f7f5a", "#8a5a2a", "#6f3f84", "#b23a3a", "#2a6f97", "#7a4a2a", "#4a4a5a",
           "#d8a030")
PALE = ("#f4f1e8", "#fbf4e4", "#eee5d1", "#f6e7c8", "#e8eef0", "#f3d9a4")
CARD_SIZES = ("poker", "bridge", "mini", "mini-euro", "euro", "square", "tarot")
SHAPES = ("circle", "square", "rounded", "hexagon", "outline")
PATTERNS = ("none", "ring", "double_ring", "dashed_ring", "dotted_ring")
FONTS = ("serif", "serif-italic", "serif-semibold", "serif-bold", "sans", "sans-bold", "sans-black")
YAML_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null", "none", "~"}


# ----------------------------------------------------------------------------- files as data

class Block(dict):
    """A mapping written one key a line (anything else nested is written on one line)."""


@dataclass
class Csv:
    header: list
    rows: list          # mappings header -> value (None: an empty cell)


@dataclass
class Text:
    lines: list         # the file's lines, without their ends


def scalar(value) -> str:
    """``value`` as a YAML scalar: plain when it reads back as the same string, else JSON's double quotes."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    text = str(value)
    if (re.fullmatch(r"[A-Za-z][A-Za-z0-9 ._/-]*[A-Za-z0-9.]|[A-Za-z]", text) and text.lower() not in YAML_WORDS
            and "  " not in text):
        return text
    return json.dumps(text, ensure_ascii=False)


def flow(value) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{scalar(k)}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    return scalar(value)


def block_value(key: str, value, indent: str) -> list[str]:
    """``key: value`` in a block mapping: a Block below it, a list of Blocks as block items, a text with
    line breaks as a literal block, anything else on the key's line."""
    if isinstance(value, Block):
        return [f"{indent}{scalar(key)}:"] + block_lines(value, indent + "  ")
    if isinstance(value, list) and value and all(isinstance(v, Block) for v in value):
        lines = [f"{indent}{scalar(key)}:"]
        for item in value:
            inner = block_lines(item, indent + "    ")
            lines.append(indent + "  - " + inner[0].lstrip())
            lines.extend(inner[1:])
        return lines
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return [f"{indent}{scalar(key)}:"] + [f"{indent}  - {flow(v)}" for v in value]
    if isinstance(value, str) and "\n" in value and not value.endswith("\n") and value == value.strip() \
            and "\\" not in value and all(line.strip() for line in value.split("\n")):
        return [f"{indent}{scalar(key)}: |-"] + [f"{indent}  {line}" for line in value.split("\n")]
    return [f"{indent}{scalar(key)}: {flow(value)}"]


def block_lines(mapping: dict, indent: str = "") -> list[str]:
    lines = []
    for key, value in mapping.items():
        lines.extend(block_value(key, value, indent))
    return lines


def yaml_text(doc) -> str:
    if isinstance(doc, list):                      # a data file holding a list
        return "".join(f"- {flow(v)}\n" for v in doc) if doc else "[]\n"
    return "\n".join(block_lines(doc)) + "\n"


def csv_text(table: Csv) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(table.header)
    for row in table.rows:
        writer.writerow(["" if row.get(h) is None else csv_cell(row[h]) for h in table.header])
    return out.getvalue()


def csv_cell(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return str(value)


def render(content) -> bytes:
    if isinstance(content, bytes):
        return content
    if isinstance(content, Csv):
        return csv_text(content).encode()
    if isinstance(content, Text):
        return ("\n".join(content.lines) + "\n").encode()
    return yaml_text(content).encode()


# ----------------------------------------------------------------------------- the game and its sites

@dataclass(frozen=True)
class Site:
    """A place of a file where something is written that a mistake can break: the value at ``path`` in the
    file's data (keys and indexes; a Text's line index; ``()`` for the file itself), and the part of it
    (``old``; None: all of it) that is a ``kind`` of thing (an icon's name, a field's name, a path...).
    ``names``: the other valid names of that kind (a typo must not hit one)."""

    file: str
    path: tuple
    kind: str
    old: str | None = None
    names: tuple = ()
    note: str = ""


@dataclass
class Game:
    files: dict
    sites: list = field(default_factory=list)
    edits: list = field(default_factory=list)       # Sites of values an edit may change: (site, alternatives)
    info: dict = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"Game({len(self.files)} files, {self.info})"

    def _repr_pretty_(self, printer, cycle):      # how hypothesis shows a draw
        printer.text(repr(self))

    def rendered(self) -> dict:
        return {name: render(content) for name, content in self.files.items()}

    def write(self, folder: Path) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in self.rendered().items():
            path = folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        return folder

    def copy(self) -> "Game":
        return Game(copy.deepcopy(self.files), list(self.sites), list(self.edits), dict(self.info))

    def get(self, site: Site):
        node = self.files[site.file]
        for key in site.path:
            node = node.lines[key] if isinstance(node, Text) else node.rows[key] if isinstance(node, Csv) else node[key]
        return node

    def set(self, site: Site, value) -> None:
        node = self.files[site.file]
        *parents, last = site.path
        for key in parents:
            node = node.rows[key] if isinstance(node, Csv) else node[key]
        if isinstance(node, Text):
            node.lines[last] = value
        elif isinstance(node, Csv):
            node.rows[last] = value
        else:
            node[last] = value

    def replace(self, site: Site, new) -> None:
        """The value at the site with its ``old`` part (or all of it) replaced by ``new``."""
        if site.old is None:
            self.set(site, new)
            return
        value = self.get(site)
        assert isinstance(value, str) and site.old in value, (site, value)
        self.set(site, value.replace(site.old, str(new), 1))

    def rename_key(self, site: Site, new: str) -> None:
        """The key at the site's path renamed to ``new`` (keeping its place)."""
        node = self.files[site.file]
        *parents, last = site.path
        for key in parents:
            node = node.rows[key] if isinstance(node, Csv) else node[key]
        if isinstance(node, Csv):                   # a CSV header
            node.header = [new if h == last else h for h in node.header]
            for row in node.rows:
                if last in row:
                    row[new] = row.pop(last)
            return
        items = [(new if k == last else k, v) for k, v in node.items()]
        node.clear()
        node.update(items)

    def changed_lines(self, other: "Game") -> dict:
        """{file: the line numbers (from 1) of ``other``'s version that differ from this game's} of every file
        the two write differently; a file ``other`` lacks maps to an empty set."""
        mine, theirs = self.rendered(), other.rendered()
        out = {}
        for name in sorted(set(mine) | set(theirs)):
            if mine.get(name) == theirs.get(name):
                continue
            if name not in theirs or name not in mine or not name.endswith((".yaml", ".csv", ".j2", ".svg")):
                out[name] = set()
                continue
            a = mine[name].decode().splitlines()
            b = theirs[name].decode().splitlines()
            lines = set()
            for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
                if tag != "equal":
                    lines.update(range(j1 + 1, max(j2, j1 + 1) + 1))
            out[name] = lines
        return out


# ----------------------------------------------------------------------------- pictures and icons

def icon_svg(seed: int, colour: str) -> bytes:
    shapes = [f'<circle cx="12" cy="12" r="9" fill="{colour}"/>',
              f'<rect x="4" y="4" width="16" height="16" rx="3" fill="{colour}"/>',
              f'<path d="M12 2 L22 21 L2 21 Z" fill="{colour}"/>',
              f'<path d="M12 2 C18 8 18 16 12 22 C6 16 6 8 12 2 Z" fill="{colour}" stroke="#1f1a17" stroke-width="1"/>']
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24">'
            f'{shapes[seed % len(shapes)]}</svg>\n').encode()


def picture(kind: str, width: int, height: int, colour: str) -> bytes:
    if kind == "svg":
        return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
                f'height="{height}"><rect width="{width}" height="{height}" fill="{colour}"/>'
                f'<circle cx="{width / 2}" cy="{height / 2}" r="{min(width, height) / 3}" fill="#f4f1e8"/></svg>\n'
                ).encode()
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (width, height), colour)
    ImageDraw.Draw(image).ellipse((width // 4, height // 4, 3 * width // 4, 3 * height // 4), fill="#f4f1e8")
    out = io.BytesIO()
    image.save(out, "JPEG" if kind == "jpg" else "PNG", **({"quality": 80} if kind == "jpg" else {}))
    return out.getvalue()


# ----------------------------------------------------------------------------- the strategy

def typo(name: str, draw, avoid=()) -> str:
    """A misspelling of ``name`` (a letter dropped, doubled, swapped or changed) that is none of ``avoid``."""
    for attempt in range(20):
        i = draw(st.integers(0, max(0, len(name) - 1)), label="typo at")
        how = draw(st.sampled_from(["drop", "double", "swap", "change"]), label="typo")
        if how == "drop" and len(name) > 2:
            new = name[:i] + name[i + 1:]
        elif how == "swap" and i + 1 < len(name) and name[i] != name[i + 1]:
            new = name[:i] + name[i + 1] + name[i] + name[i + 2:]
        elif how == "change":
            new = name[:i] + ("x" if name[i] != "x" else "z") + name[i + 1:]
        else:
            new = name[:i] + name[i] + name[i:]
        if new != name and new not in avoid and new.lower() not in YAML_WORDS:
            return new
    return name + "x"


class Composer:
    """Draws one game, file by file, recording its sites and edits."""

    def __init__(self, draw, large: bool):
        self.draw = draw
        self.large = large
        self.files: dict = {}
        self.sites: list[Site] = []
        self.edits: list = []
        self.words = list(WORDS)
        self.used_ids: set = set()
        self.strings: dict = {}              # the game's own printed words: key -> English
        self.es_strings: dict = {}
        self.translate = False
        self.complete = True                 # the translation gives every printed word
        self.windows = {}                    # layout file -> its art window region

    # -- drawing helpers
    def d(self, strategy, label=None):
        return self.draw(strategy, label=label)

    def chance(self, p: float, label=None) -> bool:
        return self.d(st.integers(0, 999), label) < p * 1000

    def pick(self, seq, label=None):
        return self.d(st.sampled_from(list(seq)), label)

    def word(self) -> str:
        return self.pick(WORDS, "word")

    def new_id(self, base=None) -> str:
        for _ in range(50):
            ident = base or "-".join(self.d(st.lists(st.sampled_from(WORDS), min_size=1, max_size=2), "id"))
            if ident.lower() not in self.used_ids:
                self.used_ids.add(ident.lower())
                return ident
            base = None
        ident = f"x{len(self.used_ids)}"
        self.used_ids.add(ident)
        return ident

    def name(self, words=2) -> str:
        n = self.d(st.integers(1, words), "name words")
        return " ".join(self.word().capitalize() for _ in range(n))

    def site(self, file, path, kind, old=None, names=(), note=""):
        self.sites.append(Site(file, tuple(path), kind, old, tuple(names), note))

    def edit(self, file, path, alternatives):
        alternatives = [a for a in alternatives]
        if alternatives:
            self.edits.append((Site(file, tuple(path), "edit"), tuple(alternatives)))

    def es(self, text: str) -> str:
        """``text`` in 'Spanish': each known word translated, markup kept."""
        def one(m):
            w = m.group(0)
            s = SPANISH.get(w.lower())
            return w if s is None else (s.capitalize() if w[0].isupper() else s)
        parts = re.split(r"({{.*?}}|{%.*?%})", text)      # Jinja stays as it is
        return "".join(p if p.startswith("{") else re.sub(r"(?<![\[:\\])\b[A-Za-z]+\b(?![\]:])", one, p)
                       for p in parts)

    # -- card text markup, with the sites of its icons
    def markup(self, file, path, words=6, icons=True, plain=False) -> tuple[str, list]:
        """Card text: words with bold, italics, icons, an icon with a label, pips, escapes and line breaks;
        and the icon names it writes (for their sites)."""
        parts, named = [], []
        n = self.d(st.integers(1, words), "markup words")
        for i in range(n):
            form = "plain" if plain else self.pick(
                ["plain", "plain", "plain", "bold", "italic", "icon", "icon-label", "pips", "escape", "break"]
                if icons else ["plain", "plain", "bold", "italic", "escape"], "inline form")
            w = self.word()
            if form == "bold":
                parts.append(f"**{w.capitalize()}:**")
            elif form == "italic":
                parts.append(f"*{w}*")
            elif form in ("icon", "icon-label"):
                icon = self.pick(self.icons, "icon")
                named.append(icon)
                parts.append(f"[{icon}]" if form == "icon" else f"[{icon}:{self.d(st.integers(1, 9))}]")
            elif form == "pips":
                parts.append(f"[pips:{self.d(st.integers(1, 3))}]")
            elif form == "escape":
                parts.append(self.pick(["\\[" + w + "]", "\\*" + w, w + "\\*"]))
            elif form == "break" and i not in (0, n - 1) and parts and not parts[-1].endswith("\n"):
                parts.append(w + "\n")
                continue
            else:
                parts.append(w)
        text = " ".join(parts).replace("\n ", "\n")
        return text.strip(), named

    def markup_sites(self, file, path, text, named):
        for icon in dict.fromkeys(named):
            self.site(file, path, "icon", f"[{icon}", self.icons, note="card text")
        if "**" in text:
            self.site(file, path, "markup", "**", note="unclosed bold")

    # ------------------------------------------------------------------------- the game
    def compose(self) -> Game:
        self.translate = self.chance(0.35, "translated")
        self.complete = self.translate and self.chance(0.6, "translation complete")
        self.game_icons()
        self.factions_and_ranks()
        self.data_files()
        self.pictures()
        self.decks()
        self.tokens()
        self.components()
        self.rulebook()
        self.box()
        self.game_yaml()
        self.languages()
        return Game(self.files, self.sites, self.edits,
                    {"translated": self.translate, "complete": self.complete, "language": "en", "decks": [d["id"] for d in self.deck_list],
                     "components": [c if isinstance(c, str) else c["id"] for c in self.component_list]})

    # -- icons
    def game_icons(self):
        own = self.d(st.lists(st.sampled_from(OWN_ICONS), unique=True, max_size=3), "own icons")
        self.own_icons = own
        for i, name in enumerate(own):
            self.files[f"icons/{name}.svg"] = icon_svg(i + self.d(st.integers(0, 3)), self.pick(COLOURS))
        self.aliases = {}
        for alias in self.d(st.lists(st.sampled_from(ALIASES), unique=True, max_size=2), "aliases"):
            target = self.pick(BUILTIN_ICONS + tuple(own), "alias target")
            self.aliases[alias] = {"icon": target, "colour": self.pick(COLOURS)} if self.chance(0.5) else target
        self.icons = tuple(BUILTIN_ICONS) + tuple(own) + tuple(self.aliases)

    # -- factions, ranks
    def factions_and_ranks(self):
        self.factions = []
        if self.chance(0.45, "factions"):
            n = self.d(st.integers(1, 3), "factions")
            for i in range(n):
                ident = self.new_id(self.pick(["dawn", "dusk", "tide", "ash", "frost", "bloom-side"]))
                self.factions.append({"id": ident, "name": ident.replace("-", " ").title(),
                                      "colour": COLOURS[(i * 3 + self.d(st.integers(0, 9))) % len(COLOURS)],
                                      "emblem": self.pick(self.icons, "emblem")})
                if self.chance(0.3):
                    self.factions[-1]["adjective"] = self.factions[-1]["name"] + "ish"
        self.ranks = []
        if self.chance(0.25, "ranks"):
            for i in range(self.d(st.integers(1, 2), "ranks")):
                ident = self.new_id(self.pick(["squire", "knight", "lord", "page"]))
                rank = {"id": ident, "name": ident.title(), "pips": self.d(st.integers(0, 4))}
                if self.chance(0.3):
                    rank["plural"] = ident.title() + "ren"
                self.ranks.append(rank)

    # -- data files
    def data_files(self):
        self.data = {}                       # name -> list of items (mappings)
        self.data_list = []
        if self.chance(0.5, "yaml data"):
            items = []
            for i in range(self.d(st.integers(1, 3), "data items")):
                ident = self.new_id()
                items.append({"id": ident, "name": ident.replace("-", " ").title(), "colour": self.pick(COLOURS),
                              "faces": self.d(st.lists(st.integers(0, 3), min_size=6, max_size=6))})
            self.files["crew.yaml"] = items
            self.data["crew"] = items
            self.data_list.append("crew.yaml")
            for i, item in enumerate(items):
                self.edit("crew.yaml", [i, "name"], [self.name(2)])
        if self.chance(0.4, "csv data"):
            rows = []
            for i in range(self.d(st.integers(1, 3), "data rows")):
                ident = self.new_id()
                rows.append({"id": ident, "name": ident.replace("-", " ").title(), "colour": self.pick(COLOURS),
                             "seats": self.d(st.integers(1, 5))})
            self.files["shelf.csv"] = Csv(["id", "name", "colour", "seats"], rows)
            self.data["shelf"] = rows
            self.data_list.append("shelf.csv")
        if self.data_list and self.chance(0.5):
            self.site("game.yaml", ["data", 0], "path", self.data_list[0], note="data file")
        for name in self.data_list:
            self.site(name, (), "missing-file", note="data file")

    # -- pictures
    def pictures(self):
        self.art = []
        for i in range(self.d(st.integers(0, 2), "pictures")):
            kind = self.pick(["png", "jpg", "svg"], "picture kind")
            name = f"art/{self.word()}-{i}.{kind}"
            w, h = self.pick([(60, 40), (120, 80), (40, 60), (300, 200)], "picture size")
            colour = self.pick(COLOURS)
            self.files[name] = picture(kind, w, h, colour)
            self.art.append(name)
            self.edit(name, (), [picture(kind, w, h, c) for c in COLOURS[:3] if c != colour][:1])

    # -- decks
    def decks(self):
        self.deck_list = []
        self.cards = []                      # (deck, card id)
        self.one_deck = self.chance(0.2, "one-deck form")
        n = 1 if self.one_deck else self.d(st.integers(1, 3 if self.large else 2), "decks")
        for i in range(n):
            self.deck(i)

    def field_specs(self, deck_id, small=False) -> dict:
        fields = {}
        labels = texts = badges = 0
        most_labels = 1 if small else 2
        for fname in self.d(st.lists(st.sampled_from(FIELD_NAMES), unique=True, max_size=4), "fields"):
            ftype = self.pick(["int", "int", "text", "choice", "list", "bool"], "field type")
            spec = {}
            if ftype == "int":
                spec["type"] = "int" if self.chance(0.5) else None
                lo = self.d(st.integers(0, 2))
                spec["min"], spec["max"] = lo, lo + self.d(st.integers(1, 9))
                if badges < 3 and self.chance(0.6, "badge"):
                    spec["icon"] = self.pick(self.icons, "field icon")
                    badges += 1
                    if self.chance(0.4):
                        spec["sign"] = self.pick(["minus", "plus"])
                elif labels < most_labels:
                    labels += 1
                    if self.chance(0.5):
                        spec["format"] = "{value} " + self.word()
                else:
                    continue
            elif ftype == "text":
                if texts >= 2:
                    continue
                texts += 1
                spec["type"] = "text"
            elif ftype in ("choice", "list"):
                if labels >= most_labels:
                    continue
                labels += 1
                spec["type"] = ftype
                if ftype == "choice" or self.chance(0.6):
                    spec["choices"] = self.d(st.lists(st.sampled_from(WORDS), unique=True, min_size=2, max_size=3))
            else:
                if labels >= most_labels:
                    continue
                labels += 1
                spec["type"] = "bool"
            if self.chance(0.4 if ftype != "choice" else 0.7, "required"):
                spec["required"] = True
            elif ftype == "int" and self.chance(0.3):
                spec["default"] = spec["min"]
            fields[fname] = {k: v for k, v in spec.items() if v is not None}
        return fields

    def value_for(self, fname, spec, card_id, file, path, required=False):
        """A card's value of a field (None: left out), with the sites of what it writes."""
        ftype = spec.get("type", "int")
        if not (spec.get("required") or required) and self.chance(0.3, "value left out"):
            return None
        if ftype == "int":
            value = self.d(st.integers(spec["min"], spec["max"]), "int value")
            return value
        if ftype == "text":
            text, named = self.markup(file, path, words=5)
            return text
        if ftype == "choice":
            return self.pick(spec["choices"], "choice")
        if ftype == "list":
            if "choices" in spec:
                return self.d(st.lists(st.sampled_from(spec["choices"]), unique=True, min_size=1,
                                       max_size=1 if self.small_cards else 2))
            return [self.word() for _ in range(self.d(st.integers(1, 1 if self.small_cards else 2)))]
        return self.d(st.booleans(), "bool value")

    def deck(self, index):
        fmt = "yaml" if self.one_deck else self.pick(["yaml", "csv"], "cards file")
        deck_id = "cards" if self.one_deck else self.new_id(self.pick(["lanterns", "omens", "tools", "quests", "stars"]))
        cards_file = "cards.yaml" if self.one_deck else f"{deck_id}.{fmt}"
        where = "game.yaml"
        deck = Block() if self.chance(0.5, "deck block style") else {}
        deck["id"] = deck_id
        if not self.one_deck and self.chance(0.6):
            deck["name"] = self.name()
        if not self.one_deck:
            deck["cards"] = cards_file
        size = self.pick(CARD_SIZES + ("custom",), "card size")
        if size == "custom" or self.one_deck:
            w = self.d(st.integers(50, 80), "width")        # (63 mm tall or more: the version stamp's room)
            size = {"width": w, "height": max(64, w + self.d(st.integers(10, 50), "height"))}
        self.small_cards = size in ("mini", "mini-euro") or isinstance(size, dict)
        fields = self.field_specs(deck_id, small=self.small_cards)
        self.deck_fields = fields
        with_factions = bool(self.factions) and (self.one_deck or self.chance(0.8, "deck with factions"))
        with_ranks = bool(self.ranks) and (self.one_deck or self.chance(0.8, "deck with ranks"))
        if not self.one_deck:
            deck["size"] = size
        if fields:
            deck["fields"] = Block({k: v for k, v in fields.items()}) if self.chance(0.5) else fields
        if not self.one_deck and self.factions and not with_factions:
            deck["factions"] = False
        if not self.one_deck and self.ranks and not with_ranks:
            deck["ranks"] = False
        # the cards
        cards = []
        n = self.d(st.integers(1, 4 if self.large else 3), "cards")
        block = fmt == "yaml" and self.chance(0.4, "cards block style")
        for i in range(n):
            card = Block() if block else {}
            cid = self.new_id()
            card["id"] = cid
            card["name"] = self.name()
            if with_factions:
                card["faction"] = self.pick([f["id"] for f in self.factions], "faction")
            if with_ranks:
                card["rank"] = self.pick([r["id"] for r in self.ranks], "rank")
            card["copies"] = self.d(st.integers(1, 3), "copies")
            for fname, spec in fields.items():
                value = self.value_for(fname, spec, cid, cards_file, [])
                if value is not None:
                    card[fname] = value
            if self.chance(0.4, "flavour"):
                card["flavour"] = self.markup(cards_file, [], words=5)[0]
            if self.art and self.chance(0.4, "art"):
                card["art"] = self.pick(self.art, "card art")
                if self.chance(0.3):
                    card["art_fit"] = self.pick(["cover", "contain", "fill"])
                if self.chance(0.2):
                    card["art_focus"] = [self.pick([0.2, 0.5, 0.8]), self.pick([0.3, 0.5])]
                if not card["art"].endswith(".svg") and card.get("art_fit") != "contain" and self.chance(0.2):
                    card["art_bleed"] = self.pick(["extend", "mirror"])
            cards.append(card)
            self.cards.append((deck_id, cid))
        # exactly one of: two optional badge fields, each card giving one
        ints = [f for f, s in fields.items() if s.get("type", "int") == "int" and "icon" in s
                and not s.get("required") and "default" not in s]
        if len(ints) >= 2 and self.chance(0.5, "exactly one of"):
            group = ints[:2]
            deck["exactly_one_of"] = [group]
            for card in cards:
                for f in group:
                    card.pop(f, None)
                f = self.pick(group)
                card[f] = self.d(st.integers(fields[f]["min"], fields[f]["max"]))
        # the deck's sites: card values, names
        self.card_sites(cards_file, fmt, cards, fields, deck_id)
        if fmt == "csv":
            header = ["id", "name"] + (["faction"] if with_factions else []) + (["rank"] if with_ranks else []) \
                + ["copies"] + list(fields) + ["flavour", "art", "art_fit", "art_focus", "art_bleed"]
            used = [h for h in header if any(h in c for c in cards)]
            self.files[cards_file] = Csv(used, [dict(c) for c in cards])
            for c in cards:
                if "art_focus" in c:                 # a CSV cell is a text: no focus
                    del c["art_focus"]
                    del self.files[cards_file].rows[cards.index(c)]["art_focus"]
            self.files[cards_file].header = [h for h in used if any(h in r for r in self.files[cards_file].rows)]
        else:
            self.files[cards_file] = Block({"cards": cards})
        # watermark
        if fields and self.chance(0.15, "watermark"):
            ints = [f for f, s in fields.items() if s.get("type", "int") == "int" and s.get("required")
                    and "format" not in s]
            if ints:
                deck["watermark"] = ints[0]
                self.site("game.yaml", ["decks", index, "watermark"] if not self.one_deck else ["card", "watermark"],
                          "field", ints[0], tuple(fields))
        # aids
        if self.chance(0.3, "aids"):
            template = self.pick(["quick_reference", "turn_aid"])
            deck["aids"] = {"copies": self.d(st.integers(1, 2))} if template == "quick_reference" else \
                {"copies": self.d(st.integers(1, 2)), "template": template}
            self.aid_template(template)
        deck["back"] = self.back(deck_id, cards, fields, with_factions, with_ranks)
        if deck["back"] is None:
            del deck["back"]
        layout = self.deck_layout(deck_id, fields, cards, with_factions, with_ranks)
        if layout is not None:
            deck["layout"] = layout
        if self.chance(0.1, "deck bleed"):
            deck["bleed"] = self.pick(["extend", "mirror"])
            for c in cards:                       # a deck's bleed leaves SVG and contained art as they are
                pass
        self.deck_list.append(deck)
        self.deck_meta = getattr(self, "deck_meta", {})
        self.deck_meta[deck_id] = {"fields": fields, "cards": cards, "file": cards_file, "fmt": fmt,
                                   "factions": with_factions, "ranks": with_ranks, "index": index}
        if self.one_deck:
            card_form = Block({"width": size["width"], "height": size["height"]})
            for key in ("fields", "exactly_one_of", "watermark", "layout", "back", "bleed"):
                if key in deck:
                    card_form[key] = deck[key]
            self.card_form = card_form
            self.player_aid = deck.get("aids")

    def card_sites(self, file, fmt, cards, fields, deck_id):
        for i, card in enumerate(cards):
            base = [i] if fmt == "csv" else ["cards", i]
            self.edit(file, base + ["name"], [self.name() for _ in range(2)])
            self.edit(file, base + ["copies"], [c for c in (1, 2, 3) if c != card["copies"]])
            self.site(file, base + ["copies"], "int", note="copies")
            for fname, spec in fields.items():
                if fname not in card:
                    continue
                value = card[fname]
                ftype = spec.get("type", "int")
                if ftype == "int":
                    self.site(file, base + [fname], "int", names=(spec["min"], spec["max"]))
                    self.edit(file, base + [fname], [v for v in range(spec["min"], spec["max"] + 1) if v != value][:3])
                elif ftype == "choice":
                    self.site(file, base + [fname], "choice", value, tuple(spec["choices"]))
                elif ftype == "text":
                    for icon in re.findall(r"(?<!\\)\[([a-z][a-z0-9_-]*)[\]:]", value):
                        if icon in self.icons:
                            self.site(file, base + [fname], "icon", f"[{icon}", self.icons, "card text")
                    if "**" in value and value.count("**") % 2 == 0:
                        self.site(file, base + [fname], "markup", "**", note="unclosed bold")
                elif ftype == "bool":
                    self.site(file, base + [fname], "bool")
            if "flavour" in card:
                for icon in re.findall(r"(?<!\\)\[([a-z][a-z0-9_-]*)[\]:]", card["flavour"]):
                    if icon in self.icons:
                        self.site(file, base + ["flavour"], "icon", f"[{icon}", self.icons, "flavour")
                self.edit(file, base + ["flavour"], [self.markup(file, [], words=4, icons=False)[0]])
            if "faction" in card:
                self.site(file, base + ["faction"], "ref", card["faction"], tuple(f["id"] for f in self.factions))
            if "rank" in card:
                self.site(file, base + ["rank"], "ref", card["rank"], tuple(r["id"] for r in self.ranks))
            if "art" in card:
                self.site(file, base + ["art"], "path", card["art"], tuple(self.art), note="card art")
                self.site(card["art"], (), "missing-file", note=f"{file}: art")
        if fmt == "yaml" and cards:
            key = self.pick([k for k in cards[0] if k != "id"])
            self.site(file, ["cards", 0, key], "key", key)
        elif cards:
            key = self.pick([k for k in self.files.get(file, Csv([], [])).header if k not in ("id",)] or ["name"])
            self.site(file, (key,), "csv-header", key)

    # -- backs
    def back(self, deck_id, cards, fields, with_factions, with_ranks):
        form = self.pick(["designed", "designed", "image", "by", "label"], "back")
        pngs = [a for a in self.art if not a.endswith(".svg")]
        if form == "image" and self.art:
            back = {"image": self.pick(self.art, "back image")}
            if self.chance(0.3):
                back["fit"] = self.pick(["cover", "contain", "fill"])
            if back["image"] in pngs and back.get("fit", "cover") != "contain" and self.chance(0.4):
                back["bleed"] = self.pick(["extend", "mirror"])
            return back
        if form == "label":
            back = {"label": self.name()}
            if self.chance(0.6):
                back["emblem"] = self.pick(self.icons, "back emblem")
            return back
        if form == "by":
            keys = ["id"] + [f for f, s in fields.items() if s.get("type") == "choice"]
            if with_factions:
                keys.append("faction")
            key = self.pick(keys, "back by")
            values = sorted({str(c[key]) for c in cards if key in c})
            if not values:
                return None
            back = {"by": key}
            what = self.pick(["labels", "emblems", "images"] if self.art else ["labels", "emblems"], "back varies")
            chosen = values[: self.d(st.integers(1, len(values)))]
            if what == "labels":
                back["labels"] = {v: self.name() for v in chosen}
            elif what == "emblems":
                back["emblems"] = {v: self.pick(self.icons) for v in chosen}
            else:
                back["images"] = {v: self.pick(self.art) for v in chosen}
            if self.chance(0.3):
                back["label"] = self.name()
            return back
        return None

    def aid_template(self, template):
        path = f"templates/aids/en/{template}.md.j2"
        if path in self.files:
            return
        lines = [f"# {self.name()}"]
        for _ in range(self.d(st.integers(1, 3), "aid lines")):
            text, named = self.markup(path, [], words=5)
            lines.append(text.replace("\n", " "))
        self.files[path] = Text(lines)
        self.site(path, (), "missing-file", note="aid template")
        if self.translate:
            self.files[f"templates/aids/es/{template}.md.j2"] = Text([self.es(line) for line in lines])

    # -- layouts
    def deck_layout(self, deck_id, fields, cards, with_factions, with_ranks):
        form = self.pick(["classic", "file", "file", "inline", "by"], "layout form")
        if form == "classic":
            return "classic" if self.chance(0.3) else None
        if form == "by":
            keys = [f for f, s in fields.items() if s.get("type") == "choice"] + (["faction"] if with_factions else [])
            if not keys:
                return None
            key = self.pick(keys, "layout by")
            values = sorted({str(c[key]) for c in cards if key in c})
            if not values:
                return None
            default = self.layout_file(fields) if self.chance(0.5) else "classic"
            value = self.pick(values)
            inner = {"extends": default, "regions": [{"name": "rank", "remove": True}]} if default == "classic" \
                else {"extends": default, "regions": self.card_regions(fields, count=1, extending=True, styles=True,
                                                                             changes=False,
                                                                             window=self.windows[default])}
            return {"by": key, "default": default, "layouts": {value: inner}}
        if form == "inline":
            return {"extends": "classic", "regions": self.card_regions(fields, count=2, extending=True)}
        return self.layout_file(fields)

    def layout_file(self, fields) -> str:
        name = self.new_id(self.pick(["look", "face", "plain", "night"]))
        path = f"templates/layouts/{name}.yaml"
        extending = self.chance(0.6, "extends classic")
        layout = Block()
        if extending:
            layout["extends"] = "classic"
        else:
            layout["size"] = [63, 88]
        if self.chance(0.6) or not extending:          # (a layout of its own names the colours it uses)
            layout["palette"] = {"paper": self.pick(PALE), "night": self.pick(COLOURS)}
        styles = {"small": {"font": self.pick(FONTS), "size": 7, "min_size": 6, "max_lines": 1},
                  "big": {"font": self.pick(FONTS), "size": 11, "min_size": 7, "max_lines": 2}}
        if self.chance(0.4):
            styles["small"]["upper"] = True
            styles["small"]["tracking"] = 0.5
        if self.chance(0.3):
            styles["big"]["align"] = self.pick(["left", "center", "right"])
            styles["big"]["valign"] = self.pick(["top", "middle", "bottom"])
        layout["styles"] = Block(styles)
        self.layout_styles = ("small", "big") + (("name", "rank", "ability", "flavour", "mark") if extending else ())
        regions = [] if extending else self.standalone_regions(fields)
        regions += self.card_regions(fields, count=self.d(st.integers(1, 3)), extending=extending, styles=True,
                                     prior=[r["name"] for r in regions])
        layout["regions"] = regions
        self.files[path] = layout
        self.expression_sites(path, regions, card=True)
        self.windows[name] = "art" if extending else "window"
        self.site(path, (), "missing-file", note="layout")
        for i, region in enumerate(regions):
            if isinstance(region.get("style"), str) and region["style"] in ("small", "big"):
                self.site(path, ["regions", i, "style"], "ref", region["style"], self.layout_styles, "style")
            if "in" in region:
                self.site(path, ["regions", i, "in"], "ref", region["in"], note="region in")
            for key in ("text", "when", "icon", "fill"):
                value = region.get(key)
                if isinstance(value, str):
                    for fname in re.findall(r"field\('([a-z0-9_]+)'\)", value):
                        self.site(path, ["regions", i, key], "field", f"'{fname}'", tuple(fields), "field()")
                    for icon in re.findall(r"(?<!\\)\[([a-z][a-z0-9_-]*)[\]:]", value):
                        if icon in self.icons:
                            self.site(path, ["regions", i, key], "icon", f"[{icon}", self.icons, "layout literal")
                    m = re.search(r"^'([a-z][a-z0-9_-]*)'$", value)
                    if key == "icon" and m:
                        self.site(path, ["regions", i, key], "icon", f"'{m.group(1)}'", self.icons, "icon region")
                    m = re.search(r"palette\.([a-z]+)", value)
                    if m:
                        self.site(path, ["regions", i, key], "name", f"palette.{m.group(1)}", note="palette")
            if "kind" not in region:
                continue
            self.site(path, ["regions", i, "kind"], "choice", region["kind"], ("box", "text", "line", "icon", "art",
                      "emblem", "pips", "badges", "circle", "track", "table"))
        if regions:
            self.site(path, ["regions", 0], "region-key", self.pick(list(regions[0])))
        self.edit(path, ["styles", "big", "size"], [10, 12])
        return name

    def standalone_regions(self, fields):
        """A whole card face (no classic underneath): frame, name, art, badges, text, emblem, pips."""
        regions = [
            {"name": "frame", "kind": "box", "rect": [0, 0, 63, 88], "bleed": True, "fill": "colour"},
            {"name": "panel", "kind": "box", "rect": [3, 3, 57, 82], "fill": "palette.paper", "radius": 2},
            {"name": "title", "kind": "text", "rect": [5, 72, 53, 12], "text": "name", "style": "big"},
            {"name": "window", "kind": "art", "rect": [5, 34, 53, 36]},
            {"name": "emblem", "kind": "emblem", "in": "window", "scale": 0.6, "colour": "tint(colour, 0.6)",
             "when": "emblem and not art"},
            {"name": "badges", "kind": "badges", "in": "window", "x": 10, "size": 7, "top": 4, "step": 8},
            {"name": "rules", "kind": "text", "rect": [6, 12, 51, 20], "text": "rules", "style": "small",
             "when": "rules"},
            {"name": "flavour", "kind": "text", "rect": [6, 4, 51, 7], "text": "flavour", "style": "small",
             "when": "flavour"},
            {"name": "pips", "kind": "pips", "at": [7, 80], "step": 2.6, "size": 2.8, "colour": "colour",
             "mirror": True},
            {"name": "labels", "kind": "text", "rect": [10, 31, 43, 3], "text": "type_line", "style": "small",
             "when": "labels"},
        ]
        self.layout_styles = ("small", "big")
        for r in regions:
            if r["style"] if "style" in r else False:
                pass
        # small style with max_lines 1 must hold the rules: give them their own style
        regions[6]["style"] = {"font": "serif", "size": 8, "min_size": 6}
        regions[7]["style"] = {"font": "serif-italic", "size": 7, "min_size": 6}
        regions[9]["style"] = {"font": "sans-bold", "size": 6, "min_size": 6, "max_lines": 2}
        return regions

    def card_regions(self, fields, count, extending, prior=(), styles=False, changes=True, window="art"):
        """New regions for a card layout, of every kind, with when:/in:/before: (``window``: the parent layout's
        art window, which badges and emblems go in; ``prior``: the names of the regions before these)."""
        window = window if extending else None
        regions = []
        names = set(prior)
        badge_or_text = [f for f, s in fields.items() if s.get("type", "int") in ("int", "text", "choice")]
        for i in range(count):
            kind = self.pick(["box", "text", "text", "line", "icon", "art", "emblem", "pips", "badges"], "region kind")
            name = f"{kind}-{i}-{self.d(st.integers(0, 99))}"
            if name in names:
                continue
            names.add(name)
            y = 4 + 6 * i
            r = {"name": name, "kind": kind}
            if kind == "box":
                r.update(rect=[40, y, 18, 5], fill=self.pick(["tint(colour, 0.8)", "palette.paper", "'#e0d8c0'",
                                                               "shade(colour, 0.2)"]))
                if self.chance(0.5):
                    r["stroke"] = "colour"
                    r["width"] = 0.3
                if self.chance(0.3):
                    r["radius"] = 1.5
            elif kind == "text":
                options = ["name", self.literal("**" + self.word().capitalize() + "**")]
                if fields:
                    f = self.pick(list(fields))
                    ftype = fields[f].get("type", "int")
                    if ftype in ("int", "choice", "text") and not fields[f].get("required"):
                        options.append(f"field('{f}')")
                    elif ftype in ("int", "choice"):
                        options.append(f"{self.literal(self.word() + ' ')} ~ field('{f}')")
                icon = self.pick(self.icons)
                options.append(self.literal(f"[{icon}] {self.word()}"))
                if self.strings_ok():
                    key = self.new_string()
                    options.append(f"t('{key}')")
                text = self.pick(options, "text region")
                r.update(rect=[6, y, 30, 5], text=text,
                         style=self.pick((["small"] if styles else []) +
                                         [{"font": "sans", "size": 6, "min_size": 6, "max_lines": 1}]))
                if self.chance(0.3):
                    r["colour"] = self.pick(["colour", "readable(colour, palette.paper)", "'#1f1a17'"])
                if "field(" in text and "~" not in text:
                    r["when"] = text
            elif kind == "line":
                r.update({"from": [6, y], "to": [57, y],
                          "colour": self.pick(["colour", "palette.ink" if extending else "palette.night", "'#999999'"]),
                          "width": 0.3})
            elif kind == "icon":
                r.update(at=[50, y + 2], icon=f"'{self.pick(self.icons)}'", size=4)
                if self.chance(0.4):
                    r["colour"] = "colour"
                if self.chance(0.3):
                    r["label"] = "card.copies"
                if self.chance(0.3):
                    r["icon"] = "emblem"
                    r["when"] = "emblem"
            elif kind == "art":
                r.update(rect=[40, y, 18, 10], when="art")
            elif kind == "emblem":
                host = self.pick([n for n in names if n.startswith(("box-", "art-"))] + ([window] if window else []),
                                 "emblem in") if any(n.startswith(("box-", "art-")) for n in names) or window \
                    else None
                if host is None or host == name:
                    r = {"name": name, "kind": "box", "rect": [40, y, 18, 5], "fill": "colour"}
                else:
                    r.update({"in": host, "scale": 0.5, "colour": "tint(colour, 0.5)", "when": "emblem"})
            elif kind == "pips":
                r.update(at=[7, 3 + y], step=2.2, size=2.2, colour="colour")
            elif kind == "badges":
                host = window
                if host is None:
                    r = {"name": name, "kind": "box", "rect": [40, y, 18, 5], "fill": "colour"}
                else:
                    r.update({"in": host, "x": 54, "size": 5, "top": 3, "step": 6})
            if self.chance(0.3) and "when" not in r:
                r["when"] = self.pick(["art", "not art", "flavour", "card.copies > 1", "rank_name", "labels"])
            if extending and self.chance(0.3) and r["kind"] not in ("emblem", "badges"):
                r["before"] = self.pick(["badges", "name", "flavour", "art"] if window == "art" else
                                        ["badges", "title", "flavour", "window"])
            regions.append(r)
        if extending and changes and self.chance(0.4, "change classic"):
            pick = self.pick(["rank", "pips", "version", "mark", "name"])
            if pick == "name":
                regions.append({"name": "name", "rect": [5.5, 69.5, 52, 9.4]})
            else:
                regions.append({"name": pick, "remove": True})
        return regions

    def expression_sites(self, path, regions, card=False):
        """The sites of a layout's expressions: the printed words they ask for (``t('key')``) and the keys of
        data items they read (``item.name``), each a name a typo breaks; a region's numbers (its rect)."""
        for i, region in enumerate(regions):
            for key in ("text", "rows", "fill", "when"):
                value = region.get(key)
                if not isinstance(value, str):
                    continue
                for word in re.findall(r"t\('([a-z0-9_]+)'\)", value):
                    self.site(path, ["regions", i, key], "name", f"'{word}'", tuple(self.strings), "printed word")
                for attr in re.findall(r"item\.([a-z]+)", value):
                    self.site(path, ["regions", i, key], "name", f".{attr}", note="data item key")
            if isinstance(region.get("rect"), list):
                self.site(path, ["regions", i, "rect"], "rect", note="region rect")
                if card and region.get("kind") in ("box", "art", "text"):     # moved half a millimetre
                    x, *rest = region["rect"]
                    self.edit(path, ["regions", i, "rect"], [[x + 0.5, *rest]])

    def strings_ok(self):
        return True

    def literal(self, text: str) -> str:
        """A printed word in an expression: quoted, or ``t('key')`` in a game that is translated (a quoted word
        cannot be)."""
        if self.translate:
            return f"t('{self.new_string(text)}')"
        return "'" + text + "'"

    def new_string(self, text=None) -> str:
        key = f"word_{len(self.strings)}"
        text = text or self.name()
        self.strings[key] = text
        self.es_strings[key] = self.es(text)
        return key

    # -- tokens
    def tokens(self):
        self.token_list = []
        if not self.chance(0.6, "tokens"):
            return
        kinds = self.d(st.lists(st.sampled_from(["score", "gold", "marker", "side"]), unique=True, min_size=1,
                                max_size=3), "token kinds")
        tokens = []
        for i in range(self.d(st.integers(1, 4 if self.large else 3), "tokens")):
            shape = self.pick(SHAPES, "shape")
            token = {"id": self.new_id(), "kind": self.pick(kinds), "count": self.d(st.integers(1, 6)),
                     "shape": shape}
            if shape == "outline":
                outline = self.outline_file()
                token["outline"] = outline
            token["size"] = self.token_size = self.d(st.integers(12, 26), "token size")
            faction = None
            if self.factions and self.chance(0.3):
                faction = self.pick([f["id"] for f in self.factions])
                token["faction"] = faction
            if self.chance(0.3):
                token["value"] = self.d(st.integers(1, 5))
            token["front"] = self.face(faction, shape)
            token["back"] = self.face(faction, shape)
            tokens.append(token)
        doc = Block()
        if self.chance(0.6):
            doc["kinds"] = sorted({t["kind"] for t in tokens}, key=kinds.index)
        if self.chance(0.2):
            doc["sheet"] = {"gap": 3, "fold_gutter": 5, "bleed": 1}
        doc["tokens"] = tokens
        self.files["tokens.yaml"] = doc
        self.token_list = tokens
        self.token_kinds = sorted({t["kind"] for t in tokens})
        for kind in self.token_kinds:
            self.strings_for_kind(kind)
        for i, t in enumerate(tokens):
            self.site("tokens.yaml", ["tokens", i, "shape"], "choice", t["shape"], SHAPES)
            self.site("tokens.yaml", ["tokens", i, "size"], "length")
            self.edit("tokens.yaml", ["tokens", i, "count"], [c for c in (1, 2, 5) if c != t["count"]])
            for side in ("front", "back"):
                if t[side].get("icon"):
                    self.site("tokens.yaml", ["tokens", i, side, "icon"], "icon", t[side]["icon"], self.icons, "token")
            if "faction" in t:
                self.site("tokens.yaml", ["tokens", i, "faction"], "ref", t["faction"],
                          tuple(f["id"] for f in self.factions))
            if "outline" in t:
                self.site("tokens.yaml", ["tokens", i, "outline"], "path", t["outline"], note="outline")
            self.site("tokens.yaml", ["tokens", i, "front"], "key-in", self.pick(list(t["front"])))

    def strings_for_kind(self, kind):
        if self.chance(0.5) or self.translate:
            self.strings[f"tokens_{kind}"] = kind.capitalize() + " tokens"
            self.es_strings[f"tokens_{kind}"] = "Fichas de " + self.es(kind)

    def outline_file(self) -> str:
        path = "art/outline.svg"
        if path not in self.files:
            self.files[path] = (b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 24" width="20" height="24">'
                                b'<path d="M10 0 L20 8 L16 24 L4 24 L0 8 Z" fill="#444444"/></svg>\n')
        return path

    def face(self, faction, shape):
        face = {"background": "faction" if faction and self.chance(0.5) else self.pick(PALE + COLOURS[:3])}
        if shape != "outline" and self.chance(0.8):
            face["icon"] = self.pick(self.icons, "token icon")
            if self.chance(0.3):
                face["icon_colour"] = self.pick(COLOURS)
            if self.chance(0.2):
                face["icon_size"] = self.pick([0.5, 0.8])
        if self.chance(0.3):
            face["label"] = str(self.d(st.integers(1, 9)))
        if self.token_size >= 22 and self.chance(0.3):
            short = faction and len(next(f["name"] for f in self.factions if f["id"] == faction)) <= 6
            face["caption"] = "faction" if short and self.chance(0.5) else \
                self.pick([w for w in WORDS if len(w) <= 5]).capitalize()
        if shape != "outline" and self.chance(0.3):
            face["pattern"] = self.pick(PATTERNS)
            if self.chance(0.4):
                face["pattern_colour"] = self.pick(COLOURS)
        return face

    # -- components
    def components(self):
        comps = []
        self.boards = []
        self.dice = []
        if self.chance(0.5, "instructions"):
            comps.append("instructions")
        for i in range(self.d(st.integers(0, 2), "tracks")):
            comps.append(self.track(i))
        comps.append("cards")
        if self.token_list:
            comps.append("tokens")
        for i in range(self.d(st.integers(0, 2 if self.large else 1), "boards")):
            comps.append(self.board(i))
        if self.chance(0.3, "dice"):
            comps.append(self.dice_component())
        if self.chance(0.3, "standees"):
            comps.append(self.standee())
        if self.chance(0.2, "sheet"):
            comps.append(self.sheet())
        comps.append("rulebook")
        self.has_box = self.chance(0.6, "box")
        if self.has_box:
            comps.append("box")
        self.component_list = comps

    def track(self, i):
        tid = self.new_id(self.pick(["score", "rounds", "edge", "fame"]))
        shape = self.pick(["grid", "strip", "around"], "track shape")
        t = {"kind": "track", "id": tid}
        start = self.d(st.integers(0, 1))
        if shape == "around":
            n = 2 * self.d(st.integers(2, 15))
            t.update({"from": start, "to": start + n - 1, "shape": "around", "token_diameter": 8})
        else:
            n = self.d(st.integers(4, 30))
            if self.chance(0.5):
                t.update({"from": start, "to": start + n - 1})
            else:
                t["spaces"] = n
            t["shape"] = shape
            t["columns"] = self.d(st.integers(3, 6)) if shape == "grid" else self.pick([0, 4, 6, 8])
            t["token_diameter"] = 10
        if self.chance(0.6):
            t["title"] = self.name()
        if self.chance(0.3):
            t["start_area"] = False
        elif self.chance(0.4):
            t["start_label"] = self.name(3)
        if self.chance(0.3):
            t["highlight_every"] = self.d(st.integers(0, 6))
        line = len(self.sites)
        self.site("game.yaml", ["components", None, "shape"], "choice", shape, ("grid", "strip", "around"))
        return t

    def board_layout(self, name, size, item, side=None):
        w, h = size
        regions = [{"name": "ground", "kind": "box", "rect": [0, 0, w, h],
                    "fill": "item.colour" if item == "crew" else f"'{self.pick(PALE)}'"}]
        if self.chance(0.5):
            regions.append({"name": "frame", "kind": "box", "rect": [4, 4, w - 8, h - 8], "fill": f"'{self.pick(PALE)}'",
                            "stroke": f"'{self.pick(COLOURS)}'", "width": 0.5, "radius": 3})
        title = {"crew": "item.name", "shelf": "item.name ~ ' ' ~ item.seats"}.get(item)
        if title is None:
            title = f"t('{self.new_string()}')" if self.chance(0.5) else "title"
        regions.append({"name": "title", "kind": "text", "rect": [10, h - 22, min(w - 20, 90), 14], "text": title,
                        "style": {"font": "serif-semibold", "size": 12, "min_size": 7, "max_lines": 1}})
        kinds = self.d(st.lists(st.sampled_from(["circle", "track", "table", "icon", "line", "for", "text"]),
                                unique=True, min_size=1, max_size=4), "board regions")
        y = h - 30
        for kind in kinds:
            y = max(8.0, y - 24)
            if kind == "circle":
                regions.append({"name": "spot", "kind": "circle", "at": [w - 30, y + 10], "r": 10, "fill": "'#ffffff'",
                                "stroke": "'#333333'", "width": 0.6, "text": self.literal(self.word().capitalize()),
                                "style": {"font": "sans-bold", "size": 7, "min_size": 6, "max_lines": 2},
                                "keep_whole": True})
            elif kind == "track":
                path = self.pick(["row", "column", "around"], "board track path")
                if path == "around":
                    n = 2 * self.d(st.integers(4, 8))
                    regions.append({"name": "ring", "kind": "track", "rect": [2, 2, w - 4, h - 4],
                                    "numbers": f"range(0, {n})", "path": "around",
                                    "style": {"font": "sans-bold", "size": 7, "min_size": 6, "max_lines": 1},
                                    "fill": "'#f4f1e8'", "stroke": "'#333333'", "highlight_every": 4,
                                    "highlight": "'#e2c46a'"})
                else:
                    n = self.d(st.integers(3, 6))
                    rect = [10, y, min(w - 20, 14 * n), 10] if path == "row" else [w - 22, 8, 10, min(h - 16, 12 * n)]
                    regions.append({"name": "steps", "kind": "track", "rect": rect, "numbers": f"range(1, {n + 1})",
                                    "path": path, "style": {"font": "sans-bold", "size": 7, "min_size": 6,
                                                            "max_lines": 1},
                                    "fill": "'#ffffff'", "stroke": "'#333333'"})
            elif kind == "table":
                icon = self.pick(self.icons)
                rows = (f"[[{self.literal(self.word().capitalize())}, {self.literal(f'[{icon}] 1')}], "
                        f"[{self.literal('**' + self.word() + '**')}, 2]]")
                if item == "crew" and self.chance(0.5):
                    rows = (f"[[{self.literal('Name')}, {self.literal('Seats')}]] + "
                            f"[[item.name, {self.literal(f'[{icon}] ')} ~ index]]")
                regions.append({"name": "table", "kind": "table", "rect": [10, y, min(w - 20, 60), 14],
                                "rows": rows, "header": self.d(st.booleans()),
                                "style": {"font": "sans", "size": 7, "min_size": 6, "max_lines": 1},
                                "fill": "'#ffffff'", "stroke": "'#333333'", "keep_whole": True})
                self.pending_board_sites.append(("table", len(regions) - 1, icon))
            elif kind == "icon":
                icon = self.pick(self.icons)
                regions.append({"name": "mark", "kind": "icon", "at": [w - 14, h - 14], "icon": f"'{icon}'", "size": 8,
                                "colour": f"'{self.pick(COLOURS)}'"})
                self.pending_board_sites.append(("icon", len(regions) - 1, icon))
            elif kind == "line":
                regions.append({"name": "rule", "kind": "line", "from": [10, y], "to": [w - 10, y],
                                "colour": "'#333333'", "width": 0.4})
            elif kind == "for":
                n = self.d(st.integers(2, 4))
                regions.append({"name": "dots", "kind": "circle", "for": f"range({n})", "at": [12, y + 4],
                                "offset": [12, 0], "r": 4, "fill": "'#e2c46a'", "stroke": "'#333333'"})
            elif kind == "text":
                text, named = self.markup("", [], words=4)
                literal = text.replace("\n", " ").replace("'", "")
                regions.append({"name": "note", "kind": "text", "rect": [10, y, min(w - 20, 80), 10],
                                "text": f"t('{self.new_string(literal)}')",
                                "style": {"font": "serif", "size": 8, "min_size": 6, "max_lines": 2}})
        if side:
            regions.append({"name": "side", "kind": "text", "rect": [10, 8, 40, 6], "text": "side",
                            "style": {"font": "sans", "size": 6, "min_size": 6, "max_lines": 1}})
        return {"size": [w, h], "regions": regions}

    def board(self, i):
        bid = self.new_id(self.pick(["board", "market", "harbour", "mat"]))
        item = None
        entry = {"kind": "board", "id": bid}
        if self.data and self.chance(0.5, "board each"):
            item = self.pick(sorted(self.data), "board data")
            entry["each"] = f"data.{item}"
            entry["name"] = "item.name"
        big = self.large and self.chance(0.3, "tiled board")
        size = (self.d(st.integers(300, 420)), self.d(st.integers(240, 300))) if big else \
            (self.d(st.integers(80, 180)), self.d(st.integers(60, 150)))
        name = self.new_id(f"{bid}_layout".replace("-", "_"))
        self.pending_board_sites = []
        layout = Block(self.board_layout(name, size, item))
        path = f"templates/layouts/{name}.yaml"
        self.files[path] = layout
        self.expression_sites(path, layout["regions"])
        for what, index, icon in self.pending_board_sites:
            key = "rows" if what == "table" else "icon"
            old = f"[{icon}" if what == "table" else f"'{icon}'"
            self.site(path, ["regions", index, key], "icon", old, self.icons, f"board {what}")
        entry["layout"] = name
        self.site("game.yaml", ["components", None, "layout"], "ref", name, note="board layout")
        if not big and self.chance(0.3, "double-sided"):
            back = self.new_id(f"{bid}_back".replace("-", "_"))
            self.files[f"templates/layouts/{back}.yaml"] = Block(self.board_layout(back, size, item, side=True))
            entry["back"] = back
            entry["print"] = self.pick(["auto", "duplex"] + (["fold"] if 2 * size[0] < 190 and size[1] < 250 else []))
            if self.chance(0.5):
                entry["turn"] = self.pick(["side", "top"])
        if self.chance(0.5):
            entry["title"] = self.name()
        if self.chance(0.3):
            entry["copies"] = self.d(st.integers(1, 2))
        if self.chance(0.2):
            entry["part"] = "player_board"
        self.boards.append((entry, layout))
        return entry

    def dice_component(self):
        did = self.new_id(self.pick(["dice", "die", "storm"]))
        face = self.new_id(f"{did}_face".replace("-", "_"))
        icon = self.pick(self.icons)
        self.files[f"templates/layouts/{face}.yaml"] = Block({
            "size": [16, 16],
            "styles": {"number": {"font": "sans-black", "size": 10, "min_size": 6, "max_lines": 1}},
            "regions": [{"name": "ground", "kind": "box", "rect": [0, 0, 16, 16], "fill": "'#f4f1e8'"},
                        {"name": "sign", "kind": "icon", "icon": f"'{icon}'", "at": [8, 10], "size": 5.5,
                         "when": "face > 0"},
                        {"name": "count", "kind": "text", "rect": [3, 1.5, 10, 5], "text": "face", "style": "number",
                         "when": "face > 0"},
                        {"name": "blank", "kind": "icon", "icon": "'circle'", "at": [8, 8], "size": 6,
                         "when": "face == 0"}]})
        self.site(f"templates/layouts/{face}.yaml", ["regions", 1, "icon"], "icon", f"'{icon}'", self.icons, "die")
        entry = {"kind": "dice", "id": did, "face": face}
        if "crew" in self.data and self.chance(0.6):
            entry["each"] = "data.crew"
            entry["faces"] = "item.faces"
            self.dice = [c["id"] for c in self.data["crew"]]
        else:
            entry["faces"] = "[0, 1, 1, 2, 2, 3]"
            self.dice = []
        if self.chance(0.4):
            entry["count"] = str(self.d(st.integers(1, 3)))
        if self.chance(0.4):
            entry["forms"] = self.pick([["stickers"], ["nets"], ["nets", "stickers"]])
        if self.chance(0.3):
            entry["die_size"] = self.d(st.integers(12, 20))
        if self.chance(0.3):
            entry["handed"] = "left"
        if self.chance(0.5):
            entry["title"] = self.name()
        self.dice_entry = entry
        return entry

    def standee(self):
        sid = self.new_id(self.pick(["heroes", "keepers", "figures"]))
        entry = {"kind": "standee", "id": sid, "width": self.d(st.integers(20, 30)),
                 "height": self.d(st.integers(30, 50))}
        if self.chance(0.3):
            entry["fold"] = "side"
        if self.chance(0.3):
            entry["base"] = "slot"
        if self.data and self.chance(0.5, "standees from data"):
            item = self.pick(sorted(self.data))
            entry["each"] = f"data.{item}"
            entry["piece"] = {"id": "item.id", "background": "item.colour", "icon": f"'{self.pick(self.icons)}'",
                              "label": "item.name"}
        else:
            pieces = []
            for i in range(self.d(st.integers(1, 2))):
                piece = {"id": self.new_id(), "count": self.d(st.integers(1, 2)), "label": self.name(1),
                         "background": self.pick(COLOURS)}
                if self.chance(0.6):
                    piece["icon"] = self.pick(self.icons)
                if self.art and self.chance(0.3):
                    piece["art"] = self.pick(self.art)
                if self.chance(0.5):
                    piece["back"] = {"label": self.name(1)}
                pieces.append(piece)
            entry["pieces"] = pieces
        if self.chance(0.5):
            entry["title"] = self.name()
        return entry

    def sheet(self):
        sid = self.new_id(self.pick(["reference", "summary"]))
        template = sid.replace("-", "_")
        lines = [f"# {self.name()}", ""] + self.chapter_blocks(f"templates/sheets/en/{template}.md.j2", blocks=3,
                                                                 allow=("para", "list", "table", "h2"))
        self.files[f"templates/sheets/en/{template}.md.j2"] = Text(lines)
        if self.translate:
            self.files[f"templates/sheets/es/{template}.md.j2"] = Text([self.es(x) for x in lines])
        entry = {"kind": "sheet", "id": sid, "template": template, "pages": 2}
        if self.factions and self.chance(0.4):
            entry["faction"] = self.pick([f["id"] for f in self.factions])
        if self.chance(0.5):
            entry["title"] = self.name()
        return entry

    # -- rulebook
    def chapter_blocks(self, path, blocks, allow=None, figures=False) -> list[str]:
        kinds = ["para", "para", "h2", "h3", "list", "numbered", "table", "box", "space", "pagebreak"]
        if figures:
            kinds += ["figure", "loop"]
        if allow:
            kinds = [k for k in kinds if k in allow]
        out = []
        for b in range(blocks):
            kind = self.pick(kinds, "block")
            if kind == "para":
                out.append(self.markup(path, [], words=10)[0].replace("\n", " "))
            elif kind in ("h2", "h3"):
                out.append(("## " if kind == "h2" else "### ") + self.name(3))
            elif kind == "list":
                out += [f"- {self.markup(path, [], words=5)[0].replace(chr(10), ' ')}" for _ in range(2)]
            elif kind == "numbered":
                out += [f"{k}. {self.markup(path, [], words=5)[0].replace(chr(10), ' ')}" for k in (1, 2)]
            elif kind == "table":
                icon = self.pick(self.icons)
                out += [f"| {self.word().capitalize()} | [{icon}] |", "|---|---|",
                        f"| **{self.word()}** | {self.d(st.integers(1, 9))} |"]
            elif kind == "box":
                out += [f"> {self.markup(path, [], words=6)[0].replace(chr(10), ' ')}" for _ in
                        range(self.d(st.integers(1, 3 if not self.large else 14), "box lines"))]
                if self.chance(0.3):
                    out.insert(len(out) - 1, ">")
            elif kind == "space":
                out.append(f"!space {self.d(st.integers(2, 20))}")
            elif kind == "pagebreak":
                out.append("!pagebreak")
            elif kind == "figure":
                out += self.figures()
            elif kind == "loop":
                out += ["| Card | Copies |", "|---|---|", "{% for card in game.cards %}",
                        "| {{ card|a|capfirst }} | {{ card.copies }} |", "{% endfor %}"]   # the article: pnp.text.grammar
            out.append("")
        return out

    def figures(self) -> list[str]:
        options = []
        if self.cards:
            options.append(f"{{{{ figure.card('{self.pick(self.cards)[1]}', scale=0.3, caption='{self.word()}') }}}}")
            if len(self.cards) >= 2:
                ids = [c for _, c in self.cards[:3]]
                options.append(f"{{{{ figure.hand({ids!r}, scale=0.25) }}}}")
        if self.token_list:
            options.append(f"{{{{ figure.token('{self.pick(self.token_list)['id']}') }}}}")
        if getattr(self, "dice_entry", None) and self.dice:
            options.append(f"{{{{ figure.die('{self.pick(self.dice)}', face=2) }}}}")
        tracks = [c for c in self.component_list if isinstance(c, dict) and c.get("kind") == "track"]
        if tracks:
            options.append(f"{{{{ figure.track(component='{tracks[0]['id']}', spaces=[1, 4]) }}}}")
        options.append(f"{{{{ figure.grid([0, 4, 8], columns=3, rows=3, caption='{self.word()}') }}}}")
        chosen = self.d(st.lists(st.sampled_from(options), min_size=1, max_size=2, unique=True), "figures")
        return chosen

    def rulebook(self):
        self.toc = False
        chapters = []
        if self.chance(0.7, "cover"):
            chapters.append("cover")
        if self.chance(0.4, "contents"):
            chapters.append("contents")
        own = []
        for i in range(self.d(st.integers(1, 2), "chapters")):
            name = self.pick(["rules", "setup", "turn", "scoring"])
            if name in own:
                continue
            own.append(name)
            chapters.append(name)
            path = f"templates/rulebook/en/{name}.md.j2"
            lines = [f"# {self.name(3)}", ""]
            if i == 0:
                lines += [f"{{{{ game.title }}}} is for {{{{ game.players.min }}}} to {{{{ game.players.max }}}} players.",
                          ""]
            lines += self.chapter_blocks(path, blocks=self.d(st.integers(2, 6 if self.large else 4)), figures=True)
            if "contents" not in chapters and not self.toc and self.chance(0.15, "toc"):
                self.toc = True
                lines += ["!toc", ""]
            if i == 0 and self.chance(0.2, "notes"):
                lines += ["!notes", ""]
            if self.chance(0.2, "spare"):
                lines += ["!spare", "", self.markup(path, [], words=8)[0].replace("\n", " ")]
            self.files[path] = Text(lines)
            self.site(path, (), "missing-file", note="chapter")
            for k, line in enumerate(lines):
                for icon in re.findall(r"(?<!\\)\[([a-z][a-z0-9_-]*)[\]:]", line):
                    if icon in self.icons:
                        self.site(path, (k,), "icon", f"[{icon}", self.icons, "chapter")
                        break
                if line.count("**") == 2 and not line.startswith(("#", "|", "{", "!")):
                    self.site(path, (k,), "markup", "**", note="chapter")
                if "game.title" in line:
                    self.site(path, (k,), "name", "game.title", note="template variable")
                m = re.search(r"figure\.(card|token|die)\('([a-z0-9-]+)'", line)
                if m:
                    self.site(path, (k,), "name", f"'{m.group(2)}'", note="figure")
            self.edit(path, (0,), [f"# {self.name(3)}"])
            if self.translate:
                self.files[f"templates/rulebook/es/{name}.md.j2"] = Text([self.es(x) for x in lines])
        if self.chance(0.2, "card index"):
            chapters.append("card_index")
        doc = Block({"chapters": chapters})
        if self.chance(0.3):
            doc["notes"] = True
        self.files["rulebook.yaml"] = doc
        self.site("rulebook.yaml", ["chapters", chapters.index(own[0])], "ref", own[0], note="chapter")

    # -- box
    def box(self):
        if not self.has_box:
            return
        kind = self.pick(["tuck", "telescoping"], "box kind")
        style = {"kind": kind}
        if kind == "telescoping" and self.chance(0.5):
            style.update(lid_clearance=1.0, lid_depth=self.pick(["full", 20]))
        if kind == "tuck" and self.chance(0.4):
            style.update(flap=0.6, notch=12)
        doc = Block({"style": style, "card_thickness": 0.3})
        if self.chance(0.4):
            doc["sleeves"] = {"thin": {"thickness": 0.08, "oversize": 3}}
        if self.chance(0.3):
            doc["token_bags"] = 5
        if self.chance(0.3):
            doc["clearance"] = 2
        if self.chance(0.2):
            doc["bleed"] = 0
        small = all(d.get("size") in ("mini", "mini-euro") or isinstance(d.get("size"), dict)
                    for d in self.deck_list)
        if not small and self.chance(0.6):          # (a small box's bottom has its contents to list)
            doc["pitch"] = self.markup("box.yaml", [], words=8, icons=False)[0].replace("\n", " ")
            self.edit("box.yaml", ["pitch"], [self.name(3)])
        contents = []
        options = ["cards", "number"] + [f"deck:{d['id']}" for d in self.deck_list if not self.one_deck]
        if self.token_list:
            options.append("tokens")
        if any("aids" in d for d in self.deck_list):
            options.append("aids")
        for count in self.d(st.lists(st.sampled_from(options), unique=True, max_size=3), "contents"):
            line = {"count": self.d(st.integers(1, 3)) if count == "number" else count, "item": self.name(2).lower()}
            if count == "number" and self.chance(0.3):
                line["in_box"] = True
            if count.startswith("deck:") and len(self.deck_list) > 1 and not any(
                    line.get("in_box") is False for line in contents) and self.chance(0.3):
                line["in_box"] = False
            contents.append(line)
        if contents:
            doc["contents"] = contents
            for i, line in enumerate(contents):
                if str(line["count"]).startswith("deck:"):
                    self.site("box.yaml", ["contents", i, "count"], "ref", line["count"][5:],
                              tuple(d["id"] for d in self.deck_list), "box deck")
        self.files["box.yaml"] = doc
        self.site("box.yaml", ["style", "kind"], "choice", kind, ("tuck", "telescoping"))
        self.site("box.yaml", ["card_thickness"], "length")

    # -- game.yaml
    def game_yaml(self):
        doc = Block()
        doc["title"] = self.name(2)
        for key in ("author", "publisher", "artist"):
            if self.chance(0.3):
                doc[key] = self.name(2)
        if self.chance(0.2):
            doc["credits"] = [{"role": "Story", "name": self.name(2)}]
        if self.chance(0.3):
            doc["version"] = f"0.{self.d(st.integers(1, 9))}"
        lo = self.d(st.integers(1, 4))
        doc["players"] = {"min": lo, "max": lo + self.d(st.integers(0, 3))}
        if self.chance(0.6):
            doc["minutes"] = {"min": 15, "max": 15 + 5 * self.d(st.integers(0, 6))}
        if self.chance(0.4):
            doc["ages"] = self.d(st.integers(6, 14))
        if self.aliases:
            doc["icons"] = Block(self.aliases) if self.chance(0.5) else dict(self.aliases)
        if self.chance(0.5):
            doc["palette"] = {"back": self.pick(COLOURS), "accent": "#e2c46a"}
        if self.chance(0.3):
            look = {}
            if self.chance(0.7):
                look["emblem"] = self.pick(self.icons)
            if self.art and self.chance(0.5):
                look["art"] = self.pick(self.art)
            if self.chance(0.5) or not look:
                look["palette"] = {"back": self.pick(COLOURS), "accent": "#e9c46a", "paper": "#f1faee",
                                   "ink": "#1d1d1b"}
            doc["look"] = look
        if self.data_list:
            doc["data"] = list(self.data_list)
        if self.factions:
            doc["factions"] = self.factions
        if self.ranks:
            doc["ranks"] = self.ranks
        if self.one_deck:
            doc["card"] = self.card_form
            if self.player_aid:
                doc["player_aid"] = self.player_aid
        else:
            doc["decks"] = self.deck_list
        doc["components"] = self.component_list
        self.files["game.yaml"] = doc
        self.edit("game.yaml", ["title"], [self.name(2)])
        self.edit("game.yaml", ["players"], [{"min": 2, "max": 5}])
        # sites with a component's index, now that the list is known
        fixed = []
        for s in self.sites:
            if s.file == "game.yaml" and s.path[:2] == ("components", None):
                kind_of = {"shape": "track", "layout": "board"}[s.path[2]]
                for i, c in enumerate(self.component_list):
                    if isinstance(c, dict) and c.get("kind") == kind_of and c.get(s.path[2]) == s.old:
                        fixed.append(Site(s.file, ("components", i, s.path[2]), s.kind, s.old, s.names, s.note))
                        break
            else:
                fixed.append(s)
        self.sites[:] = fixed
        for i, f in enumerate(self.factions):
            self.site("game.yaml", ["factions", i, "emblem"], "icon", f["emblem"], self.icons, "emblem")
            self.edit("game.yaml", ["factions", i, "colour"], [c for c in COLOURS[:4] if c != f["colour"]])
        decks_key = ["card"] if self.one_deck else ["decks"]
        for deck_id, meta in self.deck_meta.items():
            base = ["card"] if self.one_deck else ["decks", meta["index"]]
            if not self.one_deck:
                self.site("game.yaml", base + ["cards"], "path", meta["file"], note="cards file")
                self.site(meta["file"], (), "missing-file", note="cards file")
            for fname, spec in meta["fields"].items():
                if spec.get("icon"):
                    self.site("game.yaml", base + ["fields", fname, "icon"], "icon", spec["icon"], self.icons, "field")
                self.site("game.yaml", base + ["fields", fname], "key-in", self.pick(list(spec) or ["type"]))
                if spec.get("type"):
                    self.site("game.yaml", base + ["fields", fname, "type"], "choice", spec["type"],
                              ("int", "text", "choice", "list", "bool"))
            deck = doc["card"] if self.one_deck else doc["decks"][meta["index"]]
            back = deck.get("back") or {}
            for key in ("image",):
                if key in back:
                    self.site("game.yaml", base + ["back", key], "path", back[key], note="back image")
            for value in back.get("images", {}):
                self.site("game.yaml", base + ["back", "images", value], "path", back["images"][value])
            if "emblem" in back:
                self.site("game.yaml", base + ["back", "emblem"], "icon", back["emblem"], self.icons, "back")
            if "by" in back:
                self.site("game.yaml", base + ["back", "by"], "field", back["by"],
                          tuple(meta["fields"]) + ("id", "faction", "rank"))
            layout = deck.get("layout")
            if isinstance(layout, str) and layout != "classic":
                self.site("game.yaml", base + ["layout"], "ref", layout, note="layout name")
            if isinstance(layout, dict) and "by" in layout:
                self.site("game.yaml", base + ["layout", "by"], "field", layout["by"],
                          tuple(meta["fields"]) + ("faction", "rank", "id"))
            if not self.one_deck:
                self.site("game.yaml", base, "key-in", self.pick([k for k in deck if k != "id"] or ["id"]))
        self.site("game.yaml", [], "key-in", self.pick(["players", "title", "components"] +
                                                       (["minutes"] if "minutes" in doc else [])))
        if "look" in doc and "emblem" in doc["look"]:
            self.site("game.yaml", ["look", "emblem"], "icon", doc["look"]["emblem"], self.icons, "look")
        if "look" in doc and "art" in doc["look"]:
            self.site("game.yaml", ["look", "art"], "path", doc["look"]["art"], note="look art")
        for alias, target in self.aliases.items():
            self.site("game.yaml", ["icons", alias] + (["icon"] if isinstance(target, dict) else []), "icon",
                      target["icon"] if isinstance(target, dict) else target, self.icons, "alias")
        for name in self.own_icons:
            self.site(f"icons/{name}.svg", (), "missing-file", note="icon")
        for i, c in enumerate(self.component_list):
            if isinstance(c, dict):
                self.site("game.yaml", ["components", i], "key-in", self.pick([k for k in c if k not in ("kind", "id")]
                                                                            or ["kind"]))
                if c["kind"] == "track":
                    self.edit("game.yaml", ["components", i, "title"], [self.name(2)])
                    for key in ("to", "spaces", "columns"):
                        if key in c:
                            self.site("game.yaml", ["components", i, key], "int", note=f"track {key}")
                if c["kind"] == "standee":
                    self.site("game.yaml", ["components", i, "width"], "length", note="standee width")
                if c["kind"] == "board" and "copies" in c:
                    self.site("game.yaml", ["components", i, "copies"], "int", note="board copies")
                if "each" in c:
                    self.site("game.yaml", ["components", i, "each"], "name", c["each"].split(".")[1],
                              tuple(self.data), "data name")

    # -- words and languages
    def languages(self):
        if self.strings or self.chance(0.2):
            if not self.strings:                          # a word the game gives and prints nowhere
                self.strings["spare_word"] = "Spare"
                self.es_strings["spare_word"] = "Sobrante"
            self.files["i18n/en.yaml"] = Block({"strings": Block(self.strings)})
            for i, key in enumerate(self.strings):
                self.site("i18n/en.yaml", ["strings"], "key-in", key, note="string")
                break
            self.edit_string_uses()
        if not self.translate:
            return
        es = Block()
        game = self.files["game.yaml"]
        es["title"] = self.es(game["title"]) + " ES"
        if self.factions:
            es["factions"] = {f["id"]: {"name": self.es(f["name"]) + "o",
                                        "adjective": self.es(f.get("adjective", f["name"])) + "o"}
                              for f in self.factions}
        if self.ranks:
            es["ranks"] = {r["id"]: {"name": self.es(r["name"]) + "o",
                                     "plural": self.es(r.get("plural", r["name"])) + "os"}
                           for r in self.ranks}
        decks = {}
        for deck_id, meta in self.deck_meta.items():
            entry = {}
            deck = game["card"] if self.one_deck else game["decks"][meta["index"]]
            if len(self.deck_meta) > 1:      # printed only when the game has several
                entry["name"] = self.es(deck.get("name", deck_id.replace("-", " ")))
            choices = {f: {c: self.es(c) + "a" for c in s["choices"]} for f, s in meta["fields"].items()
                       if "choices" in s}
            if choices:
                entry["choices"] = choices
            formats = {f: s["format"].replace("{value} ", "{value} x") for f, s in meta["fields"].items() if "format" in s}
            if formats:
                entry["formats"] = formats
            bools = {f: self.es(f) + " sí" for f, s in meta["fields"].items() if s.get("type") == "bool"}
            if bools:
                entry["fields"] = bools
            back = deck.get("back") or {}
            if "label" in back or "labels" in back:
                entry["back"] = {}
                if "label" in back:
                    entry["back"]["label"] = self.es(back["label"])
                if "labels" in back:
                    entry["back"]["labels"] = {v: self.es(t) for v, t in back["labels"].items()}
            if entry:
                decks["cards" if self.one_deck else deck_id] = entry
        if decks:
            es["decks"] = decks
        cards = {}
        for deck_id, meta in self.deck_meta.items():
            for i, card in enumerate(meta["cards"]):
                # each translated name's gender, for the articles a chapter puts before it (no draw: the same
                # games as before)
                entry = {"name": self.es(card["name"]), "gender": ("masculine", "feminine", "masculine plural")[i % 3]}
                if "flavour" in card:
                    entry["flavour"] = self.es(card["flavour"])
                for f, s in meta["fields"].items():
                    if s.get("type") == "text" and f in card:
                        entry[f] = self.es(card[f])
                    if s.get("type") == "list" and "choices" not in s and f in card:
                        entry[f] = [self.es(v) for v in card[f]]
                cards[card["id"]] = entry
        es["cards"] = Block(cards) if self.chance(0.5) else cards
        tokens = {}
        for t in self.token_list:
            entry = {}
            for side in ("front", "back"):
                face = {k: t[side][k] for k in ("caption", "label") if k in t[side] and t[side][k] != "faction"}
                face = {k: (self.es(v) if k == "caption" else v) for k, v in face.items()}
                face = {k: v for k, v in face.items() if re.search("[A-Za-z]", str(v))}
                if face:
                    entry[side] = face
            if entry:
                tokens[t["id"]] = entry
        if tokens:
            es["tokens"] = tokens
        comps = {}
        for c in self.component_list:
            if not isinstance(c, dict):
                continue
            entry = {}
            if "title" in c:
                entry["title"] = self.es(c["title"])
            elif c["kind"] in ("track", "board", "standee", "dice", "sheet"):
                entry["title"] = self.es(c["id"].replace("-", " ").replace("_", " ").capitalize())
            if "start_label" in c:
                entry["start_label"] = self.es(c["start_label"])
            if c["kind"] == "standee" and "pieces" in c:
                pieces = {}
                for p in c["pieces"]:
                    pe = {"label": self.es(p["label"])}
                    if "back" in p:
                        pe["back"] = {"label": self.es(p["back"]["label"])}
                    pieces[p["id"]] = pe
                entry["pieces"] = pieces
            if entry:
                comps[c["id"]] = entry
        if comps:
            es["components"] = comps
        if "box.yaml" in self.files:
            box = self.files["box.yaml"]
            entry = {}
            if "pitch" in box:
                entry["pitch"] = self.es(box["pitch"])
            if "contents" in box:
                entry["items"] = {line["item"]: self.es(line["item"]) for line in box["contents"]}
            if entry:
                es["box"] = entry
        if "credits" in game:
            es["credits"] = {"Story": "Historia"}
        if self.es_strings:
            es["strings"] = Block(self.es_strings)
        if not self.complete:                 # half done: some of it left out (a warning, never an error)
            for key in list(es)[1:]:
                if self.chance(0.4):
                    del es[key]
        self.files["i18n/es.yaml"] = es
        if "cards" in es and es["cards"]:
            cid = next(iter(es["cards"]))
            self.site("i18n/es.yaml", ["cards"], "key-in", cid, tuple(c for _, c in self.cards), "translated card")

    def edit_string_uses(self):
        for key in list(self.strings)[:1]:
            self.edit("i18n/en.yaml", ["strings", key], [self.name(2)])


@st.composite
def games(draw, large: bool = False) -> Game:
    """A random valid game (see the module); ``large``: more decks, cards, boards and longer chapters."""
    return Composer(draw, large).compose()


# ----------------------------------------------------------------------------- edits and mistakes

@dataclass
class Change:
    """A change made to a game: what it is (for the report), the changed game, and where pnp must point:
    {file: lines} (an empty set: anywhere in that file, or the file itself)."""

    what: str
    game: Game
    where: dict
    token: str = ""


def apply_edit(game: Game, draw) -> Change:
    """A change a designer makes that keeps the game valid (a name, a count, a colour, a chapter's
    heading, a picture), drawn among the game's edits."""
    site, alternatives = draw(st.sampled_from(game.edits), label="edit")
    changed = game.copy()
    new = draw(st.sampled_from(list(alternatives)), label="new value")
    if site.path == ():                              # a file made anew (a picture redrawn)
        changed.files[site.file] = new
        return Change(f"{site.file} redrawn", changed, game.changed_lines(changed))
    try:
        changed.set(site, new)
    except (KeyError, IndexError, TypeError):
        return Change("no edit", game, {})
    return Change(f"{site.file} {'/'.join(map(str, site.path))} = {new!r}", changed, game.changed_lines(changed))


#: Mutation kinds by the sites they apply to.
def mutate(game: Game, draw) -> Change | None:
    """A mistake made at one of the game's sites; None when the drawn site offers none."""
    site = draw(st.sampled_from(game.sites), label="site")
    changed = game.copy()
    kind = site.kind
    if kind == "missing-file":
        if site.file not in changed.files:
            return None
        del changed.files[site.file]
        name = Path(site.file).stem if site.file.startswith(("icons/", "templates/")) else site.file
        where = {f: lines for f, lines in mentions(game, name).items()}
        return Change(f"{site.file} deleted ({site.note})", changed, where, name)
    try:
        value = game.get(site)
    except (KeyError, IndexError, TypeError):
        return None
    if kind in ("icon", "ref", "field", "name", "choice", "path"):
        old = site.old if site.old is not None else str(value)
        core = old.strip("[]'")
        if kind == "path" and draw(st.booleans(), label="path outside"):
            new_core = draw(st.sampled_from(["../" + core, "/etc/passwd", core + ".bak"]))
        else:
            new_core = typo(core, draw, avoid=tuple(map(str, site.names)))
        new = old.replace(core, new_core, 1)
        if site.old is None:
            changed.set(site, new)
        else:
            changed.replace(site, new)
        return Change(f"{kind} {old!r} -> {new!r} at {site.file} {'/'.join(map(str, site.path))} ({site.note})",
                      changed, game.changed_lines(changed), new_core)
    if kind == "markup":
        text = value
        i = text.index("**")
        new = text[:i] + text[i + 2:]
        changed.set(site, new)
        return Change(f"unclosed bold at {site.file} {'/'.join(map(str, site.path))}", changed,
                      game.changed_lines(changed), "**")
    if kind == "rect":
        rect = list(value)
        bad = draw(st.sampled_from([rect[:3], rect + [1], [rect[0], "wide", *rect[2:]]]), label="wrong rect")
        changed.set(site, bad)
        return Change(f"rect {rect} -> {bad} at {site.file} {'/'.join(map(str, site.path))}", changed,
                      game.changed_lines(changed), str(bad))
    if kind in ("int", "length", "bool"):
        # (not an empty value: in YAML that is null, which leaves an optional key at its default)
        bad = draw(st.sampled_from(["lots", "2.5.1", -5, 1000, [1], {"a": 1}] if kind != "bool" else
                                   ["maybe", 7]), label="wrong value")
        if kind == "int" and site.names:
            bad = draw(st.sampled_from([bad, site.names[1] + 1, site.names[0] - 1]), label="out of range")
        changed.set(site, bad)
        return Change(f"{kind} {value!r} -> {bad!r} at {site.file} {'/'.join(map(str, site.path))} ({site.note})",
                      changed, game.changed_lines(changed), str(bad))
    if kind in ("key", "key-in", "region-key", "csv-header"):
        key = site.old if kind in ("key-in", "region-key", "csv-header") else site.path[-1]
        target = site if kind != "key" else Site(site.file, site.path[:-1], kind, key)
        parent = changed.get(Site(site.file, target.path if kind != "key" else site.path[:-1], kind)) \
            if kind != "csv-header" else None
        if kind == "csv-header":
            new = typo(key, draw, avoid=tuple(changed.files[site.file].header))
            changed.rename_key(Site(site.file, (key,), kind), new)
        else:
            if not isinstance(parent, dict) or key not in parent:
                return None
            new = typo(str(key), draw, avoid=tuple(map(str, parent)))
            changed.rename_key(Site(site.file, tuple((target.path if kind != "key" else site.path[:-1])) + (key,),
                                    kind), new)
        where = game.changed_lines(changed)
        if site.note in ("string", "translated card"):      # a name other files use: pointing at a use is fine too
            for name, lines in mentions(game, str(key)).items():
                where.setdefault(name, set()).update(lines)
        return Change(f"key {key!r} -> {new!r} in {site.file} {'/'.join(map(str, site.path))}", changed, where, new)
    return None


def mentions(game: Game, name: str) -> dict:
    """{file: the lines (from 1) that write ``name``} over the game's text files."""
    out = {}
    for fname, data in game.rendered().items():
        if not fname.endswith((".yaml", ".csv", ".j2")):
            continue
        lines = {i for i, line in enumerate(data.decode().splitlines(), 1) if name in line}
        if lines:
            out[fname] = lines
    return out
