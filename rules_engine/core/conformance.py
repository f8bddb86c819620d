"""The conformance kit: seeded random playthroughs that hold an engine to its contract (``pnp check-engine``).

In the spirit of OpenSpiel's random-simulation tests, every check here reads the engine through the
contract alone (:mod:`rules_engine.core.contract`, the state API of :class:`~rules_engine.core.state.State`)
and reports :class:`Finding` objects instead of raising, so an author sees every problem of a run at once:

* ``contract``: the names the engine exports have the types the contract gives them;
* ``play``: at every node of seeded random games (one per seed and player count) the seats to move are
  distinct seats, each mover has legal actions (hashable, none twice) and the others none, the checked
  ``apply_actions`` accepts what ``legal_actions`` listed, chance outcomes have probabilities summing to 1,
  ``random_action`` picks a legal action, and the game ends with ``returns()`` of 1 shared by the winners
  (or 0), a result the reports can use and no invariant broken (the state made with ``check=True``);
* ``bound``: every game ends within the engine's declared ``max_decisions`` (or pnp's limit);
* ``hidden``: a seat's view does not leak: a determinization for the seat looks the same to it
  (``information_state``, ``legal_actions``) and leaves the state as it was, a clone looks the same to
  every seat, and each bot of the engine chooses the same on the state and on a determinization for its
  seat (it reads nothing the seat cannot see);
* ``determinism``: the same seed plays the same game (events and returns) twice, through the core loop,
  the engine's own loop (``fast_play``) and rules sent to a worker (pickled);
* ``events``: every recorded event has a ``type`` that names a macro and JSON-ready ``data``;
* ``views``: ``table_view`` (when given) is JSON-ready; the engine's lab ``metrics`` are numbers it labels;
* ``data``: ``rules.max_players()`` covers the game's players, and every field range ``CARD_KEYS`` declares
  holds the range the game's deck declares and every card's value.

The languages of the game and its scenario files need pnp (templates, YAML): ``pnp.lab.conformance``
adds those checks. Nothing here imports pnp.
"""

from __future__ import annotations

import json
import math
import pickle
import random
import re
from typing import NamedTuple

from rules_engine.core import faults
from rules_engine.core.bots import RandomBot
from rules_engine.core.play import Engine, play_game

#: Decisions of a game whose hidden information is probed: all of the first ones, then one in STRIDE.
PROBED_FIRST, STRIDE = 24, 11
#: Findings kept per check (the rest are counted).
KEPT = 5
EVENT_TYPE = re.compile(r"^[a-z_][a-z0-9_]*$")


class Finding(NamedTuple):
    """One way the engine breaks its contract: the ``check`` it fails and what was seen, with the seed and
    player count of the game when a game showed it."""

    check: str
    message: str


class Findings:
    """Findings by check, at most :data:`KEPT` each (and how many more), plus what each check looked at."""

    def __init__(self):
        self.found: dict[str, list[str]] = {}
        self.more: dict[str, int] = {}
        self.looked: dict[str, int] = {}

    def add(self, check: str, message: str) -> None:
        kept = self.found.setdefault(check, [])
        if message in kept:
            return
        if len(kept) < KEPT:
            kept.append(message)
        else:
            self.more[check] = self.more.get(check, 0) + 1

    def saw(self, check: str, count: int = 1) -> None:
        self.looked[check] = self.looked.get(check, 0) + count

    def list(self) -> list[Finding]:
        out = [Finding(check, message) for check, messages in self.found.items() for message in messages]
        out += [Finding(check, f"... and {n} more") for check, n in self.more.items()]
        return out


def _dump(value) -> str | None:
    """Why ``value`` is not JSON-ready, or None."""
    try:
        json.dumps(value, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as exc:
        return str(exc)[:120]
    return None


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:59] + "\u2026"


def check_contract(module, found: Findings) -> None:
    """The exported names have the contract's types."""
    engine = getattr(module, "ENGINE", None)
    found.saw("contract")
    if not isinstance(engine, Engine):
        found.add("contract", f"ENGINE is {type(engine).__name__}, not a rules_engine.core.play.Engine")
        return
    players = getattr(module, "PLAYERS", engine.players)
    if not (isinstance(players, tuple) and len(players) == 2 and all(isinstance(p, int) for p in players)
            and 1 <= players[0] <= players[1]):
        found.add("contract", f"PLAYERS is {_short(players)}: expected (fewest, most), whole numbers from 1")
    for name in ("FACTS", "EFFECTS", "CARD_KEYS", "OPTIONS", "SCENARIO_SCHEMA", "BOTS"):
        value = getattr(module, name, {})
        if not hasattr(value, "items"):
            found.add("contract", f"{name} is {type(value).__name__}, not a mapping")
    bots = getattr(module, "BOTS", engine.bots)
    for name in getattr(module, "DEFAULT_BOTS", ("random",)):
        if name.partition(":")[0] not in bots:
            found.add("contract", f"DEFAULT_BOTS names '{name}', which BOTS does not have")
    for name, param in (getattr(module, "OPTIONS", {}) or {}).items():
        default = getattr(param, "default", None)
        if default is None:
            continue
        low, high = getattr(param, "min", None), getattr(param, "max", None)
        if (low is not None and default < low) or (high is not None and default > high):
            found.add("contract", f"OPTIONS['{name}']: its default {default} is outside {low}..{high}")
        choices = getattr(param, "choices", None)
        if choices and default not in choices:
            found.add("contract", f"OPTIONS['{name}']: its default {default!r} is not one of its choices")


def check_data(module, game, rules, found: Findings) -> None:
    """``max_players()`` against the game's players; the ranges of CARD_KEYS against the decks and cards."""
    engine = module.ENGINE
    low, high = tuple(getattr(module, "PLAYERS", engine.players))
    found.saw("data")
    try:
        most = rules.max_players()
    except Exception as exc:  # noqa: BLE001 - a finding, not a crash of the kit
        found.add("data", f"rules.max_players() raised {faults.raised(exc)}")
        most = None
    wanted = min(game.players[1], high)
    if isinstance(most, int) and most < wanted:
        found.add("data", f"rules.max_players() is {most} with these cards, but game.yaml's players go up to "
                          f"{game.players[1]} (and PLAYERS to {high})")
    if game.players[0] < low or game.players[1] > high:
        found.add("data", f"game.yaml's players {game.players[0]}-{game.players[1]} reach beyond the engine's "
                          f"PLAYERS {low}-{high}")
    for deck_id, keys in (getattr(module, "CARD_KEYS", {}) or {}).items():
        deck = next((d for d in getattr(game, "decks", ()) if d.id == deck_id), None)
        for key, param in keys.items():
            p_low, p_high, choices = getattr(param, "min", None), getattr(param, "max", None), \
                getattr(param, "choices", None)
            field = deck.field(key) if deck is not None and hasattr(deck, "field") else None
            if field is not None and (p_low is not None or p_high is not None):
                f_low, f_high = getattr(field, "min", None), getattr(field, "max", None)
                if (p_low is not None and (f_low is None or f_low < p_low)) or \
                        (p_high is not None and (f_high is None or f_high > p_high)):
                    found.add("data", f"deck '{deck_id}' declares {key} {_range(f_low, f_high)}, wider than the "
                                      f"engine reads it ({_range(p_low, p_high)})")
            for card in (deck.cards if deck is not None else ()):
                value = card.stats.get(key)
                if value is None:
                    continue
                if (p_low is not None and value < p_low) or (p_high is not None and value > p_high) or \
                        (choices and value not in choices):
                    found.add("data", f"card '{card.id}': {key} {value!r} is outside what the engine reads "
                                      f"({_range(p_low, p_high) if choices is None else ', '.join(map(str, choices))})")


def _range(low, high) -> str:
    return f"{'…' if low is None else low}..{'…' if high is None else high}"


class Playthrough(NamedTuple):
    """One seeded random game of the kit: its events (as dicts), returns and decisions."""

    players: int
    seed: int
    events: list
    returns: list
    decisions: int
    state: object


def _choose_chance(outcomes, rng):
    x = rng.random()
    for outcome, probability in outcomes:
        x -= probability
        if x < 0:
            return outcome
    return outcomes[-1][0]


def playthrough(module, rules, players: int, seed: int, found: Findings, own_bots: dict) -> Playthrough | None:
    """A random game played through the checked state API, every node checked (see the module docstring)."""
    engine = module.ENGINE
    where = f"{players} players, seed {seed}"
    try:
        state = engine.new_state(rules, players, record=True, check=True)
    except Exception as exc:  # noqa: BLE001
        found.add("play", f"{where}: new_state raised {faults.raised(exc)}")
        return None
    rng, probe = random.Random(seed), random.Random(seed + 7919)
    bound = faults.current().decisions_for(engine, rules, players, {})
    decisions = 0
    earlier = []                      # the legal actions of the decision before (for the is_legal check)
    try:
        while True:
            movers = list(state.to_move())
            if not movers:
                if state.is_chance():
                    outcomes = list(state.chance_outcomes())
                    total = sum(p for _, p in outcomes)
                    found.saw("play")
                    if not outcomes or not math.isclose(total, 1.0, abs_tol=1e-9) or min(p for _, p in outcomes) <= 0:
                        found.add("play", f"{where}: a chance node's outcomes have probabilities summing to "
                                          f"{total:.6f} ({len(outcomes)} outcomes); expected positive numbers "
                                          f"summing to 1")
                        return None
                    state.apply_chance(_choose_chance(outcomes, rng))
                    continue
                if not state.is_over:
                    found.add("play", f"{where}: after {decisions} decisions nobody is to move, no chance is pending "
                                      f"and the game is not over")
                    return None
                break
            if len(set(movers)) != len(movers) or any(not isinstance(p, int) or not 0 <= p < players
                                                      for p in movers):
                found.add("play", f"{where}: to_move() is {_short(movers)}; expected distinct seats 0..{players - 1}")
                return None
            decisions += len(movers)
            if decisions > bound:
                found.add("bound", f"{where}: the game did not end within {bound} decisions (the engine's "
                                   f"max_decisions, else pnp's limit)")
                return None
            joint = {}
            for p in movers:
                legal = list(state.legal_actions(p))
                found.saw("play")
                if not legal:
                    found.add("play", f"{where}: seat {p + 1} is to move but has no legal action")
                    return None
                try:
                    if len(set(legal)) != len(legal):
                        found.add("play", f"{where}: seat {p + 1}'s legal actions list one action twice")
                except TypeError:
                    found.add("play", f"{where}: seat {p + 1}'s legal actions are not hashable ({_short(legal[0])})")
                    return None
                words = state.action_to_string(p, legal[0])
                if not isinstance(words, str):
                    found.add("play", f"{where}: action_to_string gave {type(words).__name__}, not text")
                sampled = state.random_action(p, random.Random(probe.random()))
                if sampled not in legal:
                    found.add("play", f"{where}: random_action chose {_short(sampled)} for seat {p + 1}, which "
                                      f"is not among its legal actions")
                if decisions <= PROBED_FIRST or decisions % STRIDE == 0:
                    _probe_hidden(state, p, legal, probe, own_bots, where, found)
                joint[p] = legal[int(rng.random() * len(legal))]
                _check_is_legal(state, p, legal, joint[p], earlier, where, found)
                earlier = legal
            idle = next((q for q in range(players) if q not in movers), None)
            if idle is not None and list(state.legal_actions(idle)):
                found.add("play", f"{where}: seat {idle + 1} is not to move but has legal actions")
            state.apply_actions(joint)
    except Exception as exc:  # noqa: BLE001 - the engine broke: a finding with its place
        found.add("play", f"{where}: after {decisions} decisions the engine raised {faults.raised(exc)}")
        return None
    found.saw("bound")
    _check_end(module, state, players, where, found)
    events = _events(state, where, found)
    return Playthrough(players, seed, events, list(state.returns()), decisions, state)


def _check_is_legal(state, seat, legal, chosen, earlier, where, found) -> None:
    """The state's own legality check (``State.is_legal``, which the play loop checks bots' actions with)
    gives the list's answer: yes for the action chosen, no for the actions of the decision before that
    are not legal now (a few of them)."""
    is_legal = getattr(state, "is_legal", None)
    if is_legal is None:
        return
    if not is_legal(seat, chosen):
        found.add("play", f"{where}: is_legal says no to {_short(chosen)} for seat {seat + 1}, one of its legal "
                          f"actions")
        return
    for action in [a for a in earlier if a not in legal][:8]:
        if is_legal(seat, action):
            found.add("play", f"{where}: is_legal says yes to {_short(action)} for seat {seat + 1}, which is not "
                              f"among its legal actions")
            return


def _probe_hidden(state, seat, legal, probe, own_bots, where, found) -> None:
    """A seat's view does not leak (see the module docstring)."""
    found.saw("hidden")
    before = [state.information_state(p) for p in range(state.n)]
    mine = before[seat]
    clone = state.clone()
    if [clone.information_state(p) for p in range(state.n)] != before:
        found.add("hidden", f"{where}: a clone does not look like the state it copies to every seat")
    seen = random.Random(probe.random())
    try:
        other = state.determinize(seat, seen)
    except Exception as exc:  # noqa: BLE001
        found.add("hidden", f"{where}: determinize raised {faults.raised(exc)}")
        return
    if other.information_state(seat) != mine:
        found.add("hidden", f"{where}: a determinization for seat {seat + 1} changes what the seat knows "
                            f"(information_state): the seat's view holds something it cannot see, or "
                            f"determinize changes what it saw")
    if list(other.legal_actions(seat)) != legal:
        found.add("hidden", f"{where}: seat {seat + 1}'s legal actions differ in a determinization for it: they "
                            f"depend on what it cannot see")
    if [state.information_state(p) for p in range(state.n)] != before:
        found.add("hidden", f"{where}: determinize changed the state it was asked to copy")
    for name, bot in own_bots.items():
        draw = probe.random()
        try:
            here = bot.act(state.clone(), seat, random.Random(draw))
            there = bot.act(other, seat, random.Random(draw))
        except Exception as exc:  # noqa: BLE001
            found.add("hidden", f"{where}: bot '{name}' raised {faults.raised(exc)}")
            continue
        if here not in legal:
            found.add("hidden", f"{where}: bot '{name}' chose {_short(here)} for seat {seat + 1}, which is not "
                                f"among its legal actions")
        elif here != there:
            found.add("hidden", f"{where}: bot '{name}' chooses otherwise on a determinization for seat {seat + 1} "
                                f"({_short(here)}, then {_short(there)}): it reads what the seat cannot see")


def _check_end(module, state, players, where, found) -> None:
    if list(state.to_move()):
        found.add("play", f"{where}: the game is over but to_move() still names seats")
    returns = list(state.returns())
    total = sum(returns)
    if len(returns) != players or min(returns) < 0 or not (math.isclose(total, 1.0, abs_tol=1e-9)
                                                           or math.isclose(total, 0.0, abs_tol=1e-9)):
        found.add("play", f"{where}: returns() is {_short(returns)}; expected a number per seat, 1 shared by the "
                          f"winners or 0 for all")
    for violation in list(getattr(state, "violations", ()) or ())[:1]:
        found.add("play", f"{where}: invariant broken: {str(violation)[:160]}")
    names = ["random"] * players
    try:
        result = module.ENGINE.result(state, names)
        pickle.dumps(result)
        for key in ("winners", "bots", "length", "reason", "violations", "cards"):
            getattr(result, key)
        if not isinstance(result.length, int) or isinstance(result.length, bool):
            found.add("play", f"{where}: the result's length is {_short(result.length)}, not a whole number")
    except AttributeError as exc:
        found.add("play", f"{where}: the result has no {exc.name if hasattr(exc, 'name') else exc} (winners, bots, "
                          f"length, reason, violations, cards)")
    except Exception as exc:  # noqa: BLE001
        found.add("play", f"{where}: Engine.result raised {faults.raised(exc)} (or its result cannot be pickled)")
    progress = state.progress()
    if len(progress) not in (0, players):
        found.add("play", f"{where}: progress() gives {len(progress)} numbers for {players} seats")
    view = getattr(module, "table_view", None)
    if view is not None:
        found.saw("views")
        try:
            why = _dump(view(state))
        except Exception as exc:  # noqa: BLE001
            why = f"it raised {faults.raised(exc)}"
        if why:
            found.add("views", f"{where}: table_view of the final state is not JSON-ready: {why}")


def _events(state, where, found) -> list:
    out = []
    for e in getattr(state, "events", ()) or ():
        found.saw("events")
        kind, data = getattr(e, "type", None), getattr(e, "data", None)
        if not isinstance(kind, str) or not EVENT_TYPE.match(kind):
            found.add("events", f"{where}: an event's type is {_short(kind)}: expected a lower-case word (it names "
                                f"the macro of the game's event templates)")
            continue
        if not isinstance(data, dict):
            found.add("events", f"{where}: event '{kind}' has data {type(data).__name__}, not a dict")
            continue
        as_dict = e.as_dict() if hasattr(e, "as_dict") else {"type": kind, **data}
        why = _dump(as_dict)
        if why:
            found.add("events", f"{where}: event '{kind}' is not JSON-ready: {why}")
        out.append(as_dict)
    return out


def check_determinism(module, rules, players: int, seed: int, found: Findings) -> None:
    """The same seed plays the same game, whatever plays it."""
    engine = module.ENGINE
    where = f"{players} players, seed {seed}"
    found.saw("determinism")

    def game(bots, rules_=rules, generic=True):
        state = play_game(engine, rules_, bots, seed, players=players, record=True, generic=generic)
        return [e.as_dict() if hasattr(e, "as_dict") else (e.type, e.data) for e in state.events], \
            list(state.returns())

    try:
        first = game(["random"])                   # the second time with rules as a worker gets them
        if game(["random"], pickle.loads(pickle.dumps(rules))) != first:
            found.add("determinism", f"{where}: the same seed played two different games (the second with "
                                     f"the rules pickled, as a worker process gets them)")
        fast = [name for name, factory in engine.bots.items() if getattr(_made(engine, name), "fast", False)]
        if engine.fast_play is not None and fast:
            bots = [fast[i % len(fast)] for i in range(players)]
            if game(bots, generic=False) != game(bots, generic=True):
                found.add("determinism", f"{where}: the engine's own loop (fast_play) plays another game than the "
                                         f"core loop with bots {', '.join(bots)}")
    except faults.GameFault as fault:
        found.add("determinism", f"{where}: {fault.culprit()} {fault.detail}")
    except Exception as exc:  # noqa: BLE001
        found.add("determinism", f"{where}: {faults.raised(exc)}")


def _made(engine, name):
    try:
        return engine.make_bot(name)
    except Exception:  # noqa: BLE001 - a bot that needs an argument
        return None


def own_bots(engine) -> dict:
    """The engine's bots the hidden-information check asks (all but the search bot, which only ever
    plays determinizations, and pnp's random bot)."""
    out = {}
    for name in engine.bots:
        if name == "search":
            continue
        bot = _made(engine, name)
        if bot is not None and type(bot) is not RandomBot:
            out[name] = bot
    return out


def check_metrics(module, rules, runs_: list, found: Findings) -> None:
    """``Engine.metrics`` of finished games: numbers, each labelled by ``metric_labels``."""
    engine = module.ENGINE
    if engine.metrics is None:
        return
    labels = engine.metric_labels(rules) if callable(engine.metric_labels) else engine.metric_labels
    for run in runs_:
        found.saw("views")
        try:
            values = engine.metrics(engine.result(run.state, ["random"] * run.players), rules)
        except Exception as exc:  # noqa: BLE001
            found.add("views", f"{run.players} players, seed {run.seed}: metrics raised {faults.raised(exc)}")
            continue
        for key, value in values.items():
            if key not in labels:
                found.add("views", f"metric '{key}' has no label in metric_labels")
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                found.add("views", f"metric '{key}' is {_short(value)}, not a number")


def player_counts(module, game, rules) -> list[int]:
    """The player counts the kit plays: those of the game that the engine's PLAYERS and the cards allow."""
    low, high = tuple(getattr(module, "PLAYERS", module.ENGINE.players))
    try:
        most = rules.max_players()
    except Exception:  # noqa: BLE001 - reported by check_data
        most = high
    return [n for n in range(max(low, game.players[0]), min(high, game.players[1], most) + 1)]


def check_engine(module, game, *, games: int = 2, seed: int = 0) -> tuple[list[Finding], dict]:
    """Every engine check of the kit on ``game`` (``games`` seeded random games per player count):
    ``(findings, what was looked at)``; the playthroughs are in ``looked["runs"]``."""
    found = Findings()
    check_contract(module, found)
    if "contract" in found.found and any("ENGINE" in m for m in found.found["contract"]):
        return found.list(), {"looked": found.looked, "runs": []}
    try:
        rules = module.rules_for(game)
    except Exception as exc:  # noqa: BLE001
        found.add("contract", f"rules_for raised {faults.raised(exc)}")
        return found.list(), {"looked": found.looked, "runs": []}
    check_data(module, game, rules, found)
    bots = own_bots(module.ENGINE)
    runs_ = []
    for players in player_counts(module, game, rules):
        for k in range(games):
            run = playthrough(module, rules, players, seed + k, found, bots)
            if run is not None:
                runs_.append(run)
        check_determinism(module, rules, players, seed, found)
    check_metrics(module, rules, runs_, found)
    return found.list(), {"looked": found.looked, "runs": runs_, "rules": rules}
