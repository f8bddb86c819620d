"""Scenarios: a position on the map, the cards in hand, fixed draws and dice, and the players'
decisions, for tests, examples and the rulebook (``docs/scenarios.md``, "Shadow Queen scenarios").

:func:`scenario_from_data` turns a scenario file's data (its shape already checked by ``pnp`` against
:data:`SCENARIO_SCHEMA`) into a :class:`Scenario`, reporting every problem as ``(where, message)`` with
``where`` a path such as ``turns[2][3]``; it also plays the scenario once, so a decision that is not
legal when its turn comes is reported with its place. :func:`run_scenario` plays it through the same
:class:`~rules_engine.shadow_queen.state.GameState` as real games.

Pieces are named by where they stand: a hex id (``"0707"``), or a holding's hex or id with the kind
when several stand there (``"church:priest"``). Draws and dice the file does not give are drawn with
``seed``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from rules_engine.core.scenario import Refused as _Refused
from rules_engine.core.scenario import ScenarioError, read_players, replay_turns, suggest
from rules_engine.protocol import Spec
from rules_engine.shadow_queen.rules import TURN_LIMIT, Rules
from rules_engine.shadow_queen.state import (ACT, DEFEND, DEFEND_WITH, DISCARD, DISCARD_CARD, DRAW, END_ACTION,
                                             FINISH, MOVE, NO_DEFENCE_ACTION, PASS_ACTION, PIECE, PLAY, ROLL, Action,
                                             GameState)
from rules_engine.shadow_queen.transcript import ENGLISH, transcript_lines

WORDS = ("end", "pass", "finish", "no_defence")
VERB_KEYS = ("do", "move", "play", "defend", "discard")

DECISION_SCHEMA = Spec("map", shorthand="do", doc="a word (end, pass, finish, no_defence) or a mapping such as "
                       "{move: '0601', to: '0706'} or {play: possess, target: '0707'}", schema={
                           "do": Spec("str", nullable=True, doc="end, pass, finish or no_defence"),
                           "move": Spec("str", nullable=True, doc="the piece moved (where it stands)"),
                           "to": Spec("str", nullable=True, doc="where it goes; where a lured piece ends"),
                           "play": Spec("str", nullable=True, doc="the card played by the piece just moved"),
                           "target": Spec("str", nullable=True, doc="a piece, holding, hex or card"),
                           "toward": Spec("str", nullable=True, doc="a patrol's destination: a holding or a piece"),
                           "defend": Spec("str", nullable=True, doc="the defend card played"),
                           "by": Spec("str", nullable=True, doc="the piece that defends"),
                           "discard": Spec("str", nullable=True, doc="the card discarded"),
                       })

SCENARIO_SCHEMA = {
    "title": Spec("str", default="", doc="shown above the transcript"),
    "seed": Spec("int", default=0, min=0, doc="draws and dice the file does not give"),
    "turn_limit": Spec("int", default=TURN_LIMIT, min=1, max=10000),
    "rules": Spec("map", default={}, doc="the draft's open points set otherwise (the engine's options)", schema={
        "draws_per_holding": Spec("int", min=0, max=5), "hand_per_holding": Spec("int", min=0, max=5),
        "cave_limit": Spec("int", min=1, max=50), "enthral_to_win": Spec("int", min=0, max=18),
        "banish_to_win": Spec("int", min=0, max=18), "kingdom_goal": Spec("str", choices=("shadows", "all")),
        "holdings_to_win": Spec("int", min=0, max=8)}),
    "first": Spec("str", nullable=True, doc="the side (faction id) whose turn comes first"),
    "players": Spec("list", required=True, doc="one per side, in the factions' order", items=Spec(
        "map", shorthand="name", doc="a player name or a mapping with 'name' (and 'hand')", schema={
            "name": Spec("str", required=True),
            "hand": Spec("list", default=[], items=Spec("str"), doc="card ids in hand at the start"),
            "draws": Spec("list", default=[], items=Spec("str"), doc="the cards drawn, in order"),
            "used": Spec("list", default=[], items=Spec("str"), doc="cards of the player's deck already out "
                                                                      "of the game"),
        })),
    "pieces": Spec("dict", default={}, items=Spec("list", items=Spec("str")),
                   doc="piece kind -> hexes (or holdings) where its pieces stand; the rest are off the board"),
    "others": Spec("str", default="start", choices=("start", "away"),
                   doc="pieces of kinds 'pieces' does not list: on their starting hexes, or away (off the board)"),
    "possessed": Spec("list", default=[], items=Spec("str"), doc="pieces that start possessed"),
    "control": Spec("dict", default={}, items=Spec("str"), doc="holding id -> the side controlling it"),
    "altars": Spec("list", default=[], items=Spec("str"), doc="holdings with an altar"),
    "bridges": Spec("list", default=[], items=Spec("str"), doc="bridge sites with a bridge (hex ids; "
                                                               "'A/B' for an edge)"),
    "paths": Spec("list", default=[], items=Spec("str"), doc="forest hexes with a path"),
    "orders": Spec("list", default=[], items=Spec("map", schema={
        "piece": Spec("str", required=True), "card": Spec("str", required=True),
        "toward": Spec("str", nullable=True)}), doc="pieces under orders at the start"),
    "cave_turns": Spec("dict", default={}, items=Spec("int", min=0, max=10), doc="piece -> turns already in a cave"),
    "dice": Spec("list", default=[], items=Spec("int", min=1, max=20), doc="die faces rolled, in order"),
    "turns": Spec("list", default=[], items=Spec("list", items=DECISION_SCHEMA),
                  doc="one list of decisions per turn, in turn order"),
}


@dataclass(frozen=True)
class ScenarioPlayer:
    """A player of a scenario: the name, the cards in hand, the cards drawn in order, and the cards of the
    player's deck already out of the game."""

    name: str
    hand: tuple = ()
    draws: tuple = ()
    used: tuple = ()


@dataclass(frozen=True)
class Scenario:
    """A checked scenario in the engine's numbers: the players, the position on the map, fixed dice, who
    starts, the seed and every turn's decisions."""

    players: tuple
    turns: tuple = ()             # per turn, a tuple of decision mappings
    positions: tuple = ()         # every piece's space (-1 off the board)
    possessed: tuple = ()
    control: tuple = ()
    altars: tuple = ()
    bridges: tuple = ()
    paths: tuple = ()
    orders: tuple = ()            # (piece, card id, order, dest)
    cave_turns: tuple = ()        # ((piece, turns), ...)
    dice: tuple = ()
    first: int = 0
    seed: int = 0
    turn_limit: int = TURN_LIMIT
    title: str = ""
    rules: tuple = ()             # ((option, value), ...): the engine's options the file sets


@dataclass
class ScenarioOutcome:
    """A scenario played through: the final state, the events (when recorded) and the JSON-ready result."""

    scenario: Scenario
    state: GameState
    events: list
    result: dict = field(default_factory=dict)


# ---------------------------------------------------------------------------------------- reading


class _Reader:
    """Names in the file -> the engine's numbers, with every problem collected."""

    def __init__(self, rules: Rules, add):
        self.r = rules
        self.add = add
        self.holdings = {h: i for i, h in enumerate(rules.holding_ids)}

    def space(self, name, where):
        """A hex id or a holding id -> its space."""
        r = self.r
        if name in r.space_by_id:
            return r.space_by_id[name]
        if name in self.holdings:
            return r.holding_space[self.holdings[name]]
        self.add((where, f"no hex or holding {name!r}{suggest(name, list(r.space_by_id) + list(self.holdings))}"))
        return None

    def holding(self, name, where):
        r = self.r
        if name in self.holdings:
            return self.holdings[name]
        if name in r.space_by_id and r.holding_at[r.space_by_id[name]] >= 0:
            return r.holding_at[r.space_by_id[name]]
        self.add((where, f"no holding {name!r}{suggest(name, self.holdings)}"))
        return None

    def card(self, name, where):
        if name not in self.r.card_index:
            self.add((where, f"unknown card {name!r}{suggest(name, self.r.card_index)}"))
            return None
        return self.r.card_index[name]

    def side(self, name, where):
        if name not in self.r.sides:
            self.add((where, f"unknown side {name!r}; sides are: {', '.join(self.r.sides)}"))
            return None
        return self.r.sides.index(name)

    def site(self, name, where):
        r = self.r
        for b in range(len(r.bridge_sites)):
            if self._site_name(b) in _names_of(name):
                return b
        sites = ", ".join(self._site_name(b) for b in range(len(r.bridge_sites)))
        self.add((where, f"no bridge site {name!r}; sites: {sites}"))
        return None

    def _site_name(self, b):
        r = self.r
        s = r.site_space[b]
        return r.hex_id[s] if s >= 0 else "/".join(r.hex_id[x] for x in r.site_near[b])


def scenario_from_data(rules: Rules, data: dict, players=(2, 2)):
    """``(scenario, [])`` from a scenario file's data, or ``(None, problems)``."""
    problems = []
    add = problems.append
    rd = _Reader(rules, add)
    r = rules
    plist, names, found = read_players(
        data, players, lambda name, item: ScenarioPlayer(name, tuple(map(str, item.get("hand") or ())),
                                                         tuple(map(str, item.get("draws") or ())),
                                                         tuple(map(str, item.get("used") or ()))), 2)
    problems.extend(found)
    if len(plist) != 2 and not found:
        add(("players", f"{len(plist)} players; a Shadow Queen scenario has one player per side (2)"))
    # positions: the map's start, with the kinds the file lists replaced
    positions = list(r.start)
    if data.get("others") == "away":
        listed = {r.kind_index[k] for k in (data.get("pieces") or {}) if k in r.kind_index}
        positions = [s if r.piece_kind[p] in listed else -1 for p, s in enumerate(positions)]
    taken = {}
    for kind_id, hexes in (data.get("pieces") or {}).items():
        where = f"pieces.{kind_id}"
        if kind_id not in r.kind_index:
            add((where, f"unknown piece {kind_id!r}{suggest(kind_id, r.kind_index)}"))
            continue
        k = r.kind_index[kind_id]
        own = [p for p in range(len(positions)) if r.piece_kind[p] == k]
        if len(hexes) > len(own):
            add((where, f"{len(hexes)} hexes for {len(own)} {r.kinds[k].plural}"))
            continue
        for i, p in enumerate(own):
            positions[p] = -1
            if i < len(hexes):
                s = rd.space(hexes[i], f"{where}[{i + 1}]")
                if s is None:
                    continue
                if r.holding_at[s] < 0 and s in taken:
                    add((f"{where}[{i + 1}]", f"hex {hexes[i]} already holds a piece ({taken[s]})"))
                    continue
                if r.bridge_at[s] >= 0 and r.hex_id[s] not in (data.get("bridges") or ()):
                    add((f"{where}[{i + 1}]", f"hex {hexes[i]} is river with no bridge"))
                    continue
                taken[s] = f"{where}[{i + 1}]"
                positions[p] = s
    # the map's start positions of kinds not listed must not collide with listed ones
    for p, s in enumerate(positions):
        if s >= 0 and r.holding_at[s] < 0 and r.kinds[r.piece_kind[p]].id not in (data.get("pieces") or {}):
            if s in taken:
                add((taken[s], f"hex {r.hex_id[s]} is the starting hex of a {r.piece_name(p)}; place the "
                               f"{r.kinds[r.piece_kind[p]].plural} too"))

    def piece(ref, where):
        return _piece_at(r, positions, ref, where, add, rd)

    possessed = []
    for i, ref in enumerate(data.get("possessed") or (), start=1):
        p = piece(ref, f"possessed[{i}]")
        if p is not None:
            if r.piece_side[p] == 0:
                add((f"possessed[{i}]", f"the {r.piece_name(p)} on {ref} belongs to the side that possesses"))
            possessed.append(p)
    control = list(r.holding_side)
    for hid, side in (data.get("control") or {}).items():
        h, s = rd.holding(hid, f"control.{hid}"), rd.side(side, f"control.{hid}")
        if h is not None and s is not None:
            control[h] = s
    altars = [h for i, hid in enumerate(data.get("altars") or (), start=1)
              if (h := rd.holding(hid, f"altars[{i}]")) is not None]
    bridges = [b for i, name in enumerate(data.get("bridges") or (), start=1)
               if (b := rd.site(name, f"bridges[{i}]")) is not None]
    paths = []
    for i, name in enumerate(data.get("paths") or (), start=1):
        s = rd.space(name, f"paths[{i}]")
        if s is not None and not r.forest[s]:
            add((f"paths[{i}]", f"hex {name} is not a forest"))
        elif s is not None:
            paths.append(s)
    orders = []
    for i, item in enumerate(data.get("orders") or (), start=1):
        p = piece(item["piece"], f"orders[{i}].piece")
        k = rd.card(item["card"], f"orders[{i}].card")
        if p is None or k is None:
            continue
        if r.card_kind[k] != "orders" or not r.needs_orders[p]:
            add((f"orders[{i}]", f"'{item['card']}' does not give orders to a {r.piece_name(p)}"))
            continue
        dest = -1
        if r.card_params[k]["order"] == "patrol":
            dest = _destination(r, positions, item.get("toward"), f"orders[{i}].toward", add, rd)
            if dest is None:
                continue
        orders.append((p, item["card"], r.card_params[k]["order"], dest))
    cave_turns = []
    for ref, n in (data.get("cave_turns") or {}).items():
        p = piece(ref, f"cave_turns.{ref}")
        if p is not None:
            cave_turns.append((p, n))
    # hands: each card at most as often as the decks hold it
    used = {}
    for i, pl in enumerate(plist, start=1):
        for j, cid in enumerate(pl.hand, start=1):
            k = rd.card(cid, f"players[{i}].hand[{j}]")
            if k is None:
                continue
            used[cid] = used.get(cid, 0) + 1
            if used[cid] > r.cards[k].copies:
                add((f"players[{i}].hand[{j}]", f"{cid!r} is used {used[cid]} times; the deck has "
                                               f"{r.cards[k].copies}"))
        for j, cid in enumerate(pl.draws, start=1):
            rd.card(cid, f"players[{i}].draws[{j}]")
        for j, cid in enumerate(pl.used, start=1):
            k = rd.card(cid, f"players[{i}].used[{j}]")
            if k is None:
                continue
            used[cid] = used.get(cid, 0) + 1
            if r.card_deck[k] != i - 1:
                add((f"players[{i}].used[{j}]", f"{cid!r} is not a card of {pl.name}'s deck"))
            elif used[cid] > r.cards[k].copies:
                add((f"players[{i}].used[{j}]", f"{cid!r} is used {used[cid]} times; the deck has "
                                               f"{r.cards[k].copies}"))
    for o in orders:
        used[o[1]] = used.get(o[1], 0) + 1
    first = 0
    if data.get("first") is not None:
        first = rd.side(data["first"], "first")
    turns = [tuple(t) if isinstance(t, list) else t for t in (data.get("turns") or [])]
    for i, turn in enumerate(turns, start=1):
        if not turn:
            add((f"turns[{i}]", "a turn needs at least one decision"))
    if problems:
        return None, problems
    scenario = Scenario(players=tuple(plist), turns=tuple(turns), positions=tuple(positions),
                        possessed=tuple(possessed), control=tuple(control), altars=tuple(altars),
                        bridges=tuple(bridges), paths=tuple(paths), orders=tuple(orders),
                        cave_turns=tuple(cave_turns), dice=tuple(data.get("dice") or ()), first=first,
                        seed=data.get("seed") or 0, turn_limit=data.get("turn_limit") or TURN_LIMIT,
                        title=data.get("title") or "",
                        rules=tuple((k, v) for k, v in sorted((data.get("rules") or {}).items()) if v is not None))
    try:
        _play(rules, scenario, record=False, check=False)
    except _Refused as refused:
        return None, [(refused.where, refused.message)]
    return scenario, []


def _piece_at(r, positions, ref, where, add, rd):
    """The piece a reference names: the one piece on a hex, or ``place:kind`` in a holding."""
    place, _, kind = str(ref).partition(":")
    s = rd.space(place, where)
    if s is None:
        return None
    here = [p for p, q in enumerate(positions) if q == s]
    if kind:
        if kind not in r.kind_index:
            add((where, f"unknown piece {kind!r}{suggest(kind, r.kind_index)}"))
            return None
        here = [p for p in here if r.piece_kind[p] == r.kind_index[kind]]
    if not here:
        add((where, f"no {kind or 'piece'} on {place}"))
        return None
    if len(here) > 1 and not kind:
        kinds = ", ".join(sorted({r.kinds[r.piece_kind[p]].id for p in here}))
        add((where, f"several pieces stand on {place} ({kinds}): write {place}:KIND"))
        return None
    return here[0]


def _destination(r, positions, ref, where, add, rd):
    """A patrol destination: a holding, or a piece (coded as the number of holdings + the piece)."""
    if ref is None:
        add((where, "patrol orders need 'toward': a holding or a piece"))
        return None
    if ref in rd.holdings:
        return rd.holdings[ref]
    p = _piece_at(r, positions, ref, where, add, rd)
    return None if p is None else len(r.holdings) + p


# ---------------------------------------------------------------------------------------- playing


class _Script:
    """Resolves the scenario's chance events: the listed draws and dice first, then ``seed``."""

    def __init__(self, scenario: Scenario, rules: Rules):
        self.rng = random.Random(scenario.seed)
        self.draws = [list(p.draws) for p in scenario.players]
        self.dice = list(scenario.dice)
        self.rules = rules

    def resolve(self, state: GameState, where: str) -> None:
        r = self.rules
        while state.is_chance():
            if state.phase == DRAW:
                wanted = self.draws[state.active]
                if wanted:
                    cid = wanted.pop(0)
                    card = next((c for c in sorted(state.deck[state.active]) if r.card_id(c) == cid), None)
                    if card is None:
                        raise _Refused(where, f"{cid!r} cannot be drawn: no copy is left in the deck")
                    state.apply_chance(card)
                else:
                    state.sample_chance(self.rng)
            elif state.phase == ROLL:
                n = state._dice_now()
                faces = [self.dice.pop(0) if self.dice else int(self.rng.random() * state.die) + 1 for _ in range(n)]
                if any(f > state.die for f in faces):
                    raise _Refused(where, f"a die shows at most {state.die}")
                state.apply_chance(sum(faces))


def _setup(rules: Rules, scenario: Scenario, record: bool, check: bool) -> tuple[GameState, _Script]:
    r = rules
    hands, used = [[], []], [[], []]
    taken = set()
    for seat, pl in enumerate(scenario.players):
        for cid in pl.hand:
            card = next(c for c in r.copies_of[cid] if c not in taken)
            taken.add(card)
            hands[seat].append(card)
        for cid in pl.used:
            card = next(c for c in r.copies_of[cid] if c not in taken)
            taken.add(card)
            used[seat].append(card)
    orders = []
    for p, cid, order, dest in scenario.orders:
        card = next(c for c in r.copies_of[cid] if c not in taken)
        taken.add(card)
        orders.append((p, card, order, dest))
    script = _Script(scenario, rules)
    state = GameState.setup(rules, first=scenario.first, record=record, check=check,
                            positions=scenario.positions, hands=hands, possessed=scenario.possessed,
                            control=scenario.control, altars=scenario.altars, bridges=scenario.bridges,
                            paths=scenario.paths, orders=orders, cave_turns=dict(scenario.cave_turns),
                            turn_limit=scenario.turn_limit, used=used, **dict(scenario.rules))
    script.resolve(state, "players")
    return state, script


def _play(rules: Rules, scenario: Scenario, *, record: bool, check: bool) -> GameState:
    state, script = _setup(rules, scenario, record, check)
    names = [p.name for p in scenario.players]

    def play(s, decision, where, i):
        action = _action(s, decision, names, where)
        if action is not None:
            start = s.turn
            s.apply_action(action)
            if s.turn == start or i < len(scenario.turns):
                script.resolve(s, where)   # not the draws of a turn the scenario does not play

    return replay_turns(state, scenario.turns, turn=lambda s: s.turn, seat=lambda s: names[s.active],
                        play=play, possible=_possible)


def describe(state: GameState, a: Action) -> str:
    """An action in the scenario file's words, e.g. ``{move: '0601', to: '0706'}``."""
    r = state.rules
    if a.verb in ("end", "pass", "finish", "no_defence"):
        return a.verb
    if a.verb == MOVE:
        return f"{{move: {_ref(state, a.piece)}, to: {r.hex_id[a.dest]}}}"
    if a.verb == DISCARD_CARD:
        return f"{{discard: {r.card_id(a.card)}}}"
    if a.verb == DEFEND_WITH:
        return f"{{defend: {r.card_id(a.card)}, by: {_ref(state, a.piece)}}}"
    text = f"{{play: {r.card_id(a.card)}"
    target = _target_name(state, a)
    if target:
        text += f", target: {target}"
    if a.dest >= 0:
        k = r.card_of[a.card]
        if r.card_kind[k] == "orders":
            nh = len(r.holdings)
            text += f", toward: {r.holding_ids[a.dest] if a.dest < nh else _ref(state, a.dest - nh)}"
        else:
            text += f", to: {r.hex_id[a.dest]}"
    return text + "}"


def _ref(state, p) -> str:
    r = state.rules
    s = state.pos[p]
    here = [q for q, x in enumerate(state.pos) if x == s]
    name = r.hex_id[s]
    return name if len(here) == 1 else f"{name}:{r.kinds[r.piece_kind[p]].id}"


def _target_name(state, a) -> str:
    r = state.rules
    k = r.card_of[a.card]
    kind = r.card_kind[k]
    t = a.target
    nh, nb, ns = len(r.holdings), len(r.bridge_sites), len(r.at)
    if t < 0:
        return ""
    if kind in ("attack", "rescue", "possess", "lure", "orders"):
        return _ref(state, t)
    if kind in ("taint",):
        return r.holding_ids[t]
    if kind == "bless":
        return r.holding_ids[t] if t < nh else _ref(state, t - nh)
    if kind in ("restore", "steal"):
        return r.card_id(t)
    if kind == "construct":
        item = r.card_params[k]["item"]
        return state._site_name(t) if item == "bridge" else r.hex_id[t] if item == "path" else r.holding_ids[t]
    if kind == "sabotage":
        return state._site_name(t) if t < nb else r.hex_id[t - nb] if t < nb + ns else r.holding_ids[t - nb - ns]
    return str(t)


def _possible(state) -> str:
    return ", ".join(describe(state, a) for a in state.legal_actions()[:12]) + (
        ", ..." if len(state.legal_actions()) > 12 else "") or "nothing"


def _action(state: GameState, d, names, where) -> Action | None:
    """The legal action a decision stands for (None for a pass already made), or :class:`_Refused`."""
    if isinstance(d, str):
        d = {"do": d}
    verbs = [k for k in VERB_KEYS if d.get(k) is not None]
    if len(verbs) != 1:
        raise _Refused(where, "give exactly one of: " + ", ".join(VERB_KEYS[1:]) + " (or a word)")
    verb = verbs[0]
    legal = state.legal_actions()
    who = names[state.to_move()[0]] if state.to_move() else "nobody"

    def refuse(reason):
        raise _Refused(where, f"{reason}; possible now: {_possible(state)}")

    if verb == "do":
        word = d["do"]
        if word not in WORDS:
            raise _Refused(where, f"unknown decision {word!r}{suggest(word, WORDS)}; expected end, pass, finish, "
                                  "no_defence or a mapping with move, play, defend or discard")
        if word == "pass" and state.phase == PIECE:
            return None                       # the piece had nothing to play: its go is already over
        if state.phase == ACT and word == "end":
            state.apply_action(PASS_ACTION)
            legal = state.legal_actions()
        action = {"end": END_ACTION, "pass": PASS_ACTION, "no_defence": NO_DEFENCE_ACTION,
                  "finish": Action(FINISH, state.current)}[word]
        if action not in legal:
            refuse(f"{who} cannot {word.replace('_', ' ')} now")
        return action
    r = state.rules
    add = []

    def look(fn, *args):
        value = fn(*args)
        if add:
            raise _Refused(add[0][0], add[0][1])
        return value

    rd = _Reader(r, add.append)
    if verb == "move":
        if state.phase == ACT:
            state.apply_action(PASS_ACTION)
            legal = state.legal_actions()
        p = look(_piece_at, r, state.pos, d["move"], f"{where}.move", add.append, rd)
        dest = state.pos[p] if d.get("to") is None else look(rd.space, d["to"], f"{where}.to")
        action = Action(MOVE, p, dest=dest)
        if action not in legal:
            if p not in state.movable():
                refuse(f"{who} cannot move the {r.piece_name(p)} on {d['move']} now")
            refuse(f"the {r.piece_name(p)} cannot reach {d.get('to')}")
        return action
    if verb == "discard":
        k = look(rd.card, d["discard"], f"{where}.discard")
        action = next((a for a in legal if a.verb == DISCARD_CARD and r.card_of[a.card] == k), None)
        if action is None:
            refuse(f"{who} cannot discard {d['discard']} now")
        return action
    if verb == "defend":
        k = look(rd.card, d["defend"], f"{where}.defend")
        if state.phase != DEFEND:
            refuse("nothing is being attacked")
        by = look(_piece_at, r, state.pos, d["by"], f"{where}.by", add.append, rd) if d.get("by") else None
        options = [a for a in legal if a.verb == DEFEND_WITH and r.card_of[a.card] == k
                   and (by is None or a.piece == by)]
        if not options:
            refuse(f"{who} cannot defend with {d['defend']}" + (f" by the piece on {d['by']}" if by is not None else ""))
        return options[0]
    # play
    k = look(rd.card, d["play"], f"{where}.play")
    if state.phase != ACT:
        refuse(f"{who} plays a card only with the piece just moved (ruling 8)")
    options = [a for a in legal if a.verb == PLAY and r.card_of[a.card] == k]
    if not options:
        refuse(f"the {r.piece_name(state.current)} cannot play {d['play']} now: {why_not(state, k)}")
    if d.get("target") is not None:
        options = [a for a in options if _target_name(state, a) in _names_of(d["target"])]
        if not options:
            refuse(f"{d['play']} cannot target {d['target']}: {RULE_OF_KIND[r.card_kind[k]]}")
    if d.get("to") is not None:
        options = [a for a in options if a.dest >= 0 and r.hex_id[a.dest] == d["to"]]
        if not options:
            refuse(f"{d['play']} cannot bring its target to {d['to']}: {RULE_OF_KIND[r.card_kind[k]]}")
    elif r.card_kind[k] == "rescue":
        options = [a for a in options if a.dest < 0]       # no to: the rescued piece stays where it is
    if d.get("toward") is not None:
        options = [a for a in options if a.dest >= 0 and
                   (describe(state, a).endswith(f"toward: {d['toward']}}}"))]
        if not options:
            refuse(f"{d['play']} cannot send the soldier toward {d['toward']}")
    if len(options) > 1:
        refuse(f"{d['play']} can be played in several ways here: say which with target, to or toward")
    return options[0]


#: What each kind of card asks for, with the ruling of docs/engine.md ("Shadow Queen") it rests on: the
#: reason a refused play gives.
RULE_OF_KIND = {
    "possess": "Possess takes a piece of the other side within reach that is not possessed, in a holding only "
               "when the card's holding condition holds (ruling 16)",
    "taint": "Taint is played in a holding the other side controls, by a piece standing in it",
    "attack": "an attack needs an enemy piece within reach, not in a cave, never one of your own (ruling 5)",
    "defend": "Defend answers an attack, played by a fighter next to the target (ruling 3)",
    "restore": "Sacrifice and Prayer need an altar in a holding your side controls and a used card of your deck "
               "(rulings 14 and 22)",
    "lure": "Lure takes an enemy piece within reach that can come nearer; Soldiers under special orders are "
            "immune (ruling 12)",
    "steal": "Steal takes a card from the other side's hand (ruling 17)",
    "construct": "a build needs its place: a bridge next to a bridge site, a path in a forest, an altar in a "
                 "holding of the side the card names (rulings 13 and 14)",
    "sabotage": "Sabotage takes a bridge, path or altar within reach (ruling 15)",
    "banish": "Banish needs a piece the other side controls within reach (ruling 18)",
    "bless": "Bless needs the Priest in a tainted holding, or a possessed piece within reach (ruling 19)",
    "rescue": "a rescue takes a Thrall or a possessed Peasant within reach, not in a cave; it may bring the piece "
              "only to the nearest holding your side controls (ruling 20)",
    "orders": "orders go to a Soldier without orders within reach of the Messenger; a patrol heads for a holding "
              "or Shadow piece within its range (ruling 21)",
}


def why_not(state, k) -> str:
    """Why the piece just moved cannot play card ``k`` now, naming the rule that refuses it."""
    r = state.rules
    p = state.current
    if r.piece_kind[p] not in r.card_players[k]:
        kinds = " or ".join(f"a {r.kinds[i].name}" for i in sorted(r.card_players[k])) or "no piece"
        return f"only {kinds} plays {r.cards[k].name} (the card's played_by)"
    if state.in_cave(p):
        return "a piece in a cave plays no card (ruling 11)"
    if not any(r.card_of[c] == k for c in state.hand[state.active]):
        return f"{r.side_names[state.active]} hold no {r.cards[k].name}"
    return RULE_OF_KIND.get(r.card_kind[k], "the card's condition is not met")


def _names_of(ref) -> set:
    """A target as the file may write it: 'A/B' edges either way round."""
    ref = str(ref)
    names = {ref}
    if "/" in ref:
        a, _, b = ref.partition("/")
        names.add(f"{b}/{a}")
    return names


def run_scenario(rules: Rules, scenario: Scenario, *, record: bool = True, check: bool = True) -> ScenarioOutcome:
    """Play the scenario; raise :class:`ScenarioError` when it cannot be played."""
    try:
        state = _play(rules, scenario, record=True, check=check)
    except _Refused as refused:
        raise ScenarioError([(refused.where, refused.message)]) from None
    names = [p.name for p in scenario.players]
    events = list(state.events)
    if events and not state.is_over:
        # the next side's turn, which the scenario does not play
        last = max((i for i, e in enumerate(events) if e.type == "turn_start"), default=None)
        if last is not None and last > 0:
            events = events[:last]
    outcome = ScenarioOutcome(scenario, state, events if record else [])
    outcome.result = scenario_result(state, names, events)
    return outcome


def scenario_result(state: GameState, names, events=None) -> dict:
    """The outcome in the shape ``pnp scenario --json`` prints (see docs/scenarios.md)."""
    r = state.rules
    players = {}
    for seat, name in enumerate(names):
        own = r.pieces_of[seat]
        players[name] = {
            "side": r.sides[seat],
            "pieces": sum(1 for p in own if state.pos[p] >= 0 and not state.possessed[p]),
            "possessed": sum(1 for p in own if state.pos[p] >= 0 and state.possessed[p]),
            "gone": sum(1 for p in own if state.pos[p] < 0),
            "holdings": [r.holding_ids[h] for h in range(len(r.holdings)) if state.control[h] == seat],
            "hand": sorted(r.card_id(c) for c in state.hand[seat]),
            "deck": len(state.deck[seat]),
            "used": sorted(r.card_id(c) for c in state.used[seat]),
        }
    pieces = [{"piece": p, "kind": r.kinds[r.piece_kind[p]].id, "side": r.sides[r.piece_side[p]],
               "at": r.hex_id[s] if s >= 0 else None, "possessed": state.possessed[p], "fate": state.fate[p]}
              for p, s in enumerate(state.pos)]
    over = state.is_over
    return {
        "players": players,
        "pieces": pieces,
        "bridges": [state._site_name(b) for b in range(len(r.bridge_sites)) if state.bridge[b]],
        "paths": [r.hex_id[s] for s in range(len(r.at)) if state.path[s]],
        "altars": [r.holding_ids[h] for h in range(len(r.holdings)) if state.altar[h]],
        "events": [e.as_dict() for e in (state.events if events is None else events)],
        "turn": state.turn,
        "game_over": over,
        "reason": state.over_reason,
        "winner": names[state.winner] if over and state.winner is not None else None,
    }


def scenario_lines(outcome: ScenarioOutcome, cards, factions=None, phrases: dict = ENGLISH) -> list[str]:
    """The scenario's transcript, titled when it has a title."""
    names = [p.name for p in outcome.scenario.players]
    lines = transcript_lines(outcome.events, cards, factions, names, phrases)
    return ([outcome.scenario.title] if outcome.scenario.title else []) + lines
