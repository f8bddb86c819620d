"""Replays in the studio: the games a balance or lab report names, played again step by step with the
table after each step (scores, hands, the cards in play, the board's pieces).

A replay is the game ``pnp replay`` prints: the same seed, seats and variant play the same game move
for move (the core loop plays what an engine's fast loop plays). The games offered are those of the
report files given to ``pnp serve --report``: a lab report's typical and extreme games, a balance
report's outliers' games, and any game its ``replay`` list names. Any other seed may be replayed with
bots that do not search (a search bot's game can take minutes: such games come from reports only).

The table after each step comes from the engine's ``table_view(state)`` (:mod:`rules_engine.core.view`);
the step's words from its transcript. The pieces' pictures (each kind's standee front) are drawn in the
studio's preview process, under its time and memory limits; the game itself is played here, in the
studio's process, as ``pnp replay`` plays it.
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
#: Games of a balance report's list offered (the report's outliers link the telling ones).
REPORT_GAMES = 200
#: A replay stops after this many steps (a game at a turn limit can be very long).
MAX_STEPS = 20_000


def reported_games(paths) -> list[dict]:
    """The games the report files name: ``{label, seed, players, bots, variant, options, report}``."""
    games = []
    for path in paths:
        path = Path(path)
        try:
            report = json.loads(path.read_text())
        except (OSError, ValueError) as exc:
            raise UserError(f"--report {path}: cannot read it: {getattr(exc, 'strerror', None) or exc}") from None
        if not isinstance(report, dict) or "players" not in report:
            raise UserError(f"--report {path}: not a report of pnp balance or pnp lab")
        players = report["players"]
        options = dict(report.get("options") or {})
        played_with = (report.get("variant") or {}).get("file")    # pnp balance --variant FILE

        def add(label, game, variant=played_with, extra=None):
            games.append({"label": label, "seed": game["seed"], "players": players, "bots": list(game["bots"]),
                          "variant": _variant_file(variant, path), "options": dict(options if extra is None else extra),
                          "report": path.name})

        for o in report.get("outliers") or []:
            for which, g in (o.get("links") or {}).items():
                add(f"{o['kind']} {o['name']}: {which} game {g['game']}", g)
        base_file = (report.get("base") or {}).get("file")
        base_file = None if base_file in (None, "base", "-") else base_file
        for row in report.get("variants") or report.get("rows") or []:
            for which, g in (row.get("games") or {}).items():
                add(f"{row['name']}: {which} game {g['game']}", g, row.get("file"), {})
                add(f"{row['name']}: game {g['game']} in the base", g, base_file, {})
        for g in (report.get("replay") or {}).get("games", [])[:REPORT_GAMES]:
            winners = ", ".join(f"seat {w}" for w in g.get("winners") or ()) or "none"
            add(f"game {g['game']} (winner: {winners})", g)
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


class Replays:
    """Replays of one game folder, kept for a while (a page steps through them a window at a time).
    ``version()``: the files' version; ``pictures()``: a future of the pieces' pictures (the studio's
    :meth:`~pnp.serve.studio.Studio.piece_pictures`)."""

    def __init__(self, root, reports, version, pictures):
        self.root = Path(root)
        self.reports = list(reports)
        self.version = version                    # the game files' version: a replay of older data is not kept
        self.pictures = pictures                  # () -> a future of the pieces' pictures (the preview process)
        self._kept: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def listed(self) -> list[dict]:
        return reported_games(self.reports)

    def spec(self, query) -> dict:
        """The game a request names: ``game=K`` (the K-th reported game) or ``seed``, ``players``, ``bots``."""
        if query.get("game") is not None:
            try:
                return self.listed()[int(query["game"])]
            except (ValueError, IndexError):
                raise UserError("game: no such reported game") from None
        try:
            seed = int(query.get("seed", ""))
            players = int(query["players"]) if query.get("players") else None
        except ValueError:
            raise UserError("seed and players: whole numbers") from None
        bots = [b for b in (query.get("bots") or "").split(",") if b.strip()]
        if any(b.split(":")[0].strip() == "search" for b in bots):
            raise UserError("bots: a game with a search bot is replayed from a report (pnp serve --report)")
        return {"seed": seed, "players": players, "bots": bots or None, "variant": None, "options": {}}

    def steps(self, spec: dict, start: int = 0, count: int = PAGE) -> dict:
        key = json.dumps([spec, self.version()], sort_keys=True, default=str)
        with self._lock:
            replay = self._kept.get(key)
            if replay is None:
                replay = self._play(spec)
                self._kept[key] = replay
                while len(self._kept) > KEEP:
                    self._kept.popitem(last=False)
            self._kept.move_to_end(key)
        out = {k: v for k, v in replay.items() if k != "steps"}
        out["from"] = start
        out["steps"] = replay["steps"][start:start + count]
        if start:
            for key in ("map", "pieces", "cards"):
                out.pop(key, None)
        return out

    def _play(self, spec: dict) -> dict:
        from pnp.commands.replay import table
        from pnp.commands.simulate import SEAT_NAMES

        players = spec.get("players")
        bots = spec.get("bots")
        try:
            game, engine, seats, rules, options = table(
                self.root, str(players) if players else None, ",".join(bots) if bots else None, spec.get("variant"),
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
                if len(movers) == 1:
                    state.step_action(bots[movers[0]].act(state, movers[0], rng))
                else:
                    state.step_actions({p: bots[p].act(state, p, rng) for p in movers})
            elif state.is_chance():
                state.sample_chance(rng)
            else:
                break
            lines = words.new(state.events)
            if lines:
                steps.append({"lines": lines, "view": view(state)})
        pieces, unpictured = self._pieces(game) if game.map is not None else ({}, None)
        return {"title": game.title, "seed": spec["seed"], "seats": [{"name": n, "bot": b} for n, b in
                                                                        zip(seat_names, seats)],
                "total": len(steps), "over": state.is_over, "map": map_json(game.map, game),
                "cards": {c.id: c.name for c in game.cards},
                "pieces": {k: "data:image/png;base64," + base64.b64encode(v).decode() for k, v in pieces.items()},
                "pieces_error": unpictured,
                "steps": steps}

    def _pieces(self, game) -> tuple[dict, str | None]:
        """(piece kind -> PNG bytes, None), or ({}, why) when they could not be drawn: drawn in the
        studio's preview process, under its limits (``pictures``), never in the studio's own."""
        try:
            return self.pictures().result(), None
        except UserError as exc:          # stopped past the preview limits, or the previews cannot start
            return {}, str(exc)


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
            first = self.engine.transcript_lines(self.head, self.game.cards, self.game.factions, self.names)
            return first + (self._lines(fresh) if fresh else [])
        return self._lines(fresh)

    def _lines(self, events) -> list[str]:
        head = self.engine.transcript_lines(self.head, self.game.cards, self.game.factions, self.names)
        both = self.engine.transcript_lines(self.head + list(events), self.game.cards, self.game.factions, self.names)
        return both[len(head):]


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
    from pnp.exports.raster import Rasterizer, png_bytes, size_px
    from pnp.layout.geometry import Page

    w, h = PIECE_MM
    keys = sorted(sides)
    pages = [Page(w, h, side_elements(game, {**sides[k], "label": None}, w, h, bleed=0.0), label=k) for k in keys]
    with using(game.icons):
        pdf = render(pages, f"{game.title}: pieces", game.author)
    with Rasterizer(pdf) as doc:
        return {k: png_bytes(doc.render(i, size_px(w, h, PIECE_DPI))) for i, k in enumerate(keys)}
