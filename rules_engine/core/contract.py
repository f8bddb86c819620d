"""The engine contract: what a rules engine gives pnp, typed, and what pnp supplies when it gives less.

An engine is a Python module (or an object) registered in the entry-point group ``pnp.engines``. It
writes the **rules** and pnp does the rest: the contract needs two names, ``ENGINE`` (an
:class:`~rules_engine.core.play.Engine`: how a game starts, who plays it) and ``rules_for(game)``; every
other name of :data:`HOOKS` is optional, and :class:`EngineAPI` supplies the default for each one an
engine leaves out (the play loop, seeded runs, a report, a transcript, no scenarios). docs/engine.md,
"The engine contract", is this module in words; ``tests/test_engine_contract.py`` checks that its table
lists :data:`HOOKS` as they are.

The typed parts (``typing.Protocol``): :class:`Rules` (what ``rules_for`` returns), the game state (the
abstract class :class:`~rules_engine.core.state.State`), :class:`Event` (what a recorded game holds, for
transcripts, the rulebook's examples and ``--json``), :class:`Result` (one finished game, for reports),
:class:`Bot`, :class:`ScenarioOutcome`, and :class:`EngineModule`, the module itself. A problem the
``validate_game`` hook reports is a :class:`Problem`, which names the card, the deck or the game.yaml key
it is about so that pnp prints it at that file and line.

pnp reaches an engine through :func:`engine_named` (``EngineAPI(engine_module(name))``): the module's names,
the defaults, and every hook guarded: what a hook of an engine outside pnp raises (beyond the refusals
the hook is documented to raise) becomes :class:`EngineFault`, one line naming the engine and the hook.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, Callable, Hashable, Mapping, NamedTuple, Protocol, Sequence, runtime_checkable

from rules_engine.core.faults import EngineFault, GameFault
from rules_engine.core import play as core_play
from rules_engine.core.play import DefaultResult, Engine, default_result


# ------------------------------------------------------------------------------------------------- the types

@runtime_checkable
class Rules(Protocol):
    """What ``rules_for(game)`` returns: the game's cards and numbers compiled once for fast play (any
    object; pnp only asks it for the largest table). It is pickled to worker processes."""

    def max_players(self) -> int:
        """The most seats these cards can play (a deck of 12 cards dealt 3 each seats at most 4). pnp
        validate checks it against game.yaml's ``players``."""


@runtime_checkable
class Event(Protocol):
    """One thing that happened in a recorded game (``new_state(..., record=True)`` appends them to
    ``state.events``). A ``typing.NamedTuple`` with at least:

    * ``type``: a word naming what happened (``card_played``); the game's event templates
      (``templates/events/<lang>.j2``) have one macro of that name, which says it in words;
    * ``data``: a dict of JSON-ready values that name things by id: ``player`` (a seat, from 0), ``card``
      (a card id), ``cards``, ``faction``...; the macro reads them as ``e.player``, ``e.card``.

    Other fields are numbers that place the event in the game (``round``, ``wave``); the macro reads them
    too. ``battle``, when an engine's events carry it, numbers the part of the game (a battle, a round) the
    event belongs to: rulebook.yaml's ``battle: {battle: N}`` prints the events whose ``battle`` is N.
    ``as_dict()`` is the event as JSON (``pnp replay --json``): its fields and its data in one mapping."""

    type: str
    data: dict

    def as_dict(self) -> dict: ...


class GameEvent(NamedTuple):
    """A ready-made :class:`Event`: ``GameEvent("card_played", {"player": 0, "card": "spark"}, battle=2)``."""

    type: str
    data: dict
    battle: int | None = None

    def as_dict(self) -> dict:
        out = {"type": self.type, **self.data}
        if self.battle is not None:
            out["battle"] = self.battle
        return out


@runtime_checkable
class Result(Protocol):
    """``Engine.result(state, seat_bot_names)``: one finished game, small and picklable (workers send it
    back). ``winners`` are seats (a tie: several, nobody: empty), ``bots`` the seats' bot names, ``length``
    the game's length in ``Engine.length_unit``, ``reason`` how it ended (a word; one of
    ``Engine.timeouts`` for a safety stop), ``violations`` the invariants broken, ``cards`` per seat the
    card ids it played or owned (``Engine.card_usage``)."""

    winners: tuple
    bots: tuple
    length: int
    reason: str
    violations: tuple
    cards: tuple


@runtime_checkable
class Bot(Protocol):
    """A player: ``act(state, seat, rng)`` returns one of ``state.legal_actions(seat)``, chosen from what
    that seat may know; ``rng`` is the game's generator. ``name`` is the spec it was made from. A bot with
    ``fast = True`` may be played by the engine's own loop (``Engine.fast_play``)."""

    name: str

    def act(self, state, seat: int, rng) -> Hashable: ...


@runtime_checkable
class ScenarioOutcome(Protocol):
    """``run_scenario(rules, scenario)``: ``scenario`` (``.title``, ``.players[i].name``), the final
    ``state`` (``.violations``), its ``events`` and ``result``, the ``--json`` dict (``players``,
    ``winner``, ``game_over``)."""

    scenario: Any
    state: Any
    events: list
    result: dict


class Problem(NamedTuple):
    """A problem the ``validate_game`` hook finds, placed where the data says it: at ``card`` (an id: the
    card's line; with ``field``, the line of that field when the file gives it), at ``deck`` (its
    game.yaml entry), at ``key`` (a top-level key of game.yaml: ``players``, ``engine``), else at
    game.yaml's ``engine:`` line. The hook may also give ``(subject, message, warning)``, placed at the
    card when ``subject`` is ``card 'ID'``."""

    message: str
    card: str | None = None
    field: str | None = None
    deck: str | None = None
    key: str | None = None
    warning: bool = False


class EngineModule(Protocol):
    """The names an engine module exports (see :data:`HOOKS` for each one's arguments, return, when pnp
    calls it and its default). ``ENGINE`` and ``rules_for`` are required."""

    ENGINE: Any                    # rules_engine.core.play.Engine

    def rules_for(self, game) -> Rules: ...


# ------------------------------------------------------------------------------------------------- the hooks

@dataclass(frozen=True)
class Hook:
    """One name of the contract: what it is (``signature`` and ``returns``), when pnp uses it, and what
    pnp does when an engine leaves it out (``default``; ``required`` names have none). ``refuses``: the
    exception the hook raises on purpose to refuse its input (passed on as it is, never an EngineFault)."""

    name: str
    signature: str
    returns: str
    when: str
    default: str = ""
    required: bool = False
    refuses: tuple = ()


HOOKS: dict[str, Hook] = {h.name: h for h in [
    Hook("ENGINE", "Engine(name, new_state, players=(fewest, most), ...)", "rules_engine.core.play.Engine",
         "every game: new_state(rules, players, *, record, check, **options) makes one at its first node, "
         "result(state, seat bots) sums a finished one up; the other fields are optional (below)",
         required=True),
    Hook("rules_for", "rules_for(game)", "rules: any picklable object with max_players()",
         "once per game pnp plays or checks (validate, simulate, balance, lab, replay, scenario, the rulebook, "
         "a variant); a ValueError refuses the data: an error at the card it names (\"card 'ID': ...\")",
         required=True, refuses=(ValueError,)),
    Hook("PLAYERS", "(fewest, most)", "tuple of 2 whole numbers",
         "simulate, balance, lab, replay and check-engine refuse other counts", "ENGINE.players"),
    Hook("FACTS", "{name: value}", "dict", "the rulebook and card text quote the numbers", "{}"),
    Hook("EFFECTS", "{kind: EffectKind}", "dict of rules_engine.model.cards.EffectKind",
         "validate checks every card's ability (its kind, step and parameters)", "{}: no abilities"),
    Hook("CARD_KEYS", "{deck id: {field: Param}}", "dict of rules_engine.model.cards.Param",
         "validate checks each deck declares the field with the type, every card gives a required one, and "
         "every card's value lies in the Param's min..max or choices (an error at the card's line)", "{}"),
    Hook("OPTIONS", "{name: Param}", "dict of rules_engine.model.cards.Param",
         "-o NAME=VALUE, a variant's parameters, lab tune --param; passed to new_state as keywords", "{}"),
    Hook("BOTS", "{name: factory(arg=None) -> Bot}", "dict (rules_engine.core.bots.registry)",
         "--bots NAME[:ARG]", "ENGINE.bots"),
    Hook("DEFAULT_BOTS", "(name, ...)", "tuple of bot names", "when --bots is not given", "(\"random\",)"),
    Hook("SCENARIO_SCHEMA", "{key: Spec}", "dict of rules_engine.protocol.Spec",
         "pnp checks a scenario file's keys (types, ranges, unknown keys) before scenario_from_data", "{}"),
    Hook("validate_game", "validate_game(game)", "[Problem] (or (subject, message, warning) triples)",
         "pnp validate and build, after the data's own checks; keep it under a second",
         "2 invariant-checked games with random bots at each player count of the game"),
    Hook("scenario_from_data", "scenario_from_data(rules, data, players=(lo, hi))",
         "(scenario, []) or (None, [(where, message[, at])])",
         "pnp scenario and the rulebook's examples, with the file's checked data (game: removed)",
         "(None, [\"the rules engine ... plays no scenarios\"])"),
    Hook("run_scenario", "run_scenario(rules, scenario)", "outcome: .scenario, .state, .events, .result",
         "after scenario_from_data; a ValueError refuses a decision (its message at the file)",
         "a ValueError: no scenarios", refuses=(ValueError,)),
    Hook("scenario_lines", "scenario_lines(outcome, cards, factions=None)", "[str]",
         "pnp scenario prints them", "the title, then the outcome's events as the transcript says them"),
    Hook("transcript_lines", "transcript_lines(events, cards, factions, names)", "[str]",
         "simulate --transcript, replay, the studio's replays; the rulebook's examples of a game without "
         "event templates",
         "the game's event templates (templates/events/<lang>.j2), a line per event; without them each "
         "event's type and data"),
    Hook("play_game", "play_game(rules, bots, seed, *, players=None, record=False, check=False, **options)",
         "the final state", "pnp replay, the rulebook's battle",
         "rules_engine.core.play.play_game(ENGINE, ...)", refuses=(ValueError,)),
    Hook("recorded_game", "recorded_game(rules, *, seed, players, bots, check=False, **options)",
         "(seat bot names, final state)", "simulate --transcript", "game 0 of the run, recorded",
         refuses=(ValueError,)),
    Hook("simulate", "simulate(rules, *, games, seed, players, bots, jobs=1, check=False, progress=None, "
                     "executor=None, **options)",
         "dict with games, players, seed, bots and invariants {checked, broken, examples}", "pnp simulate",
         "seeded runs: wins by seat and bot, length, endings, invariants", refuses=(ValueError,)),
    Hook("report_lines", "report_lines(report, *, title, cards=(), factions=())", "[str]",
         "pnp simulate prints its report", "the default report's lines"),
    Hook("table_view", "table_view(state)", "dict: seats, middle, board, note (rules_engine.core.view)",
         "the studio's replay page, after every step", "none: the page shows no table"),
    Hook("token_demand", "token_demand(cards, *, games, seed, players, factions=None)", "{token kind: peak}",
         "the tokens component warns when a kit would run short", "none"),
    Hook("FACTS_SCHEMA", "{key: Spec}", "dict of rules_engine.protocol.Spec",
         "pnp checks the facts files game.yaml lists and hands them over as game.facts", "none"),
    Hook("check_facts", "check_facts(facts, cards)", "[(where, message)]",
         "after the facts files' shapes; where is a path such as maps[2].areas[1]", "none"),
    Hook("PIECE_TRAITS", "{trait: description}", "dict", "validate checks each piece kind's traits", "none"),
    Hook("STEPS", "(step, ...)", "tuple", "validate checks each ability's step", "(1, 2, 3)"),
]}


def required_names() -> list[str]:
    return [h.name for h in HOOKS.values() if h.required]


# ------------------------------------------------------------------------------------------------- defaults

def _play_game(module):
    def play_game(rules, bots, seed, *, players=None, record=False, check=False, **options):
        return core_play.play_game(module.ENGINE, rules, bots, seed, players=players, record=record, check=check,
                              **options)
    return play_game


def _recorded_game(module):
    def recorded_game(rules, *, seed, players, bots, check=False, **options):
        return core_play.recorded_game(module.ENGINE, rules, seed=seed, players=players, bots=bots, check=check,
                                  **options)
    return recorded_game


def _simulate(module):
    from rules_engine.core import defaults

    def simulate(rules, *, games, seed, players, bots, jobs=1, check=False, progress=None, executor=None,
                 **options):
        return defaults.simulate(module.ENGINE, rules, games=games, seed=seed, players=players, bots=bots,
                                 jobs=jobs, check=check, progress=progress, executor=executor, **options)
    return simulate


def _report_lines(module):
    from rules_engine.core import defaults

    return defaults.report_lines


def _validate_game(module):
    from rules_engine.core import defaults

    return lambda game: defaults.validate_game(module, game)


def _scenario_from_data(module):
    def scenario_from_data(rules, data, players=None):
        return None, [(None, f"the rules engine '{module.ENGINE.name}' plays no scenarios")]
    return scenario_from_data


def _run_scenario(module):
    def run_scenario(rules, scenario):
        raise ValueError(f"the rules engine '{module.ENGINE.name}' plays no scenarios")
    return run_scenario


def _transcript_lines(module):
    from rules_engine.core import defaults

    return defaults.transcript_lines


def _scenario_lines(module):
    def scenario_lines(outcome, cards, factions=None):
        names = [p.name for p in getattr(outcome.scenario, "players", ())]
        return engine_api(module).transcript_lines(outcome.events, cards, factions, names)
    return scenario_lines


#: The default of each optional hook an engine may leave out: name -> (engine module -> value).
DEFAULTS: dict[str, Callable] = {
    "PLAYERS": lambda m: tuple(m.ENGINE.players),
    "FACTS": lambda m: {},
    "EFFECTS": lambda m: {},
    "CARD_KEYS": lambda m: {},
    "OPTIONS": lambda m: {},
    "BOTS": lambda m: m.ENGINE.bots,
    "DEFAULT_BOTS": lambda m: ("random",),
    "SCENARIO_SCHEMA": lambda m: {},
    "validate_game": _validate_game,
    "scenario_from_data": _scenario_from_data,
    "run_scenario": _run_scenario,
    "scenario_lines": _scenario_lines,
    "transcript_lines": _transcript_lines,
    "play_game": _play_game,
    "recorded_game": _recorded_game,
    "simulate": _simulate,
    "report_lines": _report_lines,
}


# ------------------------------------------------------------------------------------------------- the API

def bundled(module) -> bool:
    """Whether ``module`` is one of pnp's own engines (``rules_engine.<name>``): what it raises is a bug in
    pnp (exit status 70), not an outside engine's fault."""
    return str(getattr(module, "__name__", "")).startswith("rules_engine.")


_ABSENT = object()


class EngineAPI:
    """An engine as pnp uses it: the module's own names, the default of each optional hook it leaves
    out (:data:`DEFAULTS`), and each hook guarded (see the module docstring). ``own(name)`` says whether the
    engine gives ``name`` itself; any other attribute is the module's."""

    def __init__(self, module):
        self.__dict__["_module"] = module
        self.__dict__["_cache"] = {}

    @property
    def module(self):
        return self._module

    def own(self, name: str) -> bool:
        return hasattr(self._module, name)

    def __getattr__(self, name: str):
        module = self._module
        own = getattr(module, name, _ABSENT)
        cached = self._cache.get(name)
        if cached is not None and cached[0] is own:      # the module's name is still what was wrapped
            return cached[1]
        if own is not _ABSENT:
            value = own
        elif name in DEFAULTS:
            value = DEFAULTS[name](module)
        else:
            raise AttributeError(f"the rules engine {getattr(module, '__name__', module)!r} has no {name!r}")
        hook = HOOKS.get(name)
        if hook is not None and callable(value) and not isinstance(value, type) and name[0].islower() \
                and not bundled(module):
            value = _guarded(module, hook, value)
        self._cache[name] = (own, value)
        return value

    def __setattr__(self, name, value):
        raise AttributeError("an engine is read-only")

    def __repr__(self) -> str:
        return f"EngineAPI({getattr(self._module, '__name__', self._module)!r})"


def _guarded(module, hook: Hook, function):
    """``function`` (an outside engine's hook) raising :class:`EngineFault` for what it raises beyond its
    documented refusals, a game's fault and Ctrl-C."""
    name = getattr(getattr(module, "ENGINE", None), "name", None) or getattr(module, "__name__", "?")

    def guarded(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except (GameFault, EngineFault):
            raise
        except hook.refuses:
            raise
        except Exception as exc:  # noqa: BLE001 - the engine's fault, named with its hook
            raise EngineFault(name, hook.name, exc) from None
    guarded.__name__ = hook.name
    guarded.__wrapped__ = function
    return guarded


@cache
def _api_of(module) -> EngineAPI:
    return EngineAPI(module)


def engine_api(module) -> EngineAPI:
    """The :class:`EngineAPI` of an engine module (the same object each time)."""
    if isinstance(module, EngineAPI):
        return module
    try:
        return _api_of(module)
    except TypeError:                 # an unhashable engine object: a new wrapper
        return EngineAPI(module)


def engine_named(name: str) -> EngineAPI:
    """The installed engine ``name`` as pnp uses it (:func:`rules_engine.engine_module`, then
    :func:`engine_api`); raises what ``engine_module`` raises."""
    from rules_engine import engine_module

    return engine_api(engine_module(name))


def missing(module) -> list[str]:
    """The required names ``module`` does not export."""
    return [name for name in required_names() if not hasattr(module, name)]


def players_range(module) -> tuple:
    return tuple(getattr(module, "PLAYERS", None) or module.ENGINE.players)


__all__ = ["Bot", "DEFAULTS", "DefaultResult", "EngineAPI", "EngineModule", "Event", "GameEvent", "HOOKS", "Hook", "Problem",
           "Result", "Rules", "ScenarioOutcome", "default_result", "engine_api", "engine_named", "missing",
           "required_names"]

#: Sequences a hook returns (for type checkers).
Lines = Sequence[str]
Options = Mapping[str, Any]
