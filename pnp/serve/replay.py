"""Replays in the studio: the games a balance or lab report names, played again step by step with the
table after each step (scores, hands, the cards in play, the board's pieces).

A replay is the game ``pnp replay`` prints: the same seed, seats and variant play the same game move
for move (the core loop plays what an engine's fast loop plays). The games offered are those of the
report files given to ``pnp serve --report``, read and checked once when the studio starts (a file that
is not a report, or holds a value of the wrong kind, is refused then, naming the file and the value): a
lab report's typical and extreme games, a balance report's outliers' games, and any game its ``replay``
list names. Any other seed may be replayed with bots that do not search (a search bot's game can take
minutes: such games come from reports only).

A game is played in the studio's preview process (:func:`play_replay`, asked through
:class:`Replays`'s ``play``), as a piece of preview work under its limits: one that takes longer than
the preview limit (a report's search bots) is stopped there, the studio answers why and goes on, and
Ctrl-C stops the studio at once whatever is being replayed. The table after each step comes from the
engine's ``table_view(state)`` (:mod:`rules_engine.core.view`); the step's words from its transcript;
the pieces' pictures (each kind's standee front) are drawn there too. What the studio answers names
files by their names only, never by where they are on the machine.
"""

from __future__ import annotations

import base64
import json
import random
import threading
from collections import OrderedDict
from pathlib import Path

from pnp.errors import DataError, UserError

#: Replays kept in memory, and steps sent per request.
KEEP = 4
PAGE = 200
#: Games of a balance report's list offered (the report's outliers link the telling ones) ...
REPORT_GAMES = 200
#: ... and games offered by all the reports together.
MAX_GAMES = 5_000
#: A report file larger than this is refused (pnp's own are a few MB at most).
MAX_REPORT_BYTES = 64 * 2**20
#: A replay stops after this many steps (a game at a turn limit can be very long).
MAX_STEPS = 20_000
#: Bounds of a reported game's values: seats, bots' names, labels and file names.
MAX_SEATS = 16
MAX_TEXT = 200
MAX_SEED = 2**128


class _Bad(Exception):
    """A value of a report of the wrong kind: ``where`` (``replay.games[3].seed``) and what it should be."""

    def __init__(self, where: str, wanted: str):
        super().__init__(f"{where}: expected {wanted}")


def _get(mapping: dict, key: str, where: str, kind, wanted: str, default=None, required=False):
    value = mapping.get(key, default)
    if value is None and not required:
        return default
    ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
    if not ok:
        raise _Bad(f"{where}{key}" if where else key, wanted)
    return value


def _text(mapping, key, where, required=True) -> str | None:
    value = _get(mapping, key, where, str, f"a text of at most {MAX_TEXT} characters", required=required)
    if value is not None and len(value) > MAX_TEXT:
        raise _Bad(f"{where}{key}", f"a text of at most {MAX_TEXT} characters")
    return value


def _file(mapping, key, where) -> str | None:
    """A variant file a report names: a YAML file's name (a report cannot have the studio read any other
    file of the machine as a variant), or None."""
    value = _get(mapping, key, where, str, "a variant file's name (.yaml)")
    if value is None or value in ("base", "-"):
        return value
    if len(value) > 1024 or "\0" in value or Path(value).suffix.lower() not in (".yaml", ".yml"):
        raise _Bad(f"{where}{key}", "a variant file's name (.yaml), of at most 1,024 characters")
    return value


def _game(g, where: str) -> dict:
    """A reported game's seed and seats' bots, checked (``where``: its place in the report)."""
    if not isinstance(g, dict):
        raise _Bad(where.rstrip("."), "a game (a mapping with its game, seed and bots)")
    seed = _get(g, "seed", where, int, "a whole number", required=True)
    if abs(seed) >= MAX_SEED:
        raise _Bad(f"{where}seed", f"a whole number below 2^{MAX_SEED.bit_length() - 1}")
    number = _get(g, "game", where, int, "a whole number", required=True)
    bots = _get(g, "bots", where, list, f"a list of 1 to {MAX_SEATS} bots' names", required=True)
    if not 1 <= len(bots) <= MAX_SEATS or not all(isinstance(b, str) and 0 < len(b) <= 100 for b in bots):
        raise _Bad(f"{where}bots", f"a list of 1 to {MAX_SEATS} bots' names")
    return {"game": number, "seed": seed, "bots": list(bots)}


def _items(value, where: str, wanted: str) -> list:
    if value is None:
        return []
    if not isinstance(value, list):
        raise _Bad(where, wanted)
    return value


def _read_report(path: Path) -> dict:
    from pnp.loading.paths import NotRegularFile, open_regular

    try:
        with open_regular(path) as f:
            data = f.read(MAX_REPORT_BYTES + 1)
    except NotRegularFile as exc:
        raise UserError(f"--report {path}: {exc}") from None
    except OSError as exc:
        raise UserError(f"--report {path}: cannot read it: {exc.strerror or exc}") from None
    if len(data) > MAX_REPORT_BYTES:
        raise UserError(f"--report {path}: larger than {MAX_REPORT_BYTES // 2**20} MB; not a report of pnp balance or "
                        f"pnp lab")
    try:
        report = json.loads(data)
    except (ValueError, RecursionError) as exc:
        why = "nested too deep" if isinstance(exc, RecursionError) else str(exc)[:120]
        raise UserError(f"--report {path}: cannot read it: {why}") from None
    if not isinstance(report, dict) or "players" not in report:
        raise UserError(f"--report {path}: not a report of pnp balance or pnp lab")
    return report


def reported_games(paths) -> list[dict]:
    """The games the report files name: ``{label, seed, players, bots, variant, options, report}``, the
    variant as the path of its file (found as :func:`_variant_file` says). UserError naming the file, and
    the value of the wrong kind, for a file that is not such a report."""
    games = []
    for path in paths:
        path = Path(path)
        report = _read_report(path)
        try:
            games += _games_of(report, path)
        except _Bad as exc:
            raise UserError(f"--report {path}: {exc}") from None
        if len(games) > MAX_GAMES:
            raise UserError(f"--report {path}: the reports name more than {MAX_GAMES:,} games")
    return games


def _games_of(report: dict, path: Path) -> list[dict]:
    games = []
    players = _get(report, "players", "", int, f"a number of players, 1 to {MAX_SEATS}", required=True)
    if not 1 <= players <= MAX_SEATS:
        raise _Bad("players", f"a number of players, 1 to {MAX_SEATS}")
    options = _get(report, "options", "", dict, "a mapping of game options", default={})
    if not all(isinstance(k, str) and len(k) <= MAX_TEXT and (v is None or isinstance(v, (str, int, float, bool)))
               for k, v in options.items()):
        raise _Bad("options", "a mapping of game options' names to plain values")
    played_with = _file(_get(report, "variant", "", dict, "a mapping", default={}), "file", "variant.")

    def add(label, game, variant=played_with, extra=None):
        games.append({"label": label[:MAX_TEXT], "seed": game["seed"], "players": players, "bots": game["bots"],
                      "variant": _variant_file(variant, path), "options": dict(options if extra is None else extra),
                      "report": path.name})

    for i, o in enumerate(_items(report.get("outliers"), "outliers", "a list of outliers")):
        where = f"outliers[{i}]."
        if not isinstance(o, dict):
            raise _Bad(where.rstrip("."), "an outlier (a mapping)")
        kind, name = _text(o, "kind", where), _text(o, "name", where)
        links = _get(o, "links", where, dict, "a mapping of games", default={})
        for which, g in links.items():
            g = _game(g, f"{where}links.{str(which)[:40]}.")
            add(f"{kind} {name}: {str(which)[:40]} game {g['game']}", g)
    base = _get(report, "base", "", dict, "a mapping", default={})
    base_file = _file(base, "file", "base.")
    base_file = None if base_file in (None, "base", "-") else base_file
    rows_key = "variants" if report.get("variants") is not None else "rows"
    for i, row in enumerate(_items(report.get(rows_key), rows_key, "a list of variants")):
        where = f"{rows_key}[{i}]."
        if not isinstance(row, dict):
            raise _Bad(where.rstrip("."), "a variant (a mapping)")
        name, file = _text(row, "name", where), _file(row, "file", where)
        for which, g in _get(row, "games", where, dict, "a mapping of games", default={}).items():
            g = _game(g, f"{where}games.{str(which)[:40]}.")
            add(f"{name}: {str(which)[:40]} game {g['game']}", g, file, {})
            add(f"{name}: game {g['game']} in the base", g, base_file, {})
    replay = _get(report, "replay", "", dict, "a mapping", default={})
    for i, g in enumerate(_items(replay.get("games"), "replay.games", "a list of games")[:REPORT_GAMES]):
        game = _game(g, f"replay.games[{i}].")
        winners = _items(g.get("winners"), f"replay.games[{i}].winners", "a list of seats")
        if not all(isinstance(w, int) and not isinstance(w, bool) for w in winners):
            raise _Bad(f"replay.games[{i}].winners", "a list of seats")
        shown = ", ".join(f"seat {w}" for w in winners[:MAX_SEATS]) or "none"
        add(f"game {game['game']} (winner: {shown})", game)
    return games


def _variant_file(name, report_path):
    """A variant file a report names: as written (from where the lab ran), else beside the report or its
    folder's parent (the lab writes its variants to OUT/variants/)."""
    if not name:
        return None
    for candidate in (Path(name), report_path.parent / name, report_path.parent.parent / name,
                      report_path.parent / "variants" / Path(name).name):
        if candidate.is_file():
            return str(candidate)
    return str(name)


def public(game: dict) -> dict:
    """A reported game as the studio answers it: its variant file by name only (no machine's path), its
    seed as a string (a seed of 64 bits and more would lose its last digits in a browser's numbers)."""
    return {**game, "seed": str(game["seed"]), "variant": Path(game["variant"]).name if game["variant"] else None}


def replay_work(spec: dict) -> str:
    """How the preview work of a replay is named (in the message that says it was stopped)."""
    bots = ", ".join(spec.get("bots") or ()) or "the engine's bots"
    variant = f", variant {Path(spec['variant']).name}" if spec.get("variant") else ""
    return f"the replay of seed {spec['seed']} ({bots}{variant})"


class Replays:
    """Replays of one game folder, kept for a while (a page steps through them a window at a time).
    ``version()``: the files' version; ``play(spec)``: a future of the replay of ``spec`` (the studio's
    :meth:`~pnp.serve.studio.Studio.replay`, played in its preview process); ``pictures()``: a future of
    the pieces' pictures (:meth:`~pnp.serve.studio.Studio.piece_pictures`, a piece of preview work of its
    own: stopped, the replay comes without them). The reports are read once, here (UserError for one
    that is not a report)."""

    def __init__(self, root, reports, version, play, pictures):
        self.root = Path(root)
        self.games = reported_games(reports)
        self.version = version                    # the game files' version: a replay of older data is not kept
        self.play = play
        self.pictures = pictures
        self._kept: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def listed(self) -> list[dict]:
        return [public(g) for g in self.games]

    def spec(self, query) -> dict:
        """The game a request names: ``game=K`` (the K-th reported game) or ``seed``, ``players``, ``bots``."""
        if query.get("game") is not None:
            try:
                k = int(query["game"])
                if k < 0:
                    raise IndexError
                return self.games[k]
            except (ValueError, IndexError):
                raise UserError("game: no such reported game") from None
        try:
            seed = int(query.get("seed", ""))
            players = int(query["players"]) if query.get("players") else None
        except ValueError:
            raise UserError("seed and players: whole numbers") from None
        if abs(seed) >= MAX_SEED or (players is not None and not 1 <= players <= MAX_SEATS):
            raise UserError(f"seed and players: a seed below 2^{MAX_SEED.bit_length() - 1} and 1 to {MAX_SEATS} "
                            f"players")
        bots = [b for b in (query.get("bots") or "").split(",") if b.strip()]
        if len(bots) > MAX_SEATS or any(len(b) > 100 for b in bots):
            raise UserError(f"bots: 1 to {MAX_SEATS} bots' names")
        if any(b.split(":")[0].strip() == "search" for b in bots):
            raise UserError("bots: a game with a search bot is replayed from a report (pnp serve --report)")
        return {"seed": seed, "players": players, "bots": bots or None, "variant": None, "options": {}}

    def steps(self, spec: dict, start: int = 0, count: int = PAGE) -> dict:
        """Steps ``start`` to ``start + count`` of the replay of ``spec``, played in the preview process
        when it is not kept (UserError: :class:`~pnp.serve.worker.Stopped` past the preview limits,
        :class:`~pnp.serve.worker.Unplayable` for a game that cannot be played)."""
        key = json.dumps([spec, self.version()], sort_keys=True, default=str)
        with self._lock:
            replay = self._kept.get(key)
        if replay is None:
            replay = self.play(spec).result()     # (the studio's stop answers it at once)
            if replay["map"] is not None:
                replay["pieces"], replay["pieces_error"] = self._pieces()
            with self._lock:
                self._kept[key] = replay
                while len(self._kept) > KEEP:
                    self._kept.popitem(last=False)
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
        out = {k: v for k, v in replay.items() if k != "steps"}
        out["from"] = start
        out["steps"] = replay["steps"][start:start + count]
        if start:
            for key in ("map", "pieces", "cards"):
                out.pop(key, None)
        return out


    def _pieces(self) -> tuple[dict, str | None]:
        """(piece kind -> picture as a data: address, None), or ({}, why) when they could not be drawn:
        drawn in the studio's preview process, under its limits, never in the studio's own."""
        try:
            pictures = self.pictures().result()
        except UserError as exc:          # stopped past the preview limits, or the previews cannot start
            return {}, str(exc)
        return {k: "data:image/png;base64," + base64.b64encode(v).decode() for k, v in pictures.items()}, None


def play_replay(root, spec: dict) -> dict:
    """The replay of ``spec`` (in the preview process): the game played again, every step's transcript
    lines and table, the map and cards (the pieces' pictures are asked for apart: :class:`Replays`)."""
    from pnp.lab.table import SEAT_NAMES, table
    from rules_engine.core.play import SeatFault, chosen_action

    players = spec.get("players")
    bots = spec.get("bots")
    try:
        game, engine, seats, rules, options = table(
            Path(root), str(players) if players else None, ",".join(bots) if bots else None, spec.get("variant"),
            (), spec.get("options"))
    except DataError:
        raise UserError("The data has problems: fix them to replay a game.") from None
    view = getattr(engine, "table_view", None)
    if view is None:
        raise UserError(f"{game.title}'s engine shows no table (table_view)")
    players = len(seats)
    state = engine.ENGINE.new_state(rules, players, record=True, **options)
    bots = [engine.ENGINE.make_bot(b) for b in seats]
    seat_names = list(SEAT_NAMES[:players])
    words = _Words(engine, game, seat_names)
    rng = random.Random(spec["seed"])
    steps = [{"lines": words.new(state.events), "view": view(state)}]
    while not state.is_over and len(steps) < MAX_STEPS:
        movers = state.to_move()
        if movers:
            try:                       # each action checked as the play loop checks it
                if len(movers) == 1:
                    state.step_action(chosen_action(bots[movers[0]], state, movers[0], rng))
                else:
                    state.step_actions({p: chosen_action(bots[p], state, p, rng) for p in movers})
            except SeatFault as fault:
                raise UserError(f"{game.title}: seat {fault.seat + 1 if fault.seat is not None else '?'} "
                                f"({seats[fault.seat] if fault.seat is not None else 'the engine'}): {fault.detail}; "
                                f"pnp replay shows the same game") from None
        elif state.is_chance():
            state.sample_chance(rng)
        else:
            break
        lines = words.new(state.events)
        if lines:
            steps.append({"lines": lines, "view": view(state)})
    return {"title": game.title, "seed": str(spec["seed"]), "seats": [{"name": n, "bot": b} for n, b in
                                                                    zip(seat_names, seats)],
            "total": len(steps), "over": state.is_over, "map": map_json(game.map, game),
            "cards": {c.id: c.name for c in game.cards},
            "pieces": {}, "pieces_error": None, "steps": steps}


class _Words:
    """The transcript's sentences of the events added since the last call (the game's first event
    stays in front: an engine may name things from it)."""

    def __init__(self, engine, game, names):
        self.engine, self.game, self.names = engine, game, names
        self.seen = 0
        self.head = []

    def new(self, events) -> list[str]:
        fresh = events[self.seen:]
        self.seen = len(events)
        if not fresh:
            return []
        if not self.head:
            self.head = [events[0]]
            fresh = events[1:] if len(events) > 1 else []
            first = self._words(self.head)
            return first + (self._lines(fresh) if fresh else [])
        return self._lines(fresh)

    def _lines(self, events) -> list[str]:
        head = self._words(self.head)
        both = self._words(self.head + list(events))
        return both[len(head):]

    def _words(self, events) -> list[str]:
        from pnp.loading.events import transcript_lines

        return transcript_lines(self.game, self.engine, events, self.names)


def map_json(hexmap, game) -> dict | None:
    """The board for the page to draw: every hex's outline and centre in millimetres as the kit's map
    places them (:class:`pnp.layout.hexgrid.HexGrid`, y downwards for SVG), its terrain colour and printed
    id, the holdings, and the sides' colours and the piece kinds' names."""
    if hexmap is None:
        return None
    from pnp.layout.hexgrid import HexGrid

    grid = HexGrid(hexmap.orientation, hexmap.size)
    colours = {t.id: t.colour for t in hexmap.terrains}

    def point(x, y):
        return round(x, 2), round(-y, 2)

    hexes = []
    for h in hexmap.hexes:
        cx, cy = point(*grid.centre(h.at))
        corners = " ".join(f"{x},{y}" for x, y in (point(*c) for c in grid.corners(h.at)))
        hexes.append({"id": h.id, "x": cx, "y": cy, "points": corners, "colour": colours.get(h.terrain, "#dddddd"),
                      "terrain": h.terrain})
    xs = [c for h in hexmap.hexes for c, _ in (point(*p) for p in grid.corners(h.at))]
    ys = [c for h in hexmap.hexes for _, c in (point(*p) for p in grid.corners(h.at))]
    return {"size": hexmap.size, "box": [round(min(xs), 2), round(min(ys), 2), round(max(xs) - min(xs), 2),
                                         round(max(ys) - min(ys), 2)],
            "hexes": hexes,
            "holdings": [{"id": h.id, "name": h.name, "at": hexmap.hex(h.at).id} for h in hexmap.holdings],
            "sides": {f.id: {"name": f.name, "colour": f.colour} for f in game.factions},
            "kinds": {k.id: k.name for k in game.pieces}}


#: The size (mm) and resolution of a piece's picture on the replay's board.
PIECE_MM = (16.0, 16.0)
PIECE_DPI = 150


def piece_sides(game) -> dict:
    """Piece kind id -> the front of its figure as the kit prints it (the first standee or token entry
    of the game that lists a piece with that id: background, icon, colour, label)."""
    from pnp.components import standee

    kinds = {k.id for k in game.pieces}
    out = {}
    for spec in game.component_specs:
        if spec.kind != "standee":
            continue
        try:
            items = standee.piece_list(game, spec)
        except DataError:
            continue
        for item in items:
            if item["id"] in kinds and item["id"] not in out:
                out[item["id"]] = item["front"]
    return out


def piece_pictures(game) -> dict:
    """Piece kind id -> PNG bytes of its figure's front, drawn by the kit's own code (the standee's art
    frame, :func:`pnp.components.standee.side_elements`), without its label (the page names the piece)."""
    sides = piece_sides(game)
    if not sides:
        return {}
    from pnp.components.standee import side_elements
    from pnp.draw.icons import using
    from pnp.draw.pdf import render
    from pnp.draw.raster import Rasterizer, png_bytes, size_px
    from pnp.layout.geometry import Page

    w, h = PIECE_MM
    keys = sorted(sides)
    pages = [Page(w, h, side_elements(game, {**sides[k], "label": None}, w, h, bleed=0.0), label=k) for k in keys]
    with using(game.icons):
        pdf = render(pages, f"{game.title}: pieces", game.author)
    with Rasterizer(pdf) as doc:
        return {k: png_bytes(doc.render(i, size_px(w, h, PIECE_DPI))) for i, k in enumerate(keys)}
