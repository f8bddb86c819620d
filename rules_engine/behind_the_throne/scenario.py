"""Scenarios: a fixed deck order and the players' decisions, for tests, examples and the rulebook.

:func:`scenario_from_data` turns the plain data of a scenario file (``docs/scenarios.md``; ``pnp`` has
already checked its shape against :data:`SCENARIO_SCHEMA`) into a :class:`Scenario`, reporting every
problem as ``(where, message)`` with ``where`` a path like ``turns[2][3]``. It also plays the scenario
once, so a decision that is not legal when its turn comes is reported with its place in the file.
:func:`run_scenario` plays it through the same :class:`~rules_engine.behind_the_throne.state.GameState`
as real games and returns the outcome: the final state, the events and the JSON-ready result.

RULING (scenarios): cards the file does not place (in stacks, on the deck or in the discard pile) are
shuffled with ``seed`` and go under the listed top of the deck (``rest: below``) or into the discard
pile (``rest: discard``: the listed cards are the whole deck). The End of Game card starts in the
discard pile unless the file puts it in the deck. Turns go round the table from ``first``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from rules_engine.behind_the_throne.rules import MAX_PLAYERS, MAX_STACKS, ROW_LIMIT, STACK_LIMIT, Rules
from rules_engine.behind_the_throne.state import (BUST_ACTION, DISCARD_STACK, REVEAL_ACTION, STOP_ACTION, Action,
                                                  GameState, _shuffle)
from rules_engine.behind_the_throne.state import DESTROY as DESTROY_VERB
from rules_engine.behind_the_throne.state import SWAP as SWAP_VERB
from rules_engine.behind_the_throne.state import USE as USE_VERB
from rules_engine.behind_the_throne.transcript import ENGLISH, transcript_lines
from rules_engine.core.scenario import Refused as _Refused
from rules_engine.core.scenario import ScenarioError, read_players, replay_turns, suggest
from rules_engine.protocol import Spec

WORDS = ("reveal", "stop", "bust")
VERB_KEYS = ("do", "use", "destroy", "swap", "discard")
RESTS = ("below", "discard")

DECISION_SCHEMA = Spec("map", shorthand="do", doc="a decision word (reveal, stop, bust) or a mapping "
                       "such as {use: general} or {destroy: alchemist, from: Ben}", schema={
                           "do": Spec("str", nullable=True, doc="reveal, stop or bust"),
                           "use": Spec("str", nullable=True, doc="character whose ability is used"),
                           "change": Spec("int", nullable=True, min=-9, max=9, doc="value change (the Jester: 1 or -1)"),
                           "via": Spec("str", nullable=True, doc="character that allows the use (the Judge)"),
                           "destroy": Spec("str", nullable=True, doc="character destroyed"),
                           "swap": Spec("str", nullable=True, doc="character taken for the row"),
                           "from": Spec("str", nullable=True, doc="player who loses the card"),
                           "discard": Spec("str", nullable=True, doc="stack discarded"),
                       })

SCENARIO_SCHEMA = {
    "title": Spec("str", default="", doc="shown above the transcript"),
    "seed": Spec("int", default=0, min=0, doc="shuffles the cards the file does not place"),
    "players": Spec("list", required=True, doc="seating order", items=Spec(
        "map", shorthand="name", doc="a player name or a mapping with 'name' (and 'stacks')", schema={
            "name": Spec("str", required=True),
            "stacks": Spec("dict", default={}, items=Spec("int", min=1, max=STACK_LIMIT),
                           doc="card id -> cards already collected"),
        })),
    "first": Spec("str", nullable=True, doc="who takes the first turn (default: the first player)"),
    "deck": Spec("list", default=[], items=Spec("str"), doc="the top of the deck, first card first"),
    "rest": Spec("str", default="below", choices=RESTS, doc="where the cards not placed go"),
    "discard": Spec("list", default=[], items=Spec("str"), doc="cards in the discard pile"),
    "turns": Spec("list", default=[], items=Spec("list", items=DECISION_SCHEMA),
                  doc="one list of decisions per turn, in turn order"),
}


@dataclass(frozen=True)
class ScenarioPlayer:
    """A player of a scenario: the name and the stacks already collected (card id, count)."""

    name: str
    stacks: tuple = ()             # ((card id, count), ...)


@dataclass(frozen=True)
class Decision:
    """One decision: ``verb`` is reveal, stop, bust, use, destroy, swap or discard."""

    verb: str
    card: str | None = None
    owner: str | None = None       # the player whose card is destroyed or taken
    change: int | None = None
    via: str | None = None


@dataclass(frozen=True)
class Scenario:
    """A checked scenario: the players, the deck and discard pile, who starts, the seed and every turn's
    decisions."""

    players: tuple                 # ScenarioPlayer, in seating order
    turns: tuple = ()              # per turn, a tuple of Decision
    deck: tuple = ()               # card ids from the top
    rest: str = "below"
    discard: tuple = ()
    first: str | None = None
    seed: int = 0
    title: str = ""
    copies: tuple | None = None    # ((card id, copies), ...) of this table's deck


@dataclass
class ScenarioOutcome:
    """A scenario played through: the final state, the events (when recorded) and the JSON-ready result."""

    scenario: Scenario
    state: GameState
    events: list
    result: dict = field(default_factory=dict)


_suggest = suggest


# ---------------------------------------------------------------------------------------- building


def scenario_from_data(rules: Rules, data: dict, players=(1, MAX_PLAYERS)):
    """``(scenario, [])`` from a scenario file's data, or ``(None, problems)``."""
    problems = []
    add = problems.append
    known = list(rules.index)
    end_id = rules.kind_id(rules.end_kind)

    plist, names, found = read_players(
        data, players, lambda name, item: ScenarioPlayer(name, tuple((str(k), v) for k, v in
                                                                    (item.get("stacks") or {}).items())),
        MAX_PLAYERS)
    problems.extend(found)
    copies = rules.copies(len(plist) or None)
    table = f"the {len(plist)}-player deck" if rules.copies(len(plist) or None) != rules.copies() else "the deck"
    used = {}

    def use(card_id, where, times=1):
        if card_id not in rules.index:
            add((where, f"unknown card {card_id!r}{_suggest(card_id, known)}"))
            return False
        used[card_id] = used.get(card_id, 0) + times
        if used[card_id] > copies[card_id]:
            add((where, f"{card_id!r} is used {used[card_id]} times; {table} has {copies[card_id]}"))
        return True

    for i, player in enumerate(plist, start=1):
        if len(player.stacks) > MAX_STACKS:
            add((f"players[{i}].stacks", f"{len(player.stacks)} stacks; a player holds at most {MAX_STACKS}"))
        for card_id, count in player.stacks:
            where = f"players[{i}].stacks.{card_id}"
            if card_id == end_id:
                add((where, "the End of Game card cannot be in a stack"))
            elif use(card_id, where, count) and not 1 <= count <= STACK_LIMIT:
                add((where, f"{count} cards; a stack holds 1 to {STACK_LIMIT}"))
    for key in ("discard", "deck"):
        for j, card_id in enumerate(data.get(key) or [], start=1):
            use(str(card_id), f"{key}[{j}]")
    rest = data.get("rest") or "below"
    if rest not in RESTS:
        add(("rest", f"{rest!r} is not one of: {', '.join(RESTS)}"))
    first = data.get("first")
    if first is not None and first not in names:
        add(("first", f"unknown player {first!r}; players are: {', '.join(names)}"))

    turns = []
    for i, turn in enumerate(data.get("turns") or [], start=1):
        if not isinstance(turn, (list, tuple)):
            add((f"turns[{i}]", "expected a list of decisions"))
            continue
        if not turn:
            add((f"turns[{i}]", "a turn needs at least one decision"))
            continue
        decisions = []
        for j, raw in enumerate(turn, start=1):
            decision = _decision(raw, f"turns[{i}][{j}]", rules, names, add)
            if decision is not None:
                decisions.append(decision)
        turns.append(tuple(decisions))
    if problems:
        return None, problems
    scenario = Scenario(players=tuple(plist), turns=tuple(turns), deck=tuple(map(str, data.get("deck") or ())),
                        rest=rest, discard=tuple(map(str, data.get("discard") or ())), first=first,
                        seed=data.get("seed") or 0, title=data.get("title") or "",
                        copies=tuple(sorted(copies.items())))
    try:
        _play(rules, scenario, record=False, check=False)
    except _Refused as refused:
        return None, [(refused.where, refused.message)]
    return scenario, []


def _decision(raw, where, rules, names, add):
    """A :class:`Decision` from a word or a mapping, or None after reporting the problem."""
    if isinstance(raw, Decision):
        return raw
    if isinstance(raw, str):
        raw = {"do": raw}
    if not isinstance(raw, dict):
        add((where, "expected a decision word (reveal, stop, bust) or a mapping"))
        return None
    verbs = [k for k in VERB_KEYS if raw.get(k) is not None]
    if len(verbs) != 1:
        add((where, "give exactly one of: " + ", ".join(VERB_KEYS[1:]) + (" (or a word)" if not verbs else
                                                                         f" (found {', '.join(verbs)})")))
        return None
    verb = verbs[0]
    allowed = {"do": (), "use": ("change", "via"), "destroy": ("from",), "swap": ("from",), "discard": ()}[verb]
    extra = [k for k in ("change", "via", "from") if raw.get(k) is not None and k not in allowed]
    if extra:
        add((where, f"'{extra[0]}' does not go with '{verb}'"))
        return None
    if verb == "do":
        word = str(raw["do"])
        if word not in WORDS:
            add((where, f"unknown decision {word!r}{_suggest(word, WORDS)}; expected reveal, stop, bust "
                        "or a mapping with use, destroy, swap or discard"))
            return None
        return Decision(word)
    ok = True
    for key in (verb, "via"):
        card_id = raw.get(key)
        if card_id is not None and str(card_id) not in rules.index:
            add((f"{where}.{key}" if key == "via" else where,
                 f"unknown card {card_id!r}{_suggest(card_id, rules.index)}"))
            ok = False
    owner = raw.get("from")
    if verb in ("destroy", "swap"):
        if owner is None:
            add((where, f"'{verb}' needs 'from': the player whose card it is"))
            ok = False
        elif str(owner) not in names:
            add((f"{where}.from", f"unknown player {owner!r}; players are: {', '.join(names)}"))
            ok = False
    if not ok:
        return None
    return Decision(verb, str(raw[verb]), str(owner) if owner is not None else None, raw.get("change"),
                    str(raw["via"]) if raw.get("via") is not None else None)


# ---------------------------------------------------------------------------------------- playing


def _setup(rules: Rules, scenario: Scenario, record: bool, check: bool) -> GameState:
    n = len(scenario.players)
    copies = dict(scenario.copies) if scenario.copies else rules.copies(n)
    free = {cid: list(rules.copies_of[cid][:count]) for cid, count in copies.items()}
    cards = [c for numbers in free.values() for c in numbers]
    stacks = [[free[cid].pop(0) for cid, count in p.stacks for _ in range(count)] for p in scenario.players]
    discard = [free[cid].pop(0) for cid in scenario.discard]
    top = [free[cid].pop(0) for cid in scenario.deck]
    end = rules.end_card
    rest = [c for numbers in free.values() for c in numbers if c != end]
    _shuffle(rest, random.Random(scenario.seed).random)
    start = [end] if end not in discard and end not in top else []
    if scenario.rest == "discard":
        deck, discard = top, start + discard + rest
    else:
        deck, discard = top + rest, start + discard
    names = [p.name for p in scenario.players]
    first = names.index(scenario.first) if scenario.first else 0
    return GameState.setup(rules, n, cards=cards, stacks=stacks, deck=deck, discard=discard, first=first,
                           seed=scenario.seed, record=record, check=check)


def _play(rules: Rules, scenario: Scenario, *, record: bool, check: bool) -> GameState:
    state = _setup(rules, scenario, record, check)
    names = [p.name for p in scenario.players]
    return replay_turns(state, scenario.turns, turn=lambda s: s.turn, seat=lambda s: names[s.active],
                        play=lambda s, decision, where, _: s.step(_action(s, decision, names, where)),
                        possible=lambda s: _possible(s, names))


def describe(state: GameState, action: Action, names) -> str:
    """An action in the scenario file's own words, e.g. ``{destroy: alchemist, from: Ben}``."""
    r = state.rules
    v = action.verb
    if v in WORDS:
        return v
    card = r.kind_id(action.kind)
    if v == USE_VERB:
        parts = [f"use: {card}"]
        if r.shift[action.kind]:
            parts.append(f"change: {action.delta:+d}")
        if action.via >= 0:
            parts.append(f"via: {r.kind_id(action.via)}")
        return "{" + ", ".join(parts) + "}"
    if v in (DESTROY_VERB, SWAP_VERB):
        return f"{{{v}: {card}, from: {names[action.seat]}}}"
    return f"{{discard: {card}}}"


def _possible(state, names) -> str:
    return ", ".join(describe(state, a, names) for a in state.legal_actions()) or "nothing"


def _action(state: GameState, d: Decision, names, where) -> Action:
    """The legal action a decision stands for, or :class:`_Refused` saying why it is not legal now."""
    r = state.rules
    legal = state.legal_actions()
    who = names[state.current_player()]

    def refuse(reason):
        raise _Refused(where, f"{reason}; possible now: {_possible(state, names)}")

    if d.verb in WORDS:
        action = {"reveal": REVEAL_ACTION, "stop": STOP_ACTION, "bust": BUST_ACTION}[d.verb]
        if action not in legal:
            refuse(f"{who} cannot {d.verb} now" + _why_not_word(state, d.verb))
        return action
    k = r.index[d.card]
    name = r.cards[k].name
    if d.verb == "discard":
        action = Action(DISCARD_STACK, k)
        if action not in legal:
            refuse(f"{who} has no {name} stack to discard" if state.phase == "discard"
                   else "nobody has more than five stacks to discard from")
        return action
    if d.verb in ("destroy", "swap"):
        q = names.index(d.owner)
        action = Action(DESTROY_VERB if d.verb == "destroy" else SWAP_VERB, k, q)
        if action not in legal:
            refuse(_why_not_target(state, d.verb, q, k, names))
        return action
    # use
    via = r.index[d.via] if d.via is not None else -1
    if r.reuse[k]:
        refuse(f"the {name} lends another ability: write it as {{use: CHARACTER, via: {d.card}}}")
    if r.peek[k] or r.reuse[k] or r.category[k] != "manipulative":
        delta = 0
    elif r.lower[k]:
        delta = -r.lower[k]
        if d.change is not None and d.change != delta:
            refuse(f"the {name} lowers the value by {r.lower[k]}: change must be {delta}")
    else:
        if d.change not in (r.shift[k], -r.shift[k]):
            refuse(f"say how the {name} changes the value: change: {r.shift[k]} or {-r.shift[k]}")
        delta = d.change
    action = Action(USE_VERB, k, delta=delta, via=via)
    if action not in legal:
        if via < 0 and any(a.verb == USE_VERB and a.kind == k and a.delta == delta for a in legal):
            refuse(f"{who} can use the {name} only through another ability (add 'via')")
        refuse(f"{who} cannot use the {name} now" + _why_not_use(state, k, via))
    return action


def _why_not_word(state, word) -> str:
    if state.phase == "discard":
        return ": a stack must be discarded first"
    if word == "reveal" and state.busting:
        return ": the last card is higher than the one before it"
    if word == "reveal":
        return ": the row already holds five cards"
    if word == "stop" and state.busting:
        return ": the last card is higher than the one before it"
    if word == "stop":
        return ": nothing has been revealed yet"
    return ": the last card is not higher than the one before it"


def _why_not_use(state, k, via) -> str:
    r = state.rules
    p = state.active
    if r.category[k] != "manipulative":
        return f": the {r.cards[k].name} has no ability a player uses in their turn"
    if k not in state.stacks[p]:
        return f" without a {r.cards[k].name} stack"
    if via >= 0 and not r.reuse[via]:
        return f": the {r.cards[via].name} does not let another ability be used"
    if via >= 0 and not state.ready(p, via):
        return f": the {r.cards[via].name} is not available (used, or not the largest stack)"
    if k in state.used:
        return ": it was already used this turn"
    if not state.leads(p, k):
        return ": another player holds a larger stack"
    if r.peek[k]:
        return ": the top card is already known, or no card can be revealed"
    return ": values change only once the row holds two cards"


def _why_not_target(state, verb, q, k, names) -> str:
    r = state.rules
    name, owner = r.cards[k].name, names[q]
    if state.phase != "turn":
        return f"no {verb} now: a stack must be discarded first"
    if verb == "destroy":
        if len(state.row) < 2 or state.cur != state.prev:
            return "a card can be destroyed only when the last card equals the one before it"
        if state.destroy_done:
            return "this card has already been used to destroy"
        if not state.destroy_allowed():
            return f"{names[state.active]}'s row is too short for the Queens they hold"
        if q in state.targeted:
            return f"{owner} has already lost a card this turn"
    else:
        if state.busting:
            return "the row busts: nothing can be swapped"
        if not state.row:
            return "nothing has been revealed yet"
        if len(state.row) >= ROW_LIMIT:
            return "a row of five cards is collected, not swapped"
        if not state.swap_allowed():
            return f"{names[state.active]}'s row is too short for the Kings they hold"
        if q == state.active:
            return "a player swaps with another player"
    if k not in state.stacks[q]:
        return f"{owner} has no {name}"
    shields = r.shield_destroy if verb == "destroy" else r.shield_swap
    guard = [s for s in shields if state.leads(q, s)]
    if guard and q != state.active:
        return f"{owner} holds the largest {r.cards[guard[0]].name} stack: only a {r.cards[guard[0]].name} can be taken"
    return f"{names[state.active]} cannot {verb} {owner}'s {name} now"


def run_scenario(rules: Rules, scenario: Scenario, *, record: bool = True, check: bool = True) -> ScenarioOutcome:
    """Play the scenario; raise :class:`ScenarioError` when it cannot be played."""
    try:
        state = _play(rules, scenario, record=True, check=check)
    except _Refused as refused:
        raise ScenarioError([(refused.where, refused.message)]) from None
    names = [p.name for p in scenario.players]
    events = list(state.events)
    if events and events[-1].type == "turn_start":
        events.pop()                      # the next player's turn, which the scenario does not play
    outcome = ScenarioOutcome(scenario, state, events if record else [])
    outcome.result = scenario_result(state, names, events)
    return outcome


def scenario_result(state: GameState, names, events=None) -> dict:
    """The outcome in the shape ``pnp scenario --json`` prints (see docs/scenarios.md)."""
    r = state.rules
    scores = {name: state.score(p) for p, name in enumerate(names)}
    players = {}
    for p, name in enumerate(names):
        players[name] = {"stacks": state.stack_counts(p), "score": scores[name],
                         "abilities": [r.kind_id(k) for k in r.manipulative + r.protective if state.leads(p, k)]}
    turns = []
    for event in state.events if events is None else events:
        d = event.data
        if event.type == "turn_start":
            turns.append({"turn": event.turn, "player": names[d["player"]], "revealed": [], "abilities": [],
                          "destroyed": [], "end": None, "took": None, "discarded": []})
            continue
        if not turns:
            continue
        t = turns[-1]
        if event.type == "reveal":
            t["revealed"].append(d["card"])
        elif event.type == "peek":
            t["abilities"].append({"card": d["card"], "via": d["via"], "seen": d["seen"]})
        elif event.type == "ability":
            t["abilities"].append({"card": d["card"], "via": d["via"], "row_card": d["row_card"],
                                   "before": d["before"], "after": d["after"]})
        elif event.type == "destroy":
            t["destroyed"].append({"card": d["card"], "owner": names[d["target"]]})
        elif event.type in ("bust", "collect"):
            t["end"] = event.type
        elif event.type == "swap":
            t["end"] = "swap"
            t["took"] = {"card": d["card"], "from": names[d["target"]]}
        elif event.type == "end_card":
            t["revealed"].append(r.kind_id(r.end_kind))
            t["end"] = "end_card"
        elif event.type == "discard_stack":
            t["discarded"].append({"player": names[d["player"]], "cards": [d["card"]] * d["count"]})
        elif event.type == "overflow":
            t["discarded"].append({"player": names[d["player"]], "cards": d["cards"]})
    over = state.is_over
    winners = [names[p] for p in state.winners] if over else []
    return {
        "players": players,
        "scores": scores,
        "turns": turns,
        "deck": len(state.deck),
        "discard": len(state.discard),
        "game_over": over,
        "winners": winners,
        "winner": winners[0] if len(winners) == 1 else None,
    }


def scenario_lines(outcome: ScenarioOutcome, cards, factions=None, phrases: dict = ENGLISH) -> list[str]:
    """The scenario's transcript (player names from the scenario), titled when it has a title."""
    names = [p.name for p in outcome.scenario.players]
    lines = transcript_lines(outcome.events, cards, factions, names, phrases)
    return ([outcome.scenario.title] if outcome.scenario.title else []) + lines
