"""The effect kinds Shadow Throne cards can name: their parameters (``EFFECTS``) and behaviour (``HANDLERS``).

A card's ``ability`` in ``cards.yaml`` names one of these kinds and gives its parameters; ``pnp validate``
checks them against ``EFFECTS``, the card text comes from the template of the same name
(``templates/abilities/shadow_throne/<lang>.j2``) and the engine runs the kind's handler from
``HANDLERS``. A new card that combines known kinds and parameters needs no new code, and no rule here
looks at a card id.

How a handler is used (see :mod:`rules_engine.shadow_throne.state`):

* ``compile(params, rules)`` turns the YAML parameters into a compact value for the hot path, once.
* ``determine(state, source, compiled)`` runs when the source's step comes up in its wave. It only
  reads the state and returns an :class:`Effect` (or ``None``): every ability of a step is determined
  against the same snapshot before any of them is applied.
* ``apply_effect(state, effect)`` then changes the state; within a step kills go first (a character
  killed at the same moment cannot also be converted or emboldened), the rest in seat order.
* ``on_death(state, character, compiled)`` is the hook of step-less triggers (Simone).
* ``extra_play = True`` marks a kind whose step begins by letting the owner add a card (King Kyros).
"""

from __future__ import annotations

from typing import NamedTuple

from rules_engine.model.cards import EffectKind, Param

RANKS = ("commoner", "elite", "noble")

EFFECTS = {
    "kill": EffectKind(
        "kill",
        {
            "rank": Param("str", required=True, choices=RANKS, doc="rank of the characters killed"),
        },
        "Kill every living character of the given rank and of another faction in this wave.",
    ),
    "convert": EffectKind(
        "convert",
        {
            "rank": Param("str", required=True, choices=RANKS, doc="rank of the characters converted"),
            "power_bonus": Param("int", default=0, min=0, max=5,
                                 doc="+power for each character converted from another faction"),
        },
        "Every living character of the given rank and another faction in this wave joins the owner's faction.",
    ),
    "embolden": EffectKind(
        "embolden",
        {
            "amount": Param("int", default=1, min=1, max=5, doc="+power per character"),
            "waves": Param("str", default="this", choices=("this", "next", "this_and_earlier"),
                           doc="which waves' characters are affected"),
            "rank": Param("str", default=None, choices=RANKS, doc="only characters of this rank"),
            "others_only": Param("bool", default=False, doc="the card does not embolden itself"),
        },
        "Each living character of the owner's faction in the given waves gets +power.",
    ),
    "extra_play": EffectKind(
        "extra_play",
        {
            "count": Param("int", default=1, min=1, max=1, doc="extra cards that may be played"),
        },
        "The owner may play one more character of this card's faction into this wave; no hush money.",
    ),
    "suppress": EffectKind(
        "suppress",
        {
            "steps": Param("steps", required=True, doc="ability steps that are blocked, e.g. [2, 3]"),
        },
        "Characters of other factions in this wave do not use their abilities of the given steps.",
    ),
    "conditional_power": EffectKind(
        "conditional_power",
        {
            "amount": Param("int", required=True, min=1, max=10, doc="+power when the condition holds"),
            "gold_at_most": Param("int", required=True, min=0, max=10,
                                  doc="the owner's gold after paying for this card is at most this"),
        },
        "The card gets +power if its owner has little gold left after paying for it.",
    ),
    "on_death_influence": EffectKind(
        "on_death_influence",
        {"amount": Param("int", required=True, min=1, max=10, doc="influence gained at once")},
        "When this character dies (in its wave or later), its owner gains influence at once.",
        needs_step=False,
    ),
    "stays_after_loss": EffectKind(
        "stays_after_loss",
        {"battles": Param("int", default=1, min=1, max=1, doc="lost battles it stays for")},
        "If this card's faction loses the battle and it is alive, it stays in play for the next battle.",
    ),
}


class Effect(NamedTuple):
    """What one ability does, decided against the step's snapshot; transcripts and tests read these.

    ``kind`` is one of: ``kill``, ``convert``, ``embolden``, ``boost`` (power without +1 tokens),
    ``suppress``, ``schedule`` (an embolden that waits for the next wave), ``stay``, ``nothing``.
    ``targets`` are :class:`~rules_engine.shadow_throne.state.Character` objects. ``amount`` is the
    +power (embolden, boost, convert bonus) or the number of battles (stay); ``faction`` the faction
    index converted to; ``steps`` the bitmask of blocked steps (suppress); ``reason`` explains a
    ``nothing`` (``no_next_wave``, ``condition``).
    """

    kind: str
    source: object
    targets: tuple = ()
    amount: int = 0
    faction: int = -1
    steps: int = 0
    reason: str = ""


# --------------------------------------------------------------------------- handlers


class Handler:
    """Behaviour of one effect kind. Subclasses override what their kind needs."""

    kind = ""
    extra_play = False

    def compile(self, params: dict, rules):
        return None

    def determine(self, state, source, compiled):
        return None

    def determine_delayed(self, state, source, compiled):
        return None

    def on_death(self, state, character, compiled):
        return None


class KillHandler(Handler):
    """Kills every living character of one rank and another faction in the source's wave."""

    kind = "kill"

    def compile(self, params, rules):
        return rules.rank_index[params["rank"]]

    def determine(self, state, source, rank):
        faction, ranks = source.faction, state.rules.rank
        targets = tuple(ch for ch in state.wave_chars
                        if not ch.dead and ch.faction != faction and ranks[ch.card] == rank)
        return Effect("kill", source, targets)


class ConvertHandler(Handler):
    """Moves living characters of one rank and another faction in the wave to the source's faction.

    Every target comes from another faction, so each one gets ``power_bonus`` (Princess Beatrice),
    also when another converter takes the same character at the same moment.
    """

    kind = "convert"

    def compile(self, params, rules):
        return (rules.rank_index[params["rank"]], params.get("power_bonus") or 0)

    def determine(self, state, source, compiled):
        rank, bonus = compiled
        faction, ranks = source.faction, state.rules.rank
        targets = tuple(ch for ch in state.wave_chars
                        if not ch.dead and ch.faction != faction and ranks[ch.card] == rank)
        return Effect("convert", source, targets, amount=bonus, faction=faction)


WAVES_THIS, WAVES_NEXT, WAVES_THIS_AND_EARLIER = 0, 1, 2
_WAVE_MODES = {"this": WAVES_THIS, "next": WAVES_NEXT, "this_and_earlier": WAVES_THIS_AND_EARLIER}


class EmboldenHandler(Handler):
    """+power (as +1 tokens) to living characters of the source's faction.

    ``waves: this`` looks at the source's wave, ``this_and_earlier`` at every character already in the
    battle up to that wave (a carried-over character counts as wave 0), ``next`` waits: at the
    source's step in the following wave it emboldens the characters of that wave that belong to the
    source's faction then (nothing happens when the source was played in the last wave).
    """

    kind = "embolden"

    def compile(self, params, rules):
        rank = params.get("rank")
        return (params.get("amount") or 1, _WAVE_MODES[params.get("waves") or "this"],
                -1 if rank is None else rules.rank_index[rank], bool(params.get("others_only")))

    def _targets(self, state, source, chars, compiled):
        amount, _, rank, others_only = compiled
        faction, ranks = source.faction, state.rules.rank
        return tuple(ch for ch in chars
                     if not ch.dead and ch.faction == faction and (rank < 0 or ranks[ch.card] == rank)
                     and not (others_only and ch is source))

    def determine(self, state, source, compiled):
        amount, mode = compiled[0], compiled[1]
        if mode == WAVES_NEXT:
            if source.wave >= state.rules.waves:
                return Effect("nothing", source, reason="no_next_wave")
            return Effect("schedule", source, amount=amount)
        if mode == WAVES_THIS:
            chars = state.wave_chars
        else:
            wave = source.wave
            chars = [ch for ch in state.chars if ch.wave <= wave]
        return Effect("embolden", source, self._targets(state, source, chars, compiled), amount=amount)

    def determine_delayed(self, state, source, compiled):
        return Effect("embolden", source, self._targets(state, source, state.wave_chars, compiled),
                      amount=compiled[0])


class ExtraPlayHandler(Handler):
    """The owner may add a card of the source card's printed faction to the wave (King Kyros).

    The engine offers the choice at the start of the source's step (see ``GameState``); the card must
    be affordable and owes no hush money, and its own ability happens at the source's step.
    """

    kind = "extra_play"
    extra_play = True

    def compile(self, params, rules):
        return params.get("count") or 1


class SuppressHandler(Handler):
    """Characters of other factions in the wave lose their abilities of the listed steps.

    Only later steps are affected in practice: abilities of the suppressor's own step are determined
    at the same moment as the suppression, just as a character killed at its own step still acts.
    """

    kind = "suppress"

    def compile(self, params, rules):
        mask = 0
        for step in params.get("steps") or ():
            mask |= 1 << step
        return mask

    def determine(self, state, source, mask):
        # only characters that have an ability at a blocked step are worth naming as targets
        faction = source.faction
        targets = tuple(ch for ch in state.wave_chars
                        if ch.faction != faction and not ch.dead and ch.step is not None and (mask >> ch.step) & 1)
        return Effect("suppress", source, targets, steps=mask)


class ConditionalPowerHandler(Handler):
    """+power (no tokens) to the card itself when its owner's gold right after paying for it was low."""

    kind = "conditional_power"

    def compile(self, params, rules):
        return (params["amount"], params["gold_at_most"])

    def determine(self, state, source, compiled):
        amount, gold_at_most = compiled
        if source.gold_after <= gold_at_most:
            return Effect("boost", source, (source,), amount=amount)
        return Effect("nothing", source, reason="condition")


class OnDeathInfluenceHandler(Handler):
    """A step-less trigger: when the character dies, its owner gains influence at once."""

    kind = "on_death_influence"

    def compile(self, params, rules):
        return params["amount"]

    def on_death(self, state, character, amount):
        state.gain_influence(character.owner, amount, character)


class StaysAfterLossHandler(Handler):
    """Marks the character: if it is alive and its faction does not win, it stays for the next battle."""

    kind = "stays_after_loss"

    def compile(self, params, rules):
        return params.get("battles") or 1

    def determine(self, state, source, battles):
        return Effect("stay", source, (source,), amount=battles)


HANDLERS = {h.kind: h for h in (
    KillHandler(), ConvertHandler(), EmboldenHandler(), ExtraPlayHandler(), SuppressHandler(),
    ConditionalPowerHandler(), OnDeathInfluenceHandler(), StaysAfterLossHandler(),
)}


# --------------------------------------------------------------------------- applying effects


def _apply_kill(state, effect):
    for target in effect.targets:
        if not target.dead:
            state.kill(target, effect.source)


def _apply_convert(state, effect):
    new, bonus = effect.faction, effect.amount
    power = state.power
    for target in effect.targets:
        if target.dead:
            continue  # killed at the same moment: the kill wins
        if target.faction != new:
            if target.converted_at == state.moment:
                continue  # already taken by another faction's converter at this moment
            strength = target.strength()
            power[target.faction] -= strength
            power[new] += strength
            target.faction = new
            was = target.converted
            target.converted = new != target.original
            state.tok_converted += target.converted - was
            target.converted_at = state.moment
        if bonus:
            target.bonus += bonus
            power[new] += bonus
            state.tok_plus += bonus


def _apply_embolden(state, effect):
    amount, power = effect.amount, state.power
    for target in effect.targets:
        if not target.dead:
            target.bonus += amount
            power[target.faction] += amount
            state.tok_plus += amount


def _apply_boost(state, effect):
    for target in effect.targets:
        if not target.dead:
            target.boost += effect.amount
            state.power[target.faction] += effect.amount


def _apply_suppress(state, effect):
    for target in effect.targets:
        target.blocked |= effect.steps


def _apply_schedule(state, effect):
    state.pending.append((effect.source.wave + 1, effect.source))


def _apply_stay(state, effect):
    effect.source.stays = effect.amount


def _apply_nothing(state, effect):
    pass


APPLY = {
    "kill": _apply_kill, "convert": _apply_convert, "embolden": _apply_embolden, "boost": _apply_boost,
    "suppress": _apply_suppress, "schedule": _apply_schedule, "stay": _apply_stay, "nothing": _apply_nothing,
}


def apply_effects(state, effects):
    """Apply one step's effects together: kills first, then the others in the order determined."""
    for effect in effects:
        if effect.kind == "kill":
            _apply_kill(state, effect)
    for effect in effects:
        if effect.kind != "kill":
            APPLY[effect.kind](state, effect)
