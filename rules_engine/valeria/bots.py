"""Valeria's bots: ``random`` (the core's: a uniform legal move) and ``planner``, a heuristic that plans
battles.

The planner keeps a *target*: the plan (reserved, or affordable in the line) its dice come closest to.
It takes the dice that plan still needs, reserves plans its dice fit, goes to the Camp when a battle
pays well (or its troop spaces are full, or the end is near), spends magic and gems only where they
lift the battle's strength to a better row of the chart, claims awards when it can, buys the champions
it values most (resources now, a bonus that fits its battles, end-game points it already earns), and
places conquest markers where the skirmish and chain bonuses pay most. It reads only the table, as a
player does. ``plan_bot_action`` is the same policy as a function (the search bot's rollouts use it).

``quick`` is a cheaper heuristic: the planner's decisions but for the move, where a shrine is valued by
its best die and a fixed worth for its action (see :class:`QuickBot`).
"""

from __future__ import annotations

import weakref
from itertools import combinations

from rules_engine.core.bots import Bot, registry
from rules_engine.valeria import scoring
from rules_engine.valeria.rules import CAMP, CHAMPIONS, GEM, GOLD, MAGIC, NT, TACTICS
from rules_engine.valeria.state import (AREA, BONUS, BOOST, CHAMP, CIRCLE, COLOUR, DICE, DIE, DONE, FREE,
                                        GAIN_MAGIC, MAGIC_P, MOVE, PASS, PHASE_NAMES, PLAN, ROOM, SENTRY, SIDE, TACT, TAKE,
                                        GameState)

#: The planner's order for uncovering circles (first = most wanted), by what each unlocks.
CIRCLE_ORDER = ("troop_space", "track", "champion_limit", "gem_storage", "strength", "reserve_slot", "wild")
#: Rough worth of one unit of each resource, in victory points.
WORTH = {"gold": 0.45, "magic": 0.45, "influence": 1.2, "gems": 1.5}


class PlannerBot(Bot):
    """The heuristic bot (see the module docstring). Plays through ``plan_bot_action``."""

    name = "planner"
    fast = True

    def act(self, state, player, rng):
        return plan_bot_action(state, player, rng)


class QuickBot(Bot):
    """The cheaper heuristic (``quick``): the planner's battles, dice choices and purchases, with a move
    decision that values a shrine by its dice alone (what its action gives is a fixed bonus), and a
    battle as soon as one pays. About twice as fast as the planner, and weaker (see docs/engine.md)."""

    name = "quick"
    fast = True

    def act(self, state, player, rng):
        return _QUICK_BY_PHASE[state.phase](state, player, rng)


def _quick_move(state, p, rng=None):
    """Fight when a battle pays (4 or more) or the troop spaces are full or the end is near; else go
    where the die the targets need most is, with a fixed worth for each shrine's action."""
    pl = state.players[p]
    moves = state.move_list if state.move_list is not None else state._moves()
    if CAMP in moves:
        battle = _battle_score(state, p)
        if battle is not None and (battle[0] >= 4.0 or len(pl.dice) >= pl.spaces or state.end_triggered):
            _remember(state, (CAMP, battle))
            return ("move", CAMP)
    dv = _die_values(_needed_types(state, p))
    r = state.rules
    shrines = state.shrines
    best, best_value, best_die = None, -1e9, None
    for s in moves:
        if s == CAMP:
            continue
        if s == GEM:
            bonus = 2.0 if pl.gems < pl.gem_cap and state.gem_supply else 0.0
        elif s == MAGIC:
            bonus = 2 * WORTH["magic"]
        elif s == CHAMPIONS:
            bonus = 1.5 if len(pl.champions) < pl.limit(r) and pl.gold >= 4 else 0.0
        elif s == TACTICS:
            bonus = 1.5 if pl.gold >= 3 and pl.open_slots() else 0.0
        else:
            bonus = 0.0
        base = r.discount_from - 1 if s == GOLD else -1
        if base >= 0:
            # the Gold shrine: a lower die gives more gold
            gold_worth = WORTH["gold"]
            for d in shrines[s]:
                value = dv[d] + bonus + gold_worth * (base - d % 6)
                if value > best_value:
                    best, best_value, best_die = s, value, d
        else:
            for d in shrines[s]:
                value = dv[d] + bonus
                if value > best_value:
                    best, best_value, best_die = s, value, d
    if best is None:
        return ("move", moves[0])
    _remember(state, (best, best_die))
    return ("move", best)


def plan_bot_action(state, p, rng):
    phase = state.phase
    handler = _HANDLERS.get(phase)
    if handler is None:
        actions = state.legal_actions(p)
        return actions[int(rng.random() * len(actions))]
    return handler(state, p, rng)


def _remember(state, value):
    """What the move decision worked out, for the decisions right after it in the same turn (the die to
    take, the battle to fight): the same answers, computed once. Kept on the state, keyed by the turn."""
    state.bot_memo = (state.turns, state.cur, value)


def _recall(state):
    memo = state.bot_memo
    return memo[2] if memo is not None and memo[0] == state.turns and memo[1] == state.cur else None


# ----------------------------------------------------------------------------------- what is needed

def _have(dice) -> list:
    have = [0] * NT
    for d in dice:
        have[d // 6] += 1
    return have


def _missing(pl, have, plan) -> int:
    """Dice the plan still lacks, after the board's Wild ability and the gems held."""
    matched = 0
    for t, b in plan.pairs:
        a = have[t]
        matched += a if a < b else b
    short = plan.icons - matched
    if short and pl.wild_on and have[pl.wild] > plan.need[pl.wild]:
        short -= 1
    short -= pl.gems
    return short if short > 0 else 0


def _targets(state, p, have=None, fit=None):
    """Plans the player works towards: reserved ones, and the line's affordable ones when a slot is free
    (or nothing is reserved), as ``(missing dice, -icons, order, plan kind)``, the best first (a plan of
    the line counts half a die more; among equals, reserved plans first, then the line's order).
    ``have``: the player's dice per troop type, ``fit``: their :func:`_plan_fit`, when at hand."""
    r = state.rules
    pl = state.players[p]
    if have is None:
        have = _have(pl.dice)
    gems, wild = pl.gems, pl.wild if pl.wild_on else -1
    if fit is None:
        fit = _plan_fit(_tables(r), r, have, gems, wild)
    plans, kinds = r.plans, r.plan_kind
    out = []
    for card in pl.reserved:
        if card >= 0:
            k = kinds[card]
            row = fit[k] or _fit_row(fit, k, plans[k], have, gems, wild)
            out.append((row[0], -plans[k].icons, len(out), k))
    if not out or pl.open_slots():
        # max(cost - discount, 0) <= gold + 2, as gold is never negative
        costs, most = r.line_costs, pl.gold + 2 + pl.disc_plan
        for i, card in enumerate(state.line):
            if card >= 0 and costs[i] <= most:
                k = kinds[card]
                row = fit[k] or _fit_row(fit, k, plans[k], have, gems, wild)
                out.append((row[0] + 0.5, -plans[k].icons, len(out), k))
    out.sort()                     # the order numbers differ: nothing after them is compared
    return out


def _plan_fit(tables, r, have, gems, wild) -> list:
    """How the plans fit a player with ``have`` dice per troop type, ``gems`` and the board's Wild
    troop type ``wild`` (-1 while locked): per plan kind, None until :func:`_fit_row` works it out. A
    few hundred keys come up in a run, each for a few plans, so the rows are kept per rules (the
    targets are ranked before every move)."""
    key = (tuple(have), gems, wild)
    memo = tables.fits
    fit = memo.get(key)
    if fit is None:
        if len(memo) > 100_000:
            memo.clear()
        fit = memo[key] = [None] * len(r.plans)
    return fit


def _fit_row(fit, k, plan, have, gems, wild) -> tuple:
    """``fit[k]``: ``(dice missing, troop types short)`` of plan kind ``k``: ``_missing``, and the types
    of the plan's icons the dice do not cover, in the plan's order."""
    matched = 0
    for t, b in plan.pairs:
        a = have[t]
        matched += a if a < b else b
    short = plan.icons - matched
    if short and wild >= 0 and have[wild] > plan.need[wild]:
        short -= 1
    short -= gems
    row = fit[k] = (short if short > 0 else 0, tuple([t for t, b in plan.pairs if b > have[t]]))
    return row


#: How much the best, second and third targets count in a die's worth.
_TARGET_WEIGHTS = (3.0, 1.5, 0.8)


def _needed_types(state, p) -> list:
    """How much a die of each troop type helps: the best target's missing types count most."""
    r = state.rules
    pl = state.players[p]
    have = _have(pl.dice)
    fit = _plan_fit(_tables(r), r, have, pl.gems, pl.wild if pl.wild_on else -1)
    want = [0.0] * NT
    for weight, (_, _, _, k) in zip(_TARGET_WEIGHTS, _targets(state, p, have, fit)):
        for t in fit[k][1]:
            want[t] += weight
    return want


def _die_value(state, p, d, want) -> float:
    pl = state.players[p]
    t, s = d // 6, d % 6 + 1
    value = want[t] * (1.0 + 0.25 * s) + 0.3 * s
    if len(pl.dice) >= pl.spaces:
        worst = min(_own_die_value(state, p, x, want) for x in pl.dice)
        value -= worst
    return value


def _own_die_value(state, p, d, want) -> float:
    t, s = d // 6, d % 6 + 1
    return want[t] * (1.0 + 0.25 * s) + 0.3 * s


# ----------------------------------------------------------------------------------- champions

def _lateness(state) -> float:
    """How far the game has gone, 0 to 1, by the plans completed."""
    return min(1.0, sum(len(q.completed) for q in state.players) / (state.n * state.end_plans))


class _Tables:
    """What the bots work out once per rules and reuse: the champions' and circles' tables, the fights
    and dice choices seen (see :func:`_best_battle`), the plans' fit to the dice (:func:`_plan_fit`)."""

    __slots__ = ("champions", "circles", "battles", "choices", "fits")

    def __init__(self):
        self.champions = self.circles = None
        self.battles, self.choices, self.fits = {}, {}, {}


_TABLES = weakref.WeakKeyDictionary()
_LAST = (lambda: None, None)        # the rules of the last lookup (a weak reference) and their tables


def _tables(r) -> _Tables:
    """The bots' tables for the rules ``r``: a game asks for them before most decisions, so the last
    rules' are kept at hand (a weak dictionary lookup costs a Python call)."""
    global _LAST
    ref, tables = _LAST
    if ref() is r:
        return tables
    tables = _TABLES.get(r)
    if tables is None:
        tables = _TABLES[r] = _Tables()
    _LAST = (weakref.ref(r), tables)
    return tables


# how a champion is valued (see _champion_table): a constant, a constant after the plans reserved,
# factor * (1 - late), factor * (1 - late) + add, or its end-game points now
_CONST, _SLOTS, _FADING, _FADING_PLUS, _END = range(5)


def _champion_table(r) -> tuple:
    """Per champion number: ``(how, a, b)`` of its value to the planner (built once per rules; an
    end-game champion's ``a`` is its ``scoring.end_vp_rule``)."""
    tables = _tables(r)
    table = tables.champions
    if table is None:
        rows = []
        for k in r.champion_kind:
            ch = r.champions[k]
            kind, prm = ch.kind, ch.params
            if kind == "gain":
                rows.append((_CONST, 0.45 * (prm["gold"] + prm["magic"]) + 1.2 * prm["influence"] + 1.5 * prm["gems"],
                             None))
            elif kind == "take_die":
                rows.append((_CONST, 2.0, None))
            elif kind == "reserve_plan":
                rows.append((_SLOTS, 2.5, 0.5))
            elif kind == "strength":
                rows.append((_FADING, 2.0 + prm["amount"] * 1.5, None))
            elif kind == "whenever":
                rows.append((_FADING_PLUS, (prm["gold"] + prm["magic"]) * 1.2, 0.5))
            elif kind in ("echo", "match_influence"):
                rows.append((_FADING_PLUS, 3.0, 0.5))
            elif kind == "discount":
                rows.append((_FADING_PLUS, 2.5, 0.3))
            else:
                rows.append((_END, scoring.end_vp_rule(r, ch), None))
        table = tables.champions = tuple(rows)
    return table


def _champion_options(state, p) -> list:
    """``[(value, row, slot)]`` of the face-up champions, valued for the player (price not counted): the
    planner's value of a champion is the resources it gives now, a bonus that fades as the game goes
    on, or the end-game points it already earns (weighing more as the end nears)."""
    r = state.rules
    pl = state.players[p]
    table = _champion_table(r)
    late = _lateness(state)
    fade = 1.0 - late
    end_weight = 0.6 + 0.4 * late
    open_slot = None
    out = []
    for t, row in enumerate(state.rows):
        for i, card in enumerate(row):
            if card < 0:
                continue
            how, a, b = table[card]
            if how == _CONST:
                value = a
            elif how == _FADING:
                value = a * fade
            elif how == _FADING_PLUS:
                value = a * fade + b
            elif how == _SLOTS:
                if open_slot is None:
                    open_slot = bool(pl.open_slots())
                value = a if open_slot else b
            else:
                value = a(pl) * end_weight + 3.0 * fade
            out.append((value, t, i))
    return out


def _best_champion(state, p, price_of, options=None):
    """``(value, row, slot)`` of the best champion the player can pay for (price_of(row) -> gold)."""
    pl = state.players[p]
    prices = [price_of(t) for t in range(3)]
    gold = pl.gold
    w = WORTH["gold"]
    best = None
    for v, t, i in (options if options is not None else _champion_options(state, p)):
        price = prices[t]
        if price > gold:
            continue
        v -= price * w
        if best is None or v > best[0]:
            best = (v, t, i)
    return best


# ----------------------------------------------------------------------------------- battles

def _best_battle(state, p, plan, dice=None):
    """``(vp, chosen dice)`` of the best way to fight ``plan`` with the player's dice (None if none;
    ``dice``: them sorted, as a tuple, when already worked out). A function of the dice and a few
    numbers of the player, so answers are kept per rules and reused."""
    r = state.rules
    pl = state.players[p]
    if dice is None:
        dice = tuple(sorted(pl.dice))
    return _fought(_tables(r), r, pl, plan, dice)


def _fought(tables, r, pl, plan, dice):
    """:func:`_best_battle` with the rules' tables and the sorted dice at hand."""
    # PlayerState.battle_strength_bonus, inline
    bonus = pl.strength_any + pl.strength_battle[plan.battle] + (r.strength_bonus if pl.strength_on else 0)
    wild = pl.wild if pl.wild_on else -1
    key = (dice, id(plan), bonus, pl.gems, pl.magic, pl.influence, wild)
    memo = tables.battles
    if len(memo) > 100_000:
        memo.clear()
    best = memo.get(key, False)
    if best is False:
        best = memo[key] = _fight(r, _choices(tables, plan, dice, wild), bonus, pl.gems, pl.magic, pl.influence)
    return best


def _choices(tables, plan, dice, wild) -> tuple:
    """Every way to put ``dice`` on ``plan``, in ``combinations`` order, as ``(gems needed, strength,
    strengths lowest first, pips the dice can still rise, chosen dice)``: what a fight weighs, whatever
    the player's gems, magic and influence (kept per rules, keyed by the dice, the plan and the board's
    Wild troop type if unlocked, else -1)."""
    key = (dice, id(plan), wild)
    memo = tables.choices
    if len(memo) > 100_000:
        memo.clear()
    choices = memo.get(key)
    if choices is None:
        need, icons, pairs = plan.need, plan.icons, plan.pairs
        out = []
        for chosen in combinations(dice, icons):
            # GameState.gems_needed, inline
            have = [0] * NT
            for d in chosen:
                have[d // 6] += 1
            matched = 0
            for t, b in pairs:
                a = have[t]
                matched += a if a < b else b
            short = icons - matched
            if short and wild >= 0 and have[wild] > need[wild]:
                short -= 1
            faces = [d % 6 + 1 for d in chosen]
            strength = sum(faces)
            faces.sort()
            out.append((short, strength, faces, 6 * icons - strength, chosen))
        choices = memo[key] = tuple(out)
    return choices


def _fight(r, choices, bonus, gems, magic, influence):
    """The best of ``choices`` for a player with ``gems``, ``magic`` and ``influence``: spare gems flip
    the lowest dice (3 or less), magic raises them up to the influence."""
    best = None
    vp_for = r.vp_for
    for needed, strength, lows, room, chosen in choices:
        if needed > gems:
            continue
        strength += bonus
        for s in lows[:gems - needed]:
            if s <= 3:
                strength += 7 - 2 * s
        strength_max = strength + (magic if magic < room else room)
        vp = vp_for(strength_max if strength_max < influence else influence) - 0.3 * needed
        if best is None or vp > best[0]:
            best = (vp, chosen)
    return best


def _battle_score(state, p):
    """``(value, action)`` of the best battle the player could fight now (None when there is none)."""
    options = state._battle_options(p)
    if not options:
        return None
    r = state.rules
    pl = state.players[p]
    dice = tuple(sorted(pl.dice))
    tables = _tables(r)
    plans, kinds, gold_worth = r.plans, r.plan_kind, WORTH["gold"]
    best = None
    for option in options:
        if option[0] == "plan_reserved":
            card = pl.reserved[option[1]]
            price = 0
        else:
            card = state.line[option[1]]
            price = state.plan_price(p, option[1])
        plan = plans[kinds[card]]
        fought = _fought(tables, r, pl, plan, dice)
        if fought is None:
            continue
        value = fought[0] - price * gold_worth + 0.5 * plan.icons
        if best is None or value > best[0]:
            best = (value, option)
    return best


# ----------------------------------------------------------------------------------- phases

def _side(state, p, rng):
    return ("side", int(rng.random() * 2))


def _colour(state, p, rng):
    """The board whose Wild troop type looks the most plentiful: a Wild die stands in for a missing type
    only when its own type is in excess, so the type with the most dice in the shrines and the least
    asked for by the Battle Plans in the line (ties: at random)."""
    r = state.rules
    supply = [0] * NT
    for shrine in state.shrines:
        for d in shrine:
            supply[d // 6] += 1
    for card in state.line:
        if card >= 0:
            for t, k in r.plans[r.plan_kind[card]].pairs:
                supply[t] -= k
    options = state._legal()
    best = max(supply[r.boards[b][1]] for _, b in options)
    options = [a for a in options if supply[r.boards[a[1]][1]] == best]
    return options[int(rng.random() * len(options))]


def _move(state, p, rng):
    pl = state.players[p]
    moves = state.move_list if state.move_list is not None else state._moves()
    dv = _die_values(_needed_types(state, p))
    shared = {}
    best, best_value, best_die = None, -1e9, None
    if CAMP in moves:
        battle = _battle_score(state, p)
        if battle is not None:
            value = battle[0] + 1.0
            if len(pl.dice) >= pl.spaces:
                value += 3.0
            if state.end_triggered:
                value += 10.0
            best, best_value, best_die = ("move", CAMP), value, battle
    meet = -1
    if state.solo:
        order = state.rules.clockwise
        meet = order[(order.index(state.adversary) + 1) % len(order)]   # where the Adversary goes next
    worst = min([dv[x] for x in pl.dice]) if len(pl.dice) >= pl.spaces else 0.0
    for s in moves:
        if s == CAMP:
            continue
        value, d = _shrine_best(state, p, s, dv, worst, shared)
        if s == meet:
            value -= state.rules.solo_meeting_vp
        if value > best_value:
            best, best_value, best_die = ("move", s), value, d
    _remember(state, (best[1], best_die))
    return best


#: Per face (0-5): the factor of the wanted weight and the strength's own worth in a die's value.
_FACE = tuple((1.0 + 0.25 * st, 0.3 * st) for st in range(1, 7))


def _die_values(want) -> list:
    """A die's worth to the player, per die code: what ``_own_die_value`` gives (the same arithmetic);
    the lists are kept per ``want`` (a few hundred different ones in a run), read-only."""
    key = tuple(want)
    values = _DIE_VALUES.get(key)
    if values is None:
        if len(_DIE_VALUES) > 50_000:
            _DIE_VALUES.clear()
        values = _DIE_VALUES[key] = [w * f + a for w in want for f, a in _FACE]
    return values


_DIE_VALUES = {}


def _shrine_best(state, p, shrine, dv, worst, shared):
    """``(value, die)``: the best die to take at ``shrine`` with what its action then gives (``dv``: the
    dice's values, ``worst``: the value of the die a full camp gives up)."""
    best, best_die = -1e9, None
    base = state.rules.discount_from - 1
    actions = {}
    for d in sorted(set(state.shrines[shrine])):
        face = d % 6
        action = actions.get(face)
        if action is None:
            action = actions[face] = _action_value(state, p, shrine, base - face, shared)
        value = dv[d] - worst + action
        if value > best:
            best, best_die = value, d
    return best, best_die


def _action_value(state, p, shrine, discount, shared=None) -> float:
    shared = {} if shared is None else shared
    pl = state.players[p]
    if shrine == GEM:
        return 2.0 if pl.gems < pl.gem_cap and state.gem_supply else 0.0
    if shrine == GOLD:
        return discount * WORTH["gold"] * (1.0 if pl.gold + discount <= pl.cap else 0.4)
    if shrine == MAGIC:
        if "magic" not in shared:
            claim = _best_award(state, p)
            shared["magic"] = max(claim[0] if claim else 0.0, 2 * WORTH["magic"])
        return shared["magic"]
    if shrine == CHAMPIONS:
        if len(pl.champions) >= pl.limit(state.rules):
            return 0.0
        if "champions" not in shared:
            shared["champions"] = _champion_options(state, p)
        best = _best_champion(state, p, lambda t: state.champion_price(p, t, discount), shared["champions"])
        return max(0.0, best[0]) if best else 0.0
    if shrine == TACTICS:
        if "reserve" not in shared:
            shared["reserve"] = _reserve_options(state, p) if pl.open_slots() else []
        best = _best_reserve(state, p, discount, shared["reserve"])
        return max(0.0, best[0]) if best else 0.0
    return 0.0


def _best_award(state, p):
    r = state.rules
    pl = state.players[p]
    if not pl.covered:
        return None
    best = None
    for slot in state._claimable(p):
        award = r.awards[r.award_kind[state.awards[slot]]]
        vp = award.vp[min(len(state.award_markers[slot]), 2)]
        if best is None or vp > best[0]:
            best = (vp, slot)
    return best


def _reserve_options(state, p) -> list:
    """``[(value, line space, cost)]`` of the line's plans for the player (price not counted yet)."""
    r = state.rules
    pl = state.players[p]
    have = _have(pl.dice)
    out = []
    for i, card in enumerate(state.line):
        if card >= 0:
            plan = r.plans[r.plan_kind[card]]
            fit = plan.icons - _missing(pl, have, plan)
            out.append((1.0 + 1.2 * fit + 0.6 * plan.icons, i, r.line_costs[i] - pl.disc_plan))
    return out


def _best_reserve(state, p, discount, options=None):
    """``(value, line space)`` of the best plan to reserve (None when no slot is open); a slot whose bonus
    is influence adds its worth while influence can still rise."""
    pl = state.players[p]
    slots = pl.open_slots()
    if not slots:
        return None
    gold, w = pl.gold, WORTH["gold"]
    extra = 0.0
    r = state.rules
    if pl.influence < pl.cap and any(r.slots[i].bonus == "influence" for i in slots):
        extra = WORTH["influence"] - w
    best = None
    for value, i, cost in (options if options is not None else _reserve_options(state, p)):
        price = cost - discount
        price = price if price > 0 else 0
        if price > gold:
            continue
        value -= price * w
        value += extra if gold > price else 0.0
        if best is None or value > best[0]:
            best = (value, i)
    return best


def _die(state, p, rng):
    shrine = state.ctx["shrine"]
    memo = _recall(state)
    if memo is not None and memo[0] == shrine and memo[1] in state.shrines[shrine]:
        return ("take", shrine, memo[1])
    pl = state.players[p]
    dv = _die_values(_needed_types(state, p))
    worst = min([dv[x] for x in pl.dice]) if len(pl.dice) >= pl.spaces else 0.0
    return ("take", shrine, _shrine_best(state, p, shrine, dv, worst, {})[1])


def _room(state, p, rng):
    want = _needed_types(state, p)
    new = state.ctx["die"]
    pl = state.players[p]
    worst = min(pl.dice, key=lambda d: (_own_die_value(state, p, d, want), d))
    if _own_die_value(state, p, new, want) <= _own_die_value(state, p, worst, want):
        return ("room", -1)
    return ("room", worst)


def _magic(state, p, rng):
    claim = _best_award(state, p)
    if claim is None:
        return GAIN_MAGIC
    return ("award", claim[1], _best_circle(state, p))


def _best_circle(state, p) -> int:
    """The covered circle to uncover: the first in CIRCLE_ORDER, the track and the champion limit later
    while the player would not use them yet."""
    r = state.rules
    pl = state.players[p]
    late_track = max(pl.gold, pl.magic, pl.influence) < 11
    late_limit = len(pl.champions) < pl.limit(r) - 1
    best, best_rank = -1, None
    covered = pl.covered
    for c, (order, unlocks) in enumerate(_circle_orders(r)):
        if not covered >> c & 1:
            continue
        if (unlocks == "track" and late_track) or (unlocks == "champion_limit" and late_limit):
            order += 3
        if best_rank is None or order < best_rank:     # the lowest circle among equal ranks
            best, best_rank = c, order
    return best


def _circle_orders(r) -> tuple:
    """Per circle: ``(its place in CIRCLE_ORDER, what it unlocks)`` (built once per rules)."""
    tables = _tables(r)
    table = tables.circles
    if table is None:
        table = tables.circles = tuple((CIRCLE_ORDER.index(c.unlocks), c.unlocks) for c in r.circles)
    return table


def _champion(state, p, rng):
    discount = state.ctx["discount"]
    pl = state.players[p]
    if len(pl.champions) >= pl.limit(state.rules):
        return PASS
    best = _best_champion(state, p, lambda t: state.champion_price(p, t, discount))
    if best is None or best[0] <= 0.5:
        return PASS
    return ("buy", best[1], best[2])


def _tactics(state, p, rng):
    best = _best_reserve(state, p, state.ctx["discount"])
    if best is None or best[0] <= 1.0:
        return PASS
    return ("reserve", best[1], _slot_for(state, p))


def _slot_for(state, p) -> int:
    """The open slot whose bonus the player can best use: influence while it can rise, else the last."""
    pl = state.players[p]
    slots = pl.open_slots()
    r = state.rules
    for i in slots:
        if r.slots[i].bonus == "influence" and pl.influence < pl.cap and pl.gold >= 1:
            return i
    return slots[-1]


def _bonus(state, p, rng):
    actions = state._l_bonus()
    pl = state.players[p]
    if len(actions) == 1:
        return PASS
    verb = actions[1][0]
    if verb == "bonus":
        return actions[1] if pl.influence < pl.cap else PASS
    if verb == "bonus_die":
        want = _needed_types(state, p)
        best = max(actions[1:], key=lambda a: (_die_value(state, p, a[2], want), a))
        return best if _die_value(state, p, best[2], want) > 2.5 and pl.gold >= 4 else PASS
    slot = state.ctx["slot"]
    best = _best_champion(state, p, lambda t: state._bonus_price(p, slot, t))
    if best is None or best[0] <= 1.0:
        return PASS
    return ("bonus_champion", best[1], best[2])


def _sentry(state, p, rng):
    best = _best_reserve(state, p, 99)
    if best is None:
        return PASS
    return ("reserve", best[1], _slot_for(state, p))


def _plan(state, p, rng):
    memo = _recall(state)
    best = memo[1] if memo is not None and memo[0] == CAMP and memo[1] is not None else _battle_score(state, p)
    if best is None:
        actions = state.legal_actions(p)
        return actions[0]
    return best[1]


def _dice(state, p, rng):
    r = state.rules
    plan = r.plans[r.plan_kind[state.battle_plan]]
    fought = _best_battle(state, p, plan)
    return ("dice", tuple(sorted(fought[1])))


def _boost(state, p, rng):
    r = state.rules
    pl = state.players[p]
    dice = state.battle_dice
    pips = 0                       # the dice's strengths less one each
    for d in dice:
        pips += d % 6
    total = pips + len(dice) + pl.battle_strength_bonus(r.plans[r.plan_kind[state.battle_plan]].battle, r)
    if total >= pl.influence:
        return DONE
    if pl.gems:
        low = min(dice, key=_face_then_code)
        if low % 6 <= 2:
            return ("flip", low)
    if pl.magic:
        # raise only if the magic left can reach a better row of the chart (the dice can rise 5 * n - pips)
        reach = min(pl.influence, total + min(pl.magic, 5 * len(dice) - pips))
        if r.vp_for(reach) > r.vp_for(total):
            low = min((d for d in dice if d % 6 < 5), key=_face_then_code, default=None)
            if low is not None:
                return ("up", low)
    return DONE


def _face_then_code(d) -> tuple:
    return d % 6, d


def _circle(state, p, rng):
    return ("circle", _best_circle(state, p))


def _area(state, p, rng):
    r = state.rules
    pl = state.players[p]
    m, s = pl.side
    side = r.maps[m][s]
    plan = r.plans[r.plan_kind[state.battle_plan]]
    troop_vp, at_least, strength_vp, battle_vp = r.skirmish
    neighbours = _neighbours(side)
    areas = pl.areas
    best, best_value = None, -1e9
    for a in range(9):
        if areas >> a & 1:
            continue
        kind, index = r.area_kind[side.areas[a]]
        if kind == 0:
            value = troop_vp * plan.need[index]
        elif kind == 1:
            value = battle_vp if plan.battle == index else 0
        else:
            value = strength_vp if state.battle_strength >= at_least else 0
        for other in neighbours[a]:
            if areas >> other & 1:
                value += 2.0
        if a == 4:
            value += 0.3           # the centre touches four chains
        if value > best_value:
            best, best_value = ("area", a), value
    return best


_NEIGHBOURS = {}


def _neighbours(side) -> tuple:
    """Per area of a map side: the areas a chain joins it to, in the side's chain order."""
    out = _NEIGHBOURS.get(side.id)
    if out is None or out[0] is not side:
        out = _NEIGHBOURS[side.id] = (side, tuple(tuple(y if x == a else x for x, y, _ in side.chains if a in (x, y))
                                                  for a in range(9)))
    return out[1]


def _free(state, p, rng):
    best = _best_champion(state, p, lambda t: 0)
    return ("free", best[1], best[2])


def _take(state, p, rng):
    """The die worth most (``_die_value``, from the values per die code), the last shrine and die among
    equals."""
    pl = state.players[p]
    dv = _die_values(_needed_types(state, p))
    worst = min([dv[x] for x in pl.dice]) if len(pl.dice) >= pl.spaces else 0.0
    best = None
    for s, dice in enumerate(state.shrines):
        for d in set(dice):
            option = (dv[d] - worst, s, d)
            if best is None or option > best:
                best = option
    return ("take", best[1], best[2])


_HANDLERS = {SIDE: _side, COLOUR: _colour, MOVE: _move, DIE: _die, ROOM: _room, MAGIC_P: _magic, CHAMP: _champion,
             TACT: _tactics, BONUS: _bonus, SENTRY: _sentry, PLAN: _plan, DICE: _dice, BOOST: _boost,
             CIRCLE: _circle, AREA: _area, FREE: _free, TAKE: _take}
#: The quick bot's: the planner's but the move.
_QUICK_HANDLERS = {**_HANDLERS, MOVE: _quick_move}
#: The same as a tuple indexed by phase (the phases without a handler go to plan_bot_action).
_QUICK_BY_PHASE = tuple(_QUICK_HANDLERS.get(phase, plan_bot_action) for phase in range(len(PHASE_NAMES)))

class PlanRollout(Bot):
    """The search bot's rollout policy: the planner's moves."""

    name = "planner rollout"
    act = staticmethod(plan_bot_action)


#: Bot name -> factory: ``random``, ``planner``, ``quick`` and the core's ``search`` (its rollouts: the
#: planner's moves).
BOTS = registry({"planner": PlannerBot, "quick": QuickBot}, rollout=PlanRollout())
