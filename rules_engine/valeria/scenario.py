"""Scenarios: a position on the table and the players' decisions, for tests, examples and the rulebook.

A scenario file (``docs/scenarios.md``, "Shadow Kingdoms of Valeria") sets up the players (board, map
side, tracks, dice, cards, uncovered circles, markers), the shrines, the Battle Plans line, the Champion
rows, the awards and, in the solo game, the Adversary; it starts at the start of ``first``'s turn
and plays the decisions of ``turns`` (one list per turn). Chance events the file does not fix (dice
rolled by a refill, cards drawn) come from ``seed``. Decisions are written as the engine words its
actions (``transcript.action_words``): ``{move: camp}``, ``{take: orc 5}``, ``{plan: triumph_at_avery_hollow}``,
``{dice: [orc 6, orc 6, gargoyle 5, goblin 2]}``, ``done``, ``{circle: troops_4}``, ``{area: top-left}``;
a decision that is not legal when its turn comes is reported with its place in the file and the
decisions possible then.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from rules_engine.core.scenario import Refused as _Refused
from rules_engine.core.scenario import ScenarioError, read_players, replay_turns, suggest
from rules_engine.protocol import Spec
from rules_engine.valeria.effects import TROOPS
from rules_engine.valeria.facts import SHRINES
from rules_engine.valeria.rules import Rules, die
from rules_engine.valeria.state import Event, FixedDieMissing, GameState
from rules_engine.valeria.transcript import ENGLISH, SHRINE_WORDS, action_words, describe_action, transcript_lines

_DIE = re.compile(r"\s*([a-z]+)\s+([1-6])\s*")

PLAYER_SCHEMA = {
    "name": Spec("str", required=True),
    "board": Spec("str", nullable=True, doc="the board id (its Wild troop type); default: the seat's"),
    "map": Spec("str", nullable=True, doc="the campaign map side id; default: map_1a, map_2a, ..."),
    "where": Spec("str", default="camp", doc="the Warden: a shrine (gem, magic, champions, gold, tactics) or camp"),
    "influence": Spec("int", nullable=True, min=0, max=20), "gold": Spec("int", nullable=True, min=0, max=20),
    "magic": Spec("int", nullable=True, min=0, max=20), "score": Spec("int", default=0, min=0, max=500),
    "gems": Spec("int", default=0, min=0, max=10),
    "dice": Spec("list", default=[], items=Spec("str"), doc="troop dice, e.g. 'orc 5'"),
    "reserved": Spec("dict", default={}, items=Spec("str"), doc="reserve slot id -> plan id"),
    "completed": Spec("list", default=[], items=Spec("str"), doc="plan ids already completed"),
    "champions": Spec("list", default=[], items=Spec("str"), doc="champion ids held"),
    "unlocked": Spec("list", default=[], items=Spec("str"), doc="circle ids already uncovered"),
    "areas": Spec("list", default=[], items=Spec("str"), doc="skirmish areas already covered (top-left ... or 0-8)"),
}

SCENARIO_SCHEMA = {
    "title": Spec("str", default="", doc="shown above the transcript"),
    "seed": Spec("int", default=0, min=0, doc="resolves the chance events the file does not fix"),
    "players": Spec("list", required=True, doc="seating order", items=Spec(
        "map", shorthand="name", doc="a player name or a mapping with 'name' and the player's position",
        schema=PLAYER_SCHEMA)),
    "first": Spec("str", nullable=True, doc="whose turn it is (default: the first player)"),
    "first_player": Spec("str", nullable=True, doc="the round's first player, whose turn starts each round "
                                                    "(default: the player whose turn it is)"),
    "rolls": Spec("list", default=[], items=Spec("str"),
                  doc="the dice the bag gives next, in order, as a refill draws them (e.g. orc 5)"),
    "shrines": Spec("dict", default={}, items=Spec("list", items=Spec("str")),
                    doc="shrine -> its dice; shrines not named are filled from the seed"),
    "line": Spec("list", default=[], items=Spec("str"), doc="the face-up plans, from the 5-Gold space"),
    "rows": Spec("dict", default={}, items=Spec("list", items=Spec("str")),
                 doc="champion type (instant, ongoing, endgame) -> its face-up champions"),
    "awards": Spec("list", default=[], items=Spec("str"), doc="the face-up awards, left to right"),
    "award_markers": Spec("dict", default={}, items=Spec("list", items=Spec("str")),
                          doc="award id -> the players with a marker on it, left to right"),
    "gems": Spec("int", nullable=True, min=0, max=10, doc="gems in the Gem shrine (default: the rest)"),
    "adversary": Spec("map", default={}, schema={
        "shrine": Spec("str", default="gem", choices=SHRINES), "score": Spec("int", default=10, min=0, max=500),
        "completed": Spec("list", default=[], items=Spec("str"))}, doc="the solo game's Adversary"),
    "turns": Spec("list", default=[], items=Spec("list", items=Spec("any")),
                  doc="one list of decisions per turn, in turn order"),
}


@dataclass(frozen=True)
class ScenarioPlayer:
    """A player of a scenario: the name, and the player's checked mapping from the file (board, tracks, dice,
    cards, ...)."""

    name: str
    data: dict = field(default_factory=dict, hash=False, compare=False)


@dataclass(frozen=True)
class Scenario:
    """A checked scenario: the players, the file's whole data (read when it is set up), every turn's
    decisions, the title and the seed."""

    players: tuple
    data: dict = field(default_factory=dict, hash=False, compare=False)
    turns: tuple = ()
    title: str = ""
    seed: int = 0


class ScenarioOutcome:
    def __init__(self, scenario, state, events):
        self.scenario = scenario
        self.state = state
        self.events = events
        self.result = None


def parse_die(text) -> int | None:
    m = _DIE.fullmatch(str(text).lower())
    if not m or m.group(1) not in TROOPS:
        return None
    return die(TROOPS.index(m.group(1)), int(m.group(2)))


# ---------------------------------------------------------------------------------------- reading

def scenario_from_data(rules: Rules, data: dict, players: tuple | None = None):
    """``(Scenario, [])`` or ``(None, problems)`` from a file's checked data; plays it once so that a
    decision that is not legal is reported with its place."""
    problems = []
    add = problems.append
    plist, names, found = read_players(data, players, lambda name, item: ScenarioPlayer(name, dict(item)), 5)
    problems += found
    scenario = Scenario(tuple(plist), dict(data), tuple(data.get("turns") or ()), data.get("title") or "",
                        data.get("seed") or 0)
    if problems:
        return None, problems
    try:
        _setup(rules, scenario, record=False, check=False)
    except _Refused as refused:
        add((refused.where, refused.message))
        return None, problems
    except FixedDieMissing as exc:         # a die of ``rolls`` the bag cannot give, at the first turn
        return None, [("rolls", str(exc))]
    try:
        _play(rules, scenario, record=False, check=False)
    except _Refused as refused:
        return None, [(refused.where, refused.message)]
    return scenario, []


def _setup(rules: Rules, scenario: Scenario, record: bool, check: bool) -> GameState:
    r = rules
    data = scenario.data
    n = len(scenario.players)
    names = [p.name for p in scenario.players]
    state = GameState(r, n, None, record=record, check=False, _start=False)
    plans_left = set(range(len(r.plan_kind)))
    champs_left = set(range(len(r.champion_kind)))

    def card_number(kind_ids, index, left, cid, where, what):
        if cid not in index:
            raise _Refused(where, f"unknown {what} {cid!r}{suggest(cid, index)}")
        k = index[cid]
        for number, kind in enumerate(kind_ids):
            if kind == k and number in left:
                left.discard(number)
                return number
        raise _Refused(where, f"no copy of {cid!r} is left for this place")

    def plan(cid, where):
        return card_number(r.plan_kind, r.plan_index, plans_left, cid, where, "plan")

    def champion(cid, where):
        return card_number(r.champion_kind, r.champion_index, champs_left, cid, where, "champion")

    def dice(values, where):
        out = []
        for i, text in enumerate(values, start=1):
            d = parse_die(text)
            if d is None:
                raise _Refused(f"{where}[{i}]", f"{text!r} is not a die: write a troop type and a strength, "
                                               f"like 'orc 5' ({', '.join(TROOPS)})")
            out.append(d)
        return out

    used = [0] * len(TROOPS)
    boards = [b for b, _ in r.boards]
    sides = {side.id: (m, s) for m, pair in enumerate(r.maps) for s, side in enumerate(pair)}
    circles = {c.id: i for i, c in enumerate(r.circles)}
    slots = {s.id: i for i, s in enumerate(r.slots)}
    for p, sp in enumerate(scenario.players):
        item, where = sp.data, f"players[{p + 1}]"
        pl = state.players[p]
        board = item.get("board") or boards[p]
        if board not in boards:
            raise _Refused(f"{where}.board", f"unknown board {board!r}; boards: {', '.join(boards)}")
        pl.board, pl.wild = boards.index(board), r.boards[boards.index(board)][1]
        side = item.get("map") or r.maps[p][0].id
        if side not in sides:
            raise _Refused(f"{where}.map", f"unknown map side {side!r}{suggest(side, sides)}")
        pl.side = sides[side]
        for key in ("influence", "gold", "magic"):
            if item.get(key) is not None:
                setattr(pl, key, item[key])
        if pl.influence < r.start[0]:
            raise _Refused(f"{where}.influence", f"influence starts at {r.start[0]} and never falls")
        pl.score = item.get("score") or 0
        for cid in item.get("unlocked") or []:
            if cid not in circles:
                raise _Refused(f"{where}.unlocked", f"unknown circle {cid!r}{suggest(cid, circles)}")
            state._uncover_quietly(p, circles[cid])
        for key in ("influence", "gold", "magic"):
            if getattr(pl, key) > pl.cap:
                raise _Refused(f"{where}.{key}", f"{getattr(pl, key)} is above {pl.cap}, the track's top while "
                                                 f"the 14 space is covered (unlock track_14)")
        pl.gems = item.get("gems") or 0
        if pl.gems > pl.gem_cap:
            raise _Refused(f"{where}.gems", f"{pl.gems} gems, but the player's storage holds {pl.gem_cap}")
        pl.dice = dice(item.get("dice") or [], f"{where}.dice")
        if len(pl.dice) > pl.spaces:
            raise _Refused(f"{where}.dice", f"{len(pl.dice)} dice, but the player has {pl.spaces} troop spaces "
                                            f"(unlock troops_4 / troops_5)")
        for d in pl.dice:
            used[d // 6] += 1
        for slot_id, cid in (item.get("reserved") or {}).items():
            if slot_id not in slots:
                raise _Refused(f"{where}.reserved", f"unknown reserve slot {slot_id!r}; slots: {', '.join(slots)}")
            if not pl.slot_open[slots[slot_id]]:
                raise _Refused(f"{where}.reserved.{slot_id}", f"the {slot_id} slot is locked (unlock its circle)")
            pl.reserved[slots[slot_id]] = plan(cid, f"{where}.reserved.{slot_id}")
        for i, cid in enumerate(item.get("completed") or [], start=1):
            pl.completed.append(plan(cid, f"{where}.completed[{i}]"))
        for i, cid in enumerate(item.get("champions") or [], start=1):
            number = champion(cid, f"{where}.champions[{i}]")
            pl.add_champion(number, r.champions[r.champion_kind[number]])
        areas = 0
        for i, a in enumerate(item.get("areas") or [], start=1):
            a = str(a)
            index = int(a) if a.isdigit() else (AREA_INDEX.get(a, -1))
            if not 0 <= index <= 8:
                raise _Refused(f"{where}.areas[{i}]", f"{a!r} is not an area (0-8 or {', '.join(AREA_INDEX)})")
            areas |= 1 << index
        pl.areas = areas
        where_to = item.get("where") or "camp"
        if where_to not in SHRINE_WORDS:
            raise _Refused(f"{where}.where", f"{where_to!r} is not a shrine or camp ({', '.join(SHRINE_WORDS)})")
        pl.where = SHRINE_WORDS.index(where_to)
    # awards and their markers
    award_ids = data.get("awards") or []
    if award_ids and len(award_ids) != len(state.awards):
        raise _Refused("awards", f"give {len(state.awards)} awards, left to right")
    awards_left = set(range(len(r.award_kind)))
    for slot, aid in enumerate(award_ids):
        state.awards[slot] = card_number(r.award_kind, r.award_index, awards_left, aid, f"awards[{slot + 1}]", "award")
    for aid, who in (data.get("award_markers") or {}).items():
        if aid not in award_ids:
            raise _Refused(f"award_markers.{aid}", f"{aid!r} is not one of the scenario's awards")
        slot = award_ids.index(aid)
        for name in who:
            if name not in names:
                raise _Refused(f"award_markers.{aid}", f"unknown player {name!r}")
            q = names.index(name)
            state.award_markers[slot].append(q)
            state.players[q].award_marks |= 1 << slot
    for p, pl in enumerate(state.players):
        off = len(r.circles) - bin(pl.covered).count("1")
        placed = bin(pl.areas).count("1") + bin(pl.award_marks).count("1")
        if off != placed:
            raise _Refused(f"players[{p + 1}]", f"{off} circles uncovered but {placed} markers on the map and "
                                                f"awards: each uncovered circle's marker is on one of them")
    # the board
    for key, dice_list in (data.get("shrines") or {}).items():
        if key not in SHRINES:
            raise _Refused(f"shrines.{key}", f"unknown shrine {key!r}; shrines: {', '.join(SHRINES)}")
        state.shrines[SHRINES.index(key)] = dice(dice_list, f"shrines.{key}")
        for d in state.shrines[SHRINES.index(key)]:
            used[d // 6] += 1
    for i, cid in enumerate(data.get("line") or [], start=1):
        if i > len(state.line):
            raise _Refused("line", f"the line has {len(state.line)} spaces")
        state.line[i - 1] = plan(cid, f"line[{i}]")
    for key, ids in (data.get("rows") or {}).items():
        types = ("instant", "ongoing", "endgame")
        if key not in types:
            raise _Refused(f"rows.{key}", f"unknown row {key!r}; rows: {', '.join(types)}")
        t = types.index(key)
        if len(ids) > len(state.rows[t]):
            raise _Refused(f"rows.{key}", f"the row has {len(state.rows[t])} spaces")
        for i, cid in enumerate(ids):
            number = champion(cid, f"rows.{key}[{i + 1}]")
            if r.champions[r.champion_kind[number]].type != t:
                raise _Refused(f"rows.{key}[{i + 1}]", f"{cid!r} is not an {key} champion")
            state.rows[t][i] = number
    adversary = data.get("adversary") or {}
    if state.solo:
        state.adversary = SHRINES.index(adversary.get("shrine") or "gem")
        state.adversary_score = adversary.get("score", 10) if adversary else r.solo_start_score
        for i, cid in enumerate(adversary.get("completed") or [], start=1):
            state.adversary_plans.append(plan(cid, f"adversary.completed[{i}]"))
    elif adversary:
        raise _Refused("adversary", "only the solo game has an Adversary")
    # what the file leaves out: the bag holds the other dice; decks hold the other cards; gems
    for t in range(len(TROOPS)):
        state.bag[t] = state.dice_per_type - used[t]
        if state.bag[t] < 0:
            raise _Refused("players", f"more {TROOPS[t]} dice than the {state.dice_per_type} in this game")
    rng = random.Random(scenario.seed)
    named = {SHRINES.index(k) for k in (data.get("shrines") or {})}
    for s in rules.clockwise:
        if s not in named:
            state.chance.extend([("die", s)] * rules.setup[n]["dice_per_shrine"])
    state.plan_unseen = sorted(plans_left)
    state.champ_unseen = [[c for c in rules.champion_decks[t] if c in champs_left] for t in range(3)]
    for i in range(len(state.line)):
        if state.line[i] < 0 and not data.get("line"):
            state.chance.append(("plan", i))
    for t in range(3):
        if t not in {("instant", "ongoing", "endgame").index(k) for k in (data.get("rows") or {})}:
            state.chance.extend(("champ", t, i) for i in range(len(state.rows[t])))
    for slot in range(len(state.awards)):
        diamond = rules.award_slots[slot]
        state.award_unseen[slot] = [c for c in awards_left if rules.awards[rules.award_kind[c]].diamond == diamond
                                    and not (state.solo and rules.award_kind[c] in rules.solo_removed)]
        if state.awards[slot] < 0:
            state.chance.append(("award", slot))
    held = sum(pl.gems for pl in state.players)
    total = rules.setup[n]["gems"]
    state.gem_supply = data["gems"] if data.get("gems") is not None else total - held
    if state.gem_supply + held != total:
        raise _Refused("gems", f"the players hold {held} gem{'' if held == 1 else 's'} and the shrine "
                               f"{state.gem_supply}, {held + state.gem_supply} in all: the game has {total}")
    first = data.get("first")
    if first is not None and first not in names:
        raise _Refused("first", f"unknown player {first!r}; players: {', '.join(names)}")
    state.cur = names.index(first) if first else 0
    leader = data.get("first_player")
    if leader is not None and leader not in names:
        raise _Refused("first_player", f"unknown player {leader!r}; players: {', '.join(names)}")
    state.first = names.index(leader) if leader else state.cur
    if state.chance:
        state._prune()
        state.sample_pending(rng)         # fills what the file leaves out (before the turn starts)
    rolls = []
    for i, text in enumerate(data.get("rolls") or []):
        d = parse_die(text)
        if d is None:
            raise _Refused(f"rolls[{i + 1}]", f"{text!r} is not a die; write a troop and a face, e.g. orc 5")
        rolls.append(d)
    state.fixed_dice = tuple(rolls)
    state.events = [] if record else None
    state.record = record
    state.check = check
    state.tasks = []
    state._begin_turn()
    state._run()
    state._auto_chance = rng
    state.settle()
    state._checkpoint("setup")
    return state


AREA_INDEX = {"top-left": 0, "top": 1, "top-right": 2, "left": 3, "centre": 4, "right": 5, "bottom-left": 6,
              "bottom": 7, "bottom-right": 8}


def _play(rules: Rules, scenario: Scenario, *, record: bool, check: bool) -> GameState:
    names = [p.name for p in scenario.players]
    try:
        state = _setup(rules, scenario, record, check)
        if record:
            state.events.insert(0, Event("scenario_start", state.round, {"position": start_position(state)}))
        return replay_turns(state, scenario.turns, turn=lambda s: s.turns, seat=lambda s: names[s.cur],
                            play=lambda s, decision, where, _: s.step(_action(s, decision, where)),
                            possible=_possible)
    except FixedDieMissing as exc:    # a die of ``rolls`` the bag cannot give
        raise _Refused("rolls", str(exc)) from None


def start_position(state: GameState) -> dict:
    """The position a scenario starts from, as plain data in the words every engine's scenario_start
    uses (``hands``, ``tableau``, ``dice``, ``counters`` by seat; ``line``; ``shrines``: the dice in
    each), so a rulebook can show it."""
    from rules_engine.valeria.transcript import die_id

    r = state.rules
    counters, tableau, dice = {}, {}, {}
    for p, pl in enumerate(state.players):
        counters[p] = {"gold": pl.gold, "magic": pl.magic, "influence": pl.influence, "gems": pl.gems,
                       "score": pl.score, "plans": len(pl.completed)}
        tableau[p] = ([r.plan_id(c) for c in pl.reserved if c >= 0] + [r.champion_id(c) for c in pl.champions])
        dice[p] = [die_id(d) for d in pl.dice]
    position = {"counters": counters, "tableau": tableau, "dice": dice,
                "line": [r.plan_id(c) for c in state.line if c >= 0],
                "shrines": {SHRINES[i]: [die_id(d) for d in dice_in] for i, dice_in in enumerate(state.shrines)}}
    if state.solo:
        position["adversary"] = {"score": state.adversary_score, "plans": len(state.adversary_plans),
                                 "shrine": SHRINES[state.adversary]}
    return position


def _normal(value):
    """A decision as plain comparable data (strings lower case, dice normalised)."""
    if isinstance(value, dict):
        return {str(k): _normal(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_normal(v) for v in value]
    if isinstance(value, str):
        d = parse_die(value)
        return f"{TROOPS[d // 6]} {d % 6 + 1}" if d is not None else value.strip().lower()
    return value


def _possible(state) -> str:
    return ", ".join(describe_action(state, a) for a in state.legal_actions(state.cur)) or "nothing"


def _action(state: GameState, decision, where):
    legal = state.legal_actions(state.cur)
    wanted = _normal(decision)
    if isinstance(wanted, dict) and "area" in wanted and isinstance(wanted["area"], int):
        wanted["area"] = list(AREA_INDEX)[wanted["area"]] if 0 <= wanted["area"] <= 8 else wanted["area"]
    if isinstance(wanted, dict) and "dice" in wanted and isinstance(wanted["dice"], list):
        wanted["dice"] = sorted(wanted["dice"])
    for action in legal:
        words = _normal(action_words(state, action))
        if isinstance(words, dict) and "dice" in words:
            words["dice"] = sorted(words["dice"])
        if words == wanted:
            return action
    raise _Refused(where, f"{_show(decision)} is not possible now; possible now: {_possible(state)}")


def _show(decision) -> str:
    if isinstance(decision, dict):
        return "{" + ", ".join(f"{k}: {v}" for k, v in decision.items()) + "}"
    return str(decision)


def run_scenario(rules: Rules, scenario: Scenario, *, record: bool = True, check: bool = True) -> ScenarioOutcome:
    """Play the scenario; raise :class:`ScenarioError` when it cannot be played."""
    try:
        state = _play(rules, scenario, record=True, check=check)
    except _Refused as refused:
        raise ScenarioError([(refused.where, refused.message)]) from None
    names = [p.name for p in scenario.players]
    events = list(state.events)
    if events and events[-1].type == "turn" and not state.is_over:
        events.pop()                 # the next turn's start, which the scenario does not play
    outcome = ScenarioOutcome(scenario, state, events if record else [])
    outcome.result = scenario_result(state, names)
    return outcome


def scenario_result(state: GameState, names) -> dict:
    """The outcome in the shape ``pnp scenario --json`` prints (see docs/scenarios.md)."""
    r = state.rules
    from rules_engine.valeria.transcript import die_id
    players = {}
    for p, name in enumerate(names):
        pl = state.players[p]
        players[name] = {
            "score": pl.score, "influence": pl.influence, "gold": pl.gold, "magic": pl.magic, "gems": pl.gems,
            "dice": [die_id(d) for d in pl.dice],
            "where": SHRINE_WORDS[pl.where],
            "reserved": {r.slots[i].id: r.plan_id(c) for i, c in enumerate(pl.reserved) if c >= 0},
            "completed": [r.plan_id(c) for c in pl.completed],
            "champions": [r.champion_id(c) for c in pl.champions],
            "unlocked": [c.id for i, c in enumerate(r.circles) if not pl.covered >> i & 1],
            "areas": [a for i, a in enumerate(AREA_INDEX) if pl.areas >> i & 1],
        }
    over = state.is_over
    winners = [names[p] for p in state.winners] if over else []
    result = {
        "players": players,
        "scores": {name: state.players[p].score for p, name in enumerate(names)},
        "shrines": {SHRINES[s]: [die_id(d) for d in state.shrines[s]] for s in range(5)},
        "line": [r.plan_id(c) if c >= 0 else None for c in state.line],
        "rows": {t: [r.champion_id(c) if c >= 0 else None for c in state.rows[i]]
                 for i, t in enumerate(("instant", "ongoing", "endgame"))},
        "round": state.round,
        "first_player": names[state.first],
        "awards": [r.award_id(c) if c >= 0 else None for c in state.awards],
        "award_markers": {r.award_id(c): [names[p] for p in state.award_markers[i]]
                          for i, c in enumerate(state.awards) if c >= 0 and state.award_markers[i]},
        "gems": state.gem_supply,
        "bag": {t: state.bag[i] for i, t in enumerate(TROOPS)},
        "decks": {"plans": len(state.plan_unseen),
                  **{t: len(state.champ_unseen[i]) for i, t in enumerate(("instant", "ongoing", "endgame"))}},
        "rolls_left": [die_id(d) for d in state.fixed_dice],
        "game_over": over,
        "winners": winners,
        "winner": winners[0] if len(winners) == 1 else None,
    }
    if state.solo:
        result["adversary"] = {"shrine": SHRINES[state.adversary], "score": state.adversary_score,
                               "completed": [r.plan_id(c) for c in state.adversary_plans]}
    return result


def scenario_lines(outcome: ScenarioOutcome, cards, factions=None, phrases: dict = ENGLISH) -> list[str]:
    """The scenario's transcript (player names from the scenario), titled when it has a title."""
    names = [p.name for p in outcome.scenario.players]
    lines = transcript_lines(outcome.events, cards, factions, names, phrases)
    return ([outcome.scenario.title] if outcome.scenario.title else []) + lines


__all__ = ["SCENARIO_SCHEMA", "Scenario", "ScenarioError", "ScenarioOutcome", "ScenarioPlayer", "run_scenario",
           "scenario_from_data", "scenario_lines", "scenario_result", "parse_die", "AREA_INDEX"]
