"""One game of Shadow Kingdoms of Valeria: the board, the players, their decisions and the chance events.

Decisions are small tuples (``("move", 3)``, ``("take", 2, 17)``, ``("buy", 1, 0)``, ...; see
``docs/engine.md``), one seat deciding at a time. Chance events are listed and resolved one by one:
a die drawn from the bag and rolled into a shrine, a card drawn from a deck (decks are shuffled at
setup and never again, so a draw is uniform over the cards nobody has seen yet; cards put back under
a deck come out again in the order they went in), the boards, maps and first player dealt at setup.
Nothing is hidden from the players but the future, so an information state is the whole position.

How a turn runs: the state keeps a stack of *tasks* (steps still to do in this turn, such as "the
shrine's action", "the battle's step 6", "the next chain bonus") and runs them until one needs a
decision (``phase``) or a chance event; a decision's action continues the run. RULING comments mark
where the source leaves room (listed in ``docs/engine.md``).
"""

from __future__ import annotations

import math
import random
from itertools import combinations
from typing import NamedTuple

from rules_engine.core.search import softmax_returns
from rules_engine.core.state import IllegalAction, State, weighted_kinds
from rules_engine.valeria import scoring
from rules_engine.valeria.player import PlayerState
from rules_engine.valeria.effects import TROOPS
from rules_engine.valeria.invariants import check_state
from rules_engine.valeria.phases import (AREA, BONUS, BOOST, CHAMP, CIRCLE, COLOUR, DICE, DIE, DONE, FREE,  # noqa: F401
                                         GAIN_MAGIC, MAGIC_P, MOVE, NONE, OVER, PASS, PHASE_NAMES, PLAN, ROOM,
                                         SENTRY, SIDE, TACT, TAKE)
from rules_engine.valeria.rules import (CAMP, CHAMPIONS, GEM, GOLD, MAGIC, NB, NT, TACTICS, TURN_LIMIT, Rules,
                                        troop_of)
from rules_engine.valeria.transcript import describe_action

ENDINGS = ("plans", "adversary_plans", "turn_limit")
REASONS = ENDINGS


class Event(NamedTuple):
    type: str
    round: int
    data: dict

    def as_dict(self) -> dict:
        return {"type": self.type, "round": self.round, **self.data}


class FixedDieMissing(Exception):
    """A scenario's next die (``rolls``) is of a troop type the bag no longer holds."""


class GameState(State):
    """A game for ``players`` seats (1 = the solo game against the Adversary).

    ``seed`` gives the state its own generator for chance events (tests, play by hand); ``None`` stops
    at them for the caller to resolve. ``adversary_vp`` is the solo difficulty option (the
    Adversary's starting score, default from the data: 10).
    """

    def __init__(self, rules: Rules, players: int, seed=None, *, record: bool = False, check: bool = False,
                 adversary_vp: int | None = None, turn_limit: int = TURN_LIMIT, end_plans: int | None = None,
                 _start: bool = True):
        if not 1 <= players <= rules.max_players():
            raise ValueError(f"Shadow Kingdoms of Valeria is for 1 to {rules.max_players()} players, not {players}")
        self.rules = rules
        self.n = players
        self.solo = players == 1
        row = rules.setup[players]
        self.refill_at, self.refill_per_shrine = row["refill_at"], row["refill_per_shrine"]
        self.dice_per_type = row["dice_per_type"]
        self.players = [PlayerState(rules) for _ in range(players)]
        self.bag = [row["dice_per_type"]] * NT
        self.shrines = [[] for _ in range(5)]
        self.gem_supply = row["gems"]
        self.line = [-1] * len(rules.line_costs)
        self.plan_unseen = list(range(len(rules.plan_kind)))
        self.plan_known = []
        self.rows = [[-1] * k for k in rules.row_slots]
        self.champ_unseen = [list(deck) for deck in rules.champion_decks]
        self.champ_known = [[], [], []]
        diamonds = rules.award_slots
        self.award_unseen = [[n for n, k in enumerate(rules.award_kind) if rules.awards[k].diamond == d
                              and not (self.solo and k in rules.solo_removed)] for d in diamonds]
        self.awards = [-1] * len(diamonds)
        self.award_markers = [[] for _ in diamonds]       # seats, left to right
        self.boards_left = list(range(len(rules.boards)))
        self.maps_left = list(range(len(rules.maps)))
        self.first = 0
        self.cur = 0
        self.round = 1
        self.turns = 0
        self.turn_limit = turn_limit
        self.end_plans = end_plans or rules.end_plans     # plans that end the game (an option; setup.yaml's)
        self.end_triggered = False
        self.final_turn = False            # solo: the player's 7th plan, the Adversary moves once more
        self.adversary = rules.solo_start_shrine if self.solo else -1
        self.adversary_score = (rules.solo_start_score if adversary_vp is None else adversary_vp) if self.solo else 0
        self.adversary_plans = []
        self.battle_plan = -1              # the plan being fought at a Camp, its dice and total strength
        self.battle_dice = []
        self.battle_strength = 0
        self.phase = NONE
        self.tasks = []                    # steps still to run this turn (a stack: the last runs first)
        self.chance = []                   # chance events waiting, first first
        self.ctx = {}                      # the current decision's context
        self.over_reason = None
        self.scores = None
        self.winners = ()
        self.winner = None
        self.bonus_vp = None               # final scoring: per seat, end-game champion vp and dice vp
        self.record = record
        self.events = [] if record else None
        self.check = check
        self.violations = []
        self.stats = {"refills": 0, "battles": 0, "awards": 0, "chains": 0}
        self.bought = [[] for _ in range(players)]   # champion numbers each seat gained, in order
        self.bot_memo = None               # a bot's scratch note for its next decision (not game state)
        self.move_list = None              # the move decision's locations, worked out once (see _t_move)
        self._auto_chance = random.Random(seed) if seed is not None else None
        self.fixed_dice = ()               # a scenario's dice for the next draws from the bag (``rolls``)
        if _start:
            self._setup()
            self._run()
            self.settle()
            self._checkpoint("setup")

    # ================================================================== set-up

    def _setup(self):
        r = self.rules
        ch = self.chance
        for i in range(len(self.line)):
            ch.append(("plan", i))
        for s in r.clockwise:
            ch.extend([("die", s)] * r.setup[self.n]["dice_per_shrine"])
        for i in range(len(self.awards)):
            ch.append(("award", i))
        for t in range(3):
            for i in range(len(self.rows[t])):
                ch.append(("champ", t, i))
        for p in range(self.n):
            ch.append(("map", p))
        if not self.solo:
            ch.append(("first",))
        if self.record:
            self._rec("setup", players=self.n, gems=self.gem_supply, dice_per_type=self.dice_per_type,
                      adversary=self.adversary_score if self.solo else None)
        # after the deal, from the first player on: each player chooses a colour (a board, and so its Wild
        # troop type), then each chooses the side of their map (tasks run last in, first out)
        self.tasks.append(("start",))
        self.tasks.append(("sides",))
        self.tasks.append(("colours",))

    # ================================================================== the run loop

    def _run(self):
        """Run tasks until a decision or a chance event is needed, or the game is over."""
        tasks = self.tasks
        chance = self.chance
        run = _TASKS
        while self.phase == NONE and not chance:
            if not tasks:
                self._end_turn()
                continue
            task = tasks.pop()
            if len(task) == 1:
                run[task[0]](self)
            else:
                run[task[0]](self, *task[1:])

    def _then(self, *steps):
        """Queue steps to run next, in the order given."""
        self.tasks.extend(reversed(steps))

    def _ask(self, phase, **ctx):
        self.phase = phase
        self.ctx = ctx

    # ================================================================== state API

    def to_move(self) -> list[int]:
        if self.chance or self.phase == OVER or self.phase == NONE:
            return []
        return [self.cur]

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        if self.phase != OVER or not self.winners:
            return [0.0] * self.n
        share = 1.0 / len(self.winners)
        return [share if p in self.winners else 0.0 for p in range(self.n)]

    def progress(self):
        """Each player's score track (the Adversary's is not a seat's)."""
        return [pl.score for pl in self.players]

    def estimate(self, p: int) -> int:
        """A seat's score if the game ended now (end-game champions and dice counted)."""
        pl = self.players[p]
        return pl.score + len(pl.dice) + sum(vp for _, vp in scoring.final_bonus(self.rules, pl))

    def evaluate(self) -> list[float]:
        """Estimated returns before the end (for the search bot): a softmax of the estimated scores; in
        the solo game, the chance of beating the Adversary's estimated score."""
        if self.solo:
            lead = self.estimate(0) - self._adversary_estimate()
            return [1.0 / (1.0 + math.exp(-lead / 6.0))]
        return softmax_returns([self.estimate(p) for p in range(self.n)], 6.0)

    def _adversary_estimate(self) -> int:
        r = self.rules
        empty = sum(1 for m in self.award_markers if not m)
        claimed = sum(1 for m in self.award_markers if 0 in m)
        return self.adversary_score + empty * r.solo_empty_award_vp + claimed * r.solo_claimed_award_vp

    def is_chance(self) -> bool:
        return bool(self.chance)

    def chance_outcomes(self) -> list:
        if not self.chance:
            return []
        req = self.chance[0]
        kind = req[0]
        r = self.rules
        if kind == "die":
            total = sum(self.bag)
            return [(t * 6 + f, self.bag[t] / total / 6) for t in range(NT) if self.bag[t] for f in range(6)]
        if kind == "plan":
            return weighted_kinds(self.plan_unseen, r.plan_kind)
        if kind == "champ":
            return weighted_kinds(self.champ_unseen[req[1]], r.champion_kind)
        if kind == "award":
            return weighted_kinds(self.award_unseen[req[1]], r.award_kind)
        if kind == "map":
            return [(m, 1 / len(self.maps_left)) for m in self.maps_left]
        return [(p, 1 / self.n) for p in range(self.n)]

    def apply_chance(self, outcome) -> None:
        if not self.chance:
            raise IllegalAction("no chance event is pending")
        if outcome not in {o for o, _ in self.chance_outcomes()}:
            raise IllegalAction(f"{outcome!r} is not an outcome of {self.chance[0]}")
        self._resolve(outcome)
        if not self.chance:
            self._run()
            self._checkpoint("chance")

    def sample_chance(self, rng) -> None:
        """Resolve every pending chance event with ``rng`` (the fast path: one number per event)."""
        self.sample_pending(rng)
        self._run()
        if self.check:
            self._checkpoint("chance")

    def sample_pending(self, rng) -> None:
        """Resolve the pending chance events with ``rng`` without running the turn on."""
        rand = rng.random
        chance = self.chance
        while chance:
            req = chance[0]
            kind = req[0]
            if kind == "die":
                # the commonest event, resolved here as _resolve would (then the same pruning)
                bag = self.bag
                total = sum(bag)
                if self.fixed_dice:        # a scenario's rolls: the die it names, if the bag holds one
                    d = self.fixed_dice[0]
                    if not bag[d // 6]:
                        raise FixedDieMissing(f"the bag holds no {TROOPS[d // 6]} die to draw next")
                    self.fixed_dice = self.fixed_dice[1:]
                    del chance[0]
                    bag[d // 6] -= 1
                    self.shrines[req[1]].append(d)
                    if chance and (chance[0][0] != "die" or total == 1):
                        self._prune()
                    continue
                x = rand() * total
                t = 0
                while x >= bag[t]:
                    x -= bag[t]
                    t += 1
                del chance[0]
                bag[t] -= 1
                self.shrines[req[1]].append(t * 6 + int(rand() * 6))
                # _prune keeps a next die draw while the bag holds a die (total - 1 now): no need to ask it
                if chance and (chance[0][0] != "die" or total == 1):
                    self._prune()
                continue
            if kind == "champ":
                # the next commonest (the rows refill), resolved as _resolve would
                pool = self.champ_unseen[req[1]]
                outcome = pool[int(rand() * len(pool))]
                del chance[0]
                pool.remove(outcome)
                self.rows[req[1]][req[2]] = outcome
                self._prune()
                continue
            if kind == "plan":
                pool = self.plan_unseen
                outcome = pool[int(rand() * len(pool))]
            elif kind == "award":
                pool = self.award_unseen[req[1]]
                outcome = pool[int(rand() * len(pool))]
            elif kind == "map":
                outcome = self.maps_left[int(rand() * len(self.maps_left))]
            else:
                outcome = int(rand() * self.n)
            self._resolve(outcome)

    def _resolve(self, outcome) -> None:
        """Apply one chance outcome to the first pending event, then drop events that cannot happen."""
        req = self.chance.pop(0)
        kind = req[0]
        r = self.rules
        if kind == "die":
            self.bag[outcome // 6] -= 1
            self.shrines[req[1]].append(outcome)
        elif kind == "plan":
            self.plan_unseen.remove(outcome)
            self.line[req[1]] = outcome
            if self.record and self.turns:
                self._rec("plan_enters", card=r.plan_id(outcome), cost=r.line_costs[req[1]])
        elif kind == "champ":
            self.champ_unseen[req[1]].remove(outcome)
            self.rows[req[1]][req[2]] = outcome
        elif kind == "award":
            self.award_unseen[req[1]].remove(outcome)
            self.awards[req[1]] = outcome
            if self.record:
                self._rec("award_revealed", slot=req[1], card=r.award_id(outcome))
        elif kind == "map":
            self.maps_left.remove(outcome)
            self.players[req[1]].side = (outcome, -1)
        else:
            self.first = self.cur = outcome
        self._prune()

    def _prune(self) -> None:
        """Draw known cards at once and drop draws from an empty bag or deck (fill what can be filled)."""
        ch = self.chance
        while ch:
            req = ch[0]
            kind = req[0]
            if kind == "die":
                if sum(self.bag):
                    return
            elif kind == "plan":
                if self.plan_unseen:
                    return
                self.line[req[1]] = self.plan_known.pop(0) if self.plan_known else -1
                if self.record and self.turns and self.line[req[1]] >= 0:
                    self._rec("plan_enters", card=self.rules.plan_id(self.line[req[1]]),
                              cost=self.rules.line_costs[req[1]])
            elif kind == "champ":
                if self.champ_unseen[req[1]]:
                    return
                known = self.champ_known[req[1]]
                self.rows[req[1]][req[2]] = known.pop(0) if known else -1
            elif kind == "award":
                if self.award_unseen[req[1]]:
                    return
            else:
                return
            ch.pop(0)

    def _draw(self, request) -> None:
        self.chance.append(request)
        self._prune()

    # ------------------------------------------------------------------ decisions

    def legal_actions(self, player: int | None = None) -> list:
        if player is not None and player not in self.to_move():
            return []
        return self._legal()

    def apply_actions(self, actions) -> None:
        movers = self.to_move()
        if not movers or set(actions) != set(movers):
            raise IllegalAction(f"expected an action for seat {movers[0] if movers else '(nobody)'}")
        action = actions[movers[0]]
        if action not in self._legal():
            raise IllegalAction(f"{self.action_to_string(movers[0], action)} is not legal now "
                                f"({PHASE_NAMES[self.phase]} phase)")
        self.step(action)

    def apply(self, action) -> None:
        """Apply the deciding seat's action (checked)."""
        self.apply_actions({self.cur: action})

    def step(self, action) -> None:
        """Apply an action known to be legal (the fast path)."""
        phase = self.phase
        self.phase = NONE
        _ACTIONS[phase](self, action)
        if self.phase == NONE and not self.chance:    # else _run would stop at once
            self._run()
        if self._auto_chance is not None:
            self.settle()
        if self.check:
            self._checkpoint(f"{PHASE_NAMES[phase]} {action}")

    step_action = step

    def step_actions(self, actions) -> None:
        self.step(next(iter(actions.values())))

    def random_action(self, player, rng):
        actions = self._legal()
        return actions[int(rng.random() * len(actions))]

    # ------------------------------------------------------------------ copies and information

    def clone(self) -> "GameState":
        new = GameState.__new__(GameState)
        d = new.__dict__
        d.update(self.__dict__)
        new._auto_chance = None
        new.trace = None
        new.events = None
        new.record = False
        new.check = False
        new.violations = []
        new.players = [pl.copy() for pl in self.players]
        new.bag = self.bag[:]
        new.shrines = [s[:] for s in self.shrines]
        new.line = self.line[:]
        new.plan_unseen, new.plan_known = self.plan_unseen[:], self.plan_known[:]
        new.rows = [r[:] for r in self.rows]
        new.champ_unseen = [d[:] for d in self.champ_unseen]
        new.champ_known = [d[:] for d in self.champ_known]
        new.award_unseen = [d[:] for d in self.award_unseen]
        new.awards = self.awards[:]
        new.award_markers = [m[:] for m in self.award_markers]
        new.boards_left, new.maps_left = self.boards_left[:], self.maps_left[:]
        new.adversary_plans = self.adversary_plans[:]
        new.battle_dice = self.battle_dice[:]
        new.tasks = self.tasks[:]
        new.chance = self.chance[:]
        new.ctx = dict(self.ctx)
        new.stats = dict(self.stats)
        new.bought = [b[:] for b in self.bought]
        return new

    def information_state(self, player: int) -> tuple:
        """Everything on the table (nothing is hidden; the decks' unseen cards are known as a set)."""
        players = tuple((pl.gold, pl.magic, pl.influence, pl.score, pl.gems, tuple(sorted(pl.dice)), pl.where,
                         pl.covered, tuple(pl.reserved), len(pl.completed), tuple(sorted(pl.champions)), pl.areas,
                         pl.award_marks, pl.side) for pl in self.players)
        return (player, self.phase, self.cur, self.round, self.turns, players, tuple(map(tuple, self.shrines)),
                tuple(self.bag), self.gem_supply, tuple(self.line), tuple(map(tuple, self.rows)),
                tuple(map(tuple, self.award_markers)), tuple(self.awards), self.adversary, self.adversary_score,
                len(self.adversary_plans), tuple(self.tasks), tuple(sorted(self.ctx.items())),
                self.end_triggered, self.battle_plan, tuple(self.battle_dice))

    def determinize(self, player: int, rng) -> "GameState":
        """A clone: nobody knows more than the table shows, and what the decks and the bag will give is
        still a chance event, so there is nothing to sample again."""
        return self.clone()

    # ================================================================== turns

    def _t_colours(self):
        self._then(*[("colour", (self.first + i) % self.n) for i in range(self.n)])

    def _t_colour(self, p):
        self.cur = p
        self._ask(COLOUR)

    def _a_colour(self, action):
        # RULING (docs/engine.md, Valeria 1): the source has each player choose a colour; from the first
        # player on, each takes one of the boards still free
        board = action[1]
        self.boards_left.remove(board)
        pl = self.players[self.cur]
        pl.board, pl.wild = board, self.rules.boards[board][1]
        if self.record:
            self._rec("colour", player=self.cur, board=self.rules.boards[board][0], troop=TROOPS[pl.wild])

    def _t_sides(self):
        self.ctx = {}
        self._then(*[("side", (self.first + i) % self.n) for i in range(self.n)])

    def _t_side(self, p):
        self.cur = p
        self._ask(SIDE)

    def _a_side(self, action):
        pl = self.players[self.cur]
        pl.side = (pl.side[0], action[1])
        if self.record:
            self._rec("map", player=self.cur, side=self.rules.maps[pl.side[0]][action[1]].id,
                      board=self.rules.boards[pl.board][0])

    def _t_start(self):
        self.cur = self.first
        if self.record:
            self._rec("first_player", player=self.first)
        self._begin_turn()

    def _begin_turn(self):
        self.turns += 1
        if self.record:
            self._rec("turn", player=self.cur, turn=self.turns)
        self.ctx = {}
        self._t_refill_check(False)       # the turn's first step (nothing is pending here)

    def _t_refill_check(self, forced):
        if forced or sum(map(len, self.shrines)) <= self.refill_at:
            self._refill(forced)
        if self.chance:
            self.tasks.append(("move",))   # once the new dice and champions are on the table
        else:
            self._t_move()

    def _t_move(self):
        moves = self._moves()
        if not moves:
            if not self.ctx.get("refilled"):
                # RULING: with nowhere to go the shrines are refilled (the source names a Warden
                # without a legal move as a second refill trigger); if there is still nowhere
                # to go, the turn passes.
                self.ctx["refilled"] = True
                self._then(("refill_check", True))
                return
            if self.record:
                self._rec("no_move", player=self.cur)
            return
        self.move_list = moves
        self._ask(MOVE)

    def _refill(self, forced: bool):
        r = self.rules
        back = [d for s in self.shrines for d in s]
        for d in back:
            self.bag[troop_of(d)] += 1
        self.shrines = [[] for _ in range(5)]
        self.stats["refills"] += 1
        if self.record:
            self._rec("refill", player=self.cur, returned=len(back), per_shrine=self.refill_per_shrine,
                      forced=forced)
        # the draws are queued, then pruned once: pruning looks at the first draw only, and queueing
        # more changes nothing it reads, so this is _draw for each in turn (nothing is pending here)
        ch = self.chance
        for s in r.clockwise:
            ch.extend([("die", s)] * self.refill_per_shrine)
        # the face-up champions go under their decks in row order (no shuffle), then the rows refill
        for t in range(3):
            row = self.rows[t]
            for i, c in enumerate(row):
                if c >= 0:
                    self.champ_known[t].append(c)
                    row[i] = -1
            ch.extend([("champ", t, i) for i in range(len(row))])
        self._prune()

    def _moves(self) -> list[int]:
        where = self.players[self.cur].where
        adversary = self.adversary
        out = []
        for s, dice in enumerate(self.shrines):
            if dice and s != where and s != adversary:
                out.append(s)
        if where != CAMP and self.can_battle(self.cur):
            out.append(CAMP)
        return out

    def can_battle(self, p) -> bool:
        """Whether the player could complete a plan at the Camp now (the move there is allowed)."""
        pl = self.players[p]
        dice = pl.dice
        n = len(dice)
        if n < 2:
            return False
        have = [0] * NT
        for d in dice:
            have[d // 6] += 1
        r = self.rules
        plans, kinds = r.plans, r.plan_kind
        gold = pl.gold + pl.disc_plan
        costs = r.line_costs
        candidates = [card for card in pl.reserved if card >= 0]
        for i, card in enumerate(self.line):
            if card >= 0 and costs[i] <= gold:
                candidates.append(card)
        # what _feasible tells, for each plan in turn (inline: this runs before every move)
        gems, wild_on, wild = pl.gems, pl.wild_on, pl.wild
        for card in candidates:
            plan = plans[kinds[card]]
            k = plan.icons
            if n < k:
                continue
            matched = 0
            for t, b in plan.pairs:
                a = have[t]
                matched += a if a < b else b
            short = k - matched
            if short and wild_on and have[wild] > plan.need[wild]:
                short -= 1
            if short <= gems:
                return True
        return False

    def _a_move(self, action):
        self.move_list = None
        loc = action[1]
        pl = self.players[self.cur]
        pl.where = loc
        if self.record:
            self._rec("move", player=self.cur, to=loc)
        if loc == CAMP:
            self._t_plan()
        else:
            self._ask(DIE, shrine=loc)        # _t_take

    def _t_take(self, shrine):
        self._ask(DIE, shrine=shrine)

    def _a_die(self, action):
        _, shrine, d = action
        self.shrines[shrine].remove(d)
        discount = self.rules.discount_from - (d % 6 + 1)      # less the die's strength
        if self.record:
            self._rec("take_die", player=self.cur, shrine=shrine, die=d, discount=discount)
        if self._t_place(d):
            self._t_action(shrine, discount)    # at once: the task would run next
        else:
            self.tasks.append(("action", shrine, discount))   # after the room decision

    def _t_place(self, d) -> bool:
        """Put the die on a troop space, or ask which die goes back; whether it was placed at once."""
        pl = self.players[self.cur]
        if len(pl.dice) < pl.spaces:
            pl.dice.append(d)
            return True
        self._ask(ROOM, die=d)
        return False

    def _a_room(self, action):
        d = self.ctx["die"]
        pl = self.players[self.cur]
        out = action[1]
        if out < 0:
            out = d
        else:
            pl.dice.remove(out)
            pl.dice.append(d)
        self.bag[troop_of(out)] += 1
        if self.record:
            self._rec("return_die", player=self.cur, die=out, new=out == d)

    def _t_action(self, shrine, discount):
        p = self.cur
        if shrine == GEM:
            self._gain_gems(p, 1, "shrine")
        elif shrine == GOLD:
            self._gold(p, discount, "shrine")
        elif shrine == MAGIC:
            self._ask(MAGIC_P)
        elif shrine == CHAMPIONS:
            self._ask(CHAMP, discount=discount)
        else:
            self._ask(TACT, discount=discount)

    def _end_turn(self):
        """The turn is over: the Adversary moves (solo), then the next turn begins (once any card it
        drew is on the table)."""
        if self.phase == OVER:
            return
        if self.solo:
            self._adversary_move()
            if self.phase == OVER:
                return
        if self.chance:
            self.tasks.append(("next",))   # once the card the Adversary drew is on the table
        else:
            self._t_next()

    def _t_next(self):
        if self.solo:
            if self.final_turn:
                self._finish("plans")
                return
        elif self.end_triggered and (self.cur + 1) % self.n == self.first:
            self._finish("plans")
            return
        if self.turns >= self.turn_limit:
            self._finish("turn_limit")
            return
        self.cur = (self.cur + 1) % self.n
        if self.cur == self.first:
            self.mark_progress()
            self.round += 1
        self._begin_turn()

    # ================================================================== the Adversary (solo)

    def _adversary_move(self):
        r = self.rules
        order = r.clockwise
        self.adversary = order[(order.index(self.adversary) + 1) % len(order)]
        pl = self.players[0]
        if self.record:
            self._rec("adversary_move", shrine=self.adversary)
        if pl.where == self.adversary:
            self.adversary_score += r.solo_meeting_vp
            if self.record:
                self._rec("adversary_meets", vp=r.solo_meeting_vp, score=self.adversary_score)
        if self.adversary == TACTICS and self.line[0] >= 0:
            # RULING: the plan leaves the 5-Gold space, which is then refilled from the deck like any
            # space a plan leaves (the others do not slide: the empty space is the entry space)
            plan = self.line[0]
            self.line[0] = -1
            self.adversary_plans.append(plan)
            icons = r.plans[r.plan_kind[plan]].icons
            vp = r.solo_plan_vp.get(icons, 0)
            self.adversary_score += vp
            if self.record:
                self._rec("adversary_plan", card=r.plan_id(plan), icons=icons, vp=vp, score=self.adversary_score,
                          plans=len(self.adversary_plans))
            self._draw(("plan", 0))
            if len(self.adversary_plans) >= r.solo_plans_to_end:
                self._finish("adversary_plans")

    # ================================================================== the shrines

    def _legal(self) -> list:
        return _LEGAL[self.phase](self)

    def _l_none(self):
        return []

    _l_over = _l_none

    def _l_side(self):
        return [("side", 0), ("side", 1)]

    def _l_colour(self):
        return [("colour", b) for b in self.boards_left]

    def _l_move(self):
        return [("move", m) for m in self._moves()]

    def _l_die(self):
        s = self.ctx["shrine"]
        return [("take", s, d) for d in sorted(set(self.shrines[s]))]

    def _l_room(self):
        return [("room", -1)] + [("room", d) for d in sorted(set(self.players[self.cur].dice))]

    # ------------------------------------------------------------------ magic shrine

    def _l_magic(self):
        out = [GAIN_MAGIC]
        p = self.cur
        pl = self.players[p]
        if pl.covered:
            for slot in self._claimable(p):
                out.extend(("award", slot, c) for c in self._covered_circles(pl))
        return out

    def _claimable(self, p) -> list[int]:
        """Award slots whose award the player may claim now."""
        r = self.rules
        pl = self.players[p]
        out = []
        shared = self.n >= r.shared_last_from
        for slot, card in enumerate(self.awards):
            if card < 0 or pl.award_marks >> slot & 1:
                continue
            if len(self.award_markers[slot]) >= 3 and not shared:
                continue
            if scoring.award_met(r, pl, r.awards[r.award_kind[card]]):
                out.append(slot)
        return out

    @staticmethod
    def _covered_circles(pl) -> list[int]:
        covered = pl.covered
        return [c for c in range(covered.bit_length()) if covered >> c & 1]

    def _a_magic(self, action):
        p = self.cur
        if action[0] == "gain_magic":
            self._magic(p, self.rules.magic_shrine_magic, "shrine")
            return
        _, slot, circle = action
        r = self.rules
        pl = self.players[p]
        markers = self.award_markers[slot]
        award = r.awards[r.award_kind[self.awards[slot]]]
        vp = award.vp[min(len(markers), 2)]
        markers.append(p)
        pl.award_marks |= 1 << slot
        pl.score += vp
        self.stats["awards"] += 1
        if self.record:
            self._rec("award", player=p, card=award.id, vp=vp, circle=len(markers))
        self._uncover(p, circle)

    # ------------------------------------------------------------------ champions

    def champion_price(self, p: int, row: int, discount: int = 0, base_only: bool = False) -> int:
        """Gold the player pays for a champion of ``row`` (base cost, +1 per champion of the type held
        unless ``base_only``, less the die's discount and Death Knight-like discounts; never below 0)."""
        pl = self.players[p]
        cost = self.rules.row_cost[row] + (0 if base_only else pl.by_type[row]) - discount - pl.disc_champion
        return cost if cost > 0 else 0

    def _l_champion(self):
        p = self.cur
        pl = self.players[p]
        out = [PASS]
        discount = self.ctx["discount"]
        if len(pl.champions) < pl.limit(self.rules):
            for t in range(3):
                price = self.champion_price(p, t, discount)
                if price <= pl.gold:
                    out.extend(("buy", t, i) for i, c in enumerate(self.rows[t]) if c >= 0)
        if pl.magic >= self.rules.cycle_magic:
            out.extend(("cycle", t, i) for t in range(3) for i, c in enumerate(self.rows[t]) if c >= 0)
        return out

    def _a_champion(self, action):
        verb = action[0]
        if verb == "pass":
            return
        if verb == "cycle":
            self._cycle_champion(action[1], action[2])
            self._ask(CHAMP, discount=self.ctx["discount"])
            return
        _, t, i = action
        price = self.champion_price(self.cur, t, self.ctx["discount"])
        self._gain_champion(self.cur, t, i, price, "shrine")

    def _cycle_champion(self, t, i):
        p = self.cur
        pl = self.players[p]
        pl.magic -= self.rules.cycle_magic
        card = self.rows[t][i]
        self.champ_known[t].append(card)
        self.rows[t][i] = -1
        if self.record:
            self._rec("cycle_champion", player=p, card=self.rules.champion_id(card))
        self._draw(("champ", t, i))

    def _gain_champion(self, p, t, i, price, how):
        """The player takes the champion in row ``t``, space ``i``, paying ``price``; its instant effect
        happens now, then the player's other champions react to the gain."""
        r = self.rules
        pl = self.players[p]
        card = self.rows[t][i]
        pl.gold -= price
        self.rows[t][i] = -1
        champion = r.champions[r.champion_kind[card]]
        triggers = pl.t_champion[:]        # RULING: a champion does not react to its own arrival
        pl.add_champion(card, champion)
        self.bought[p].append(card)
        if self.record:
            self._rec("champion", player=p, card=champion.id, price=price, how=how)
        self._draw(("champ", t, i))
        steps = []
        kind, params = champion.kind, champion.params
        if kind == "gain":
            steps.append(("instant_gain", card))
        elif kind == "take_die":
            steps.append(("take_any", "champion"))
        elif kind == "reserve_plan":
            steps.append(("sentry",))
        for source, gold, magic in triggers:
            steps.append(("trigger", source, gold, magic))
        self._then(*steps)

    def _t_instant_gain(self, card):
        r = self.rules
        params = r.champions[r.champion_kind[card]].params
        p = self.cur
        cid = r.champion_id(card)
        self._influence(p, params["influence"], cid)
        self._magic(p, params["magic"], cid)
        self._gold(p, params["gold"], cid)
        self._gain_gems(p, params["gems"], cid)

    def _t_trigger(self, source, gold, magic):
        cid = self.rules.champion_id(source)
        self._gold(self.cur, gold, cid)
        self._magic(self.cur, magic, cid)

    # ------------------------------------------------------------------ any die (Mercenary, bonuses)

    def _t_take_any(self, why):
        if any(self.shrines):
            self._ask(TAKE, why=why)

    def _l_take_die(self):
        return [("take", s, d) for s in range(5) for d in sorted(set(self.shrines[s]))]

    def _a_take_die(self, action):
        _, shrine, d = action
        self.shrines[shrine].remove(d)
        if self.record:
            self._rec("take_die", player=self.cur, shrine=shrine, die=d, discount=None, why=self.ctx.get("why"))
        self._then(("place", d))

    # ------------------------------------------------------------------ tactics: reserving plans

    def plan_price(self, p: int, i: int, discount: int = 0) -> int:
        """Gold the player pays for the plan in line space ``i`` (its cost less the discounts, >= 0)."""
        cost = self.rules.line_costs[i] - discount - self.players[p].disc_plan
        return cost if cost > 0 else 0

    def _l_tactics(self):
        p = self.cur
        pl = self.players[p]
        out = [PASS]
        slots = pl.open_slots()
        discount = self.ctx["discount"]
        if slots:
            for i, card in enumerate(self.line):
                if card >= 0 and self.plan_price(p, i, discount) <= pl.gold:
                    out.extend(("reserve", i, s) for s in slots)
        if pl.magic >= self.rules.cycle_magic:
            out.extend(("cycle_plan", i) for i, c in enumerate(self.line) if c >= 0)
        return out

    def _a_tactics(self, action):
        verb = action[0]
        if verb == "pass":
            return
        if verb == "cycle_plan":
            self._cycle_plan(action[1])
            self._ask(TACT, discount=self.ctx["discount"])
            return
        _, i, slot = action
        self._reserve(i, slot, self.plan_price(self.cur, i, self.ctx["discount"]))

    def _cycle_plan(self, i):
        pl = self.players[self.cur]
        pl.magic -= self.rules.cycle_magic
        card = self._take_from_line(i)
        self.plan_known.append(card)
        if self.record:
            self._rec("cycle_plan", player=self.cur, card=self.rules.plan_id(card))

    def _take_from_line(self, i) -> int:
        """Remove the plan in space ``i``; the plans nearer the deck slide towards the cheap end and a new
        plan enters the first space (the 5-Gold space)."""
        line = self.line
        card = line[i]
        for j in range(i, 0, -1):
            line[j] = line[j - 1]
        line[0] = -1
        self._draw(("plan", 0))
        return card

    def _reserve(self, i, slot, price):
        p = self.cur
        pl = self.players[p]
        pl.gold -= price
        card = self._take_from_line(i)
        pl.reserved[slot] = card
        if self.record:
            self._rec("reserve", player=p, card=self.rules.plan_id(card), price=price, slot=self.rules.slots[slot].id)
        steps = [("trigger", source, gold, magic) for source, gold, magic in pl.t_plan]
        steps.append(("bonus", slot))
        self._then(*steps)

    def _bonus_price(self, p, slot_index, row=-1) -> int:
        slot = self.rules.slots[slot_index]
        pl = self.players[p]
        price = (self.rules.row_cost[row] - pl.disc_champion) if slot.base_cost else slot.price
        price -= pl.disc_bonus
        return price if price > 0 else 0

    def _t_bonus(self, slot):
        if self._l_bonus_for(slot) != [PASS]:
            self._ask(BONUS, slot=slot)

    def _l_bonus(self):
        return self._l_bonus_for(self.ctx["slot"])

    def _l_bonus_for(self, slot_index):
        p = self.cur
        pl = self.players[p]
        slot = self.rules.slots[slot_index]
        out = [PASS]
        if slot.bonus == "influence":
            if self._bonus_price(p, slot_index) <= pl.gold:
                out.append(("bonus",))
        elif slot.bonus == "die":
            if self._bonus_price(p, slot_index) <= pl.gold:
                out.extend(("bonus_die", s, d) for s in range(5) for d in sorted(set(self.shrines[s])))
        elif len(pl.champions) < pl.limit(self.rules):
            for t in range(3):
                if self._bonus_price(p, slot_index, t) <= pl.gold:
                    out.extend(("bonus_champion", t, i) for i, c in enumerate(self.rows[t]) if c >= 0)
        return out

    def _a_bonus(self, action):
        verb = action[0]
        if verb == "pass":
            return
        p = self.cur
        slot_index = self.ctx["slot"]
        slot = self.rules.slots[slot_index]
        if verb == "bonus":
            price = self._bonus_price(p, slot_index)
            self.players[p].gold -= price
            if self.record:
                self._rec("reserve_bonus", player=p, bonus=slot.bonus, price=price)
            self._influence(p, slot.amount, "bonus")
        elif verb == "bonus_die":
            price = self._bonus_price(p, slot_index)
            self.players[p].gold -= price
            _, shrine, d = action
            self.shrines[shrine].remove(d)
            if self.record:
                self._rec("reserve_bonus", player=p, bonus=slot.bonus, price=price)
                self._rec("take_die", player=p, shrine=shrine, die=d, discount=None, why="bonus")
            self._then(("place", d))
        else:
            _, t, i = action
            price = self._bonus_price(p, slot_index, t)
            if self.record:
                self._rec("reserve_bonus", player=p, bonus=slot.bonus, price=price)
            self._gain_champion(p, t, i, price, "bonus")

    # ------------------------------------------------------------------ Sentry: a free plan

    def _t_sentry(self):
        if self._l_sentry() != [PASS]:
            self._ask(SENTRY)

    def _l_sentry(self):
        slots = self.players[self.cur].open_slots()
        out = [PASS]
        if slots:
            out.extend(("reserve", i, s) for i, c in enumerate(self.line) if c >= 0 for s in slots)
        return out

    def _a_sentry(self, action):
        if action[0] == "pass":
            return
        self._reserve(action[1], action[2], 0)

    # ================================================================== battles at the Camp

    def _battle_options(self, p) -> list:
        """Plans the player could complete now: ``("plan_reserved", slot)`` / ``("plan_line", i)``."""
        pl = self.players[p]
        dice = pl.dice
        if len(dice) < 2:
            return []
        have = [0] * NT
        for d in dice:
            have[d // 6] += 1
        r = self.rules
        out = []
        for slot, card in enumerate(pl.reserved):
            if card >= 0 and self._feasible(pl, have, len(dice), r.plans[r.plan_kind[card]]):
                out.append(("plan_reserved", slot))
        gold = pl.gold
        for i, card in enumerate(self.line):
            if card >= 0 and self.plan_price(p, i) <= gold and \
                    self._feasible(pl, have, len(dice), r.plans[r.plan_kind[card]]):
                out.append(("plan_line", i))
        return out

    @staticmethod
    def _feasible(pl, have, ndice, plan) -> bool:
        k = plan.icons
        if ndice < k:
            return False
        matched = 0
        for t, b in plan.pairs:
            a = have[t]
            matched += a if a < b else b
        short = k - matched
        if not short:
            return True
        need = plan.need
        if short and pl.wild_on and have[pl.wild] > need[pl.wild]:
            short -= 1
        return short <= pl.gems

    @staticmethod
    def gems_needed(pl, chosen, plan) -> int:
        """Gems the chosen dice need (as Wilds) to meet the plan, after the board's Wild ability."""
        have = [0] * NT
        for d in chosen:
            have[d // 6] += 1
        need = plan.need
        matched = 0
        for t in range(NT):
            a, b = have[t], need[t]
            matched += a if a < b else b
        short = plan.icons - matched
        if short and pl.wild_on and have[pl.wild] > need[pl.wild]:
            short -= 1
        return short

    def _t_plan(self):
        self._ask(PLAN)

    def _l_plan(self):
        p = self.cur
        options = self._battle_options(p)
        out = list(options)
        pl = self.players[p]
        if pl.magic >= self.rules.cycle_magic:
            # RULING: at the Camp a plan of the line may be cycled only while a plan that can be
            # completed remains (the move to the Camp needs one)
            for i, c in enumerate(self.line):
                if c >= 0 and any(o != ("plan_line", i) for o in options):
                    out.append(("cycle_plan", i))
        return out

    def _a_plan(self, action):
        verb = action[0]
        p = self.cur
        pl = self.players[p]
        r = self.rules
        if verb == "cycle_plan":
            self._cycle_plan(action[1])
            self._ask(PLAN)
            return
        if verb == "plan_reserved":
            card = pl.reserved[action[1]]
            pl.reserved[action[1]] = -1
            price, from_line = 0, False
        else:
            price = self.plan_price(p, action[1])
            pl.gold -= price
            card = self._take_from_line(action[1])
            from_line = True
        self.battle_plan = card
        if self.record:
            self._rec("battle_plan", player=p, card=r.plan_id(card), price=price, from_line=from_line)
        steps = [("trigger", source, gold, magic) for source, gold, magic in pl.t_plan] if from_line else []
        steps.append(("dice",))
        self._then(*steps)

    def _t_dice(self):
        self._ask(DICE)

    def _l_dice(self):
        pl = self.players[self.cur]
        r = self.rules
        plan = r.plans[r.plan_kind[self.battle_plan]]
        out = []
        seen = set()
        for chosen in combinations(sorted(pl.dice), plan.icons):
            if chosen in seen:
                continue
            seen.add(chosen)
            if self.gems_needed(pl, chosen, plan) <= pl.gems:
                out.append(("dice", chosen))
        return out

    def _a_dice(self, action):
        p = self.cur
        pl = self.players[p]
        r = self.rules
        chosen = list(action[1])
        for d in chosen:
            pl.dice.remove(d)
        self.battle_dice = chosen
        plan = r.plans[r.plan_kind[self.battle_plan]]
        wilds = self.gems_needed(pl, chosen, plan)
        if self.record:
            self._rec("battle_dice", player=p, dice=list(chosen), wild_gems=wilds,
                      board_wild=self._board_wild_used(pl, chosen, plan))
        for _ in range(wilds):
            self._spend_gem(p, "wild")
        self._t_boost()                   # the next step (nothing was drawn)

    @staticmethod
    def _board_wild_used(pl, chosen, plan) -> bool:
        have = [0] * NT
        for d in chosen:
            have[d // 6] += 1
        matched = sum(min(have[t], plan.need[t]) for t in range(NT))
        return bool(plan.icons - matched and pl.wild_on and have[pl.wild] > plan.need[pl.wild])

    def _t_boost(self):
        self._ask(BOOST)

    def _l_boost(self):
        pl = self.players[self.cur]
        dice = sorted(set(self.battle_dice))
        out = [DONE]
        # RULING: gems flip any die on the plan (a flip that lowers it can still serve an Oracle or a
        # Shaman); magic changes any troop die of the player by 1, up or down, within 1..6: a die on the
        # plan ("up", "down") or one left in the troop spaces for later battles ("up_kept", "down_kept")
        if pl.gems:
            out.extend(("flip", d) for d in dice)
        if pl.magic:
            out.extend(("up", d) for d in dice if d % 6 < 5)
            out.extend(("down", d) for d in dice if d % 6 > 0)
            kept = sorted(set(pl.dice))
            out.extend(("up_kept", d) for d in kept if d % 6 < 5)
            out.extend(("down_kept", d) for d in kept if d % 6 > 0)
        return out

    def _a_boost(self, action):
        verb = action[0]
        if verb == "done":
            self._t_resolve()             # the next step (nothing is pending)
            return
        p = self.cur
        pl = self.players[p]
        d = action[1]
        dice = pl.dice if verb.endswith("_kept") else self.battle_dice
        k = dice.index(d)
        if verb == "flip":
            new = d - d % 6 + (5 - d % 6)
            self._spend_gem(p, "flip")
        else:
            new = d + 1 if verb.startswith("up") else d - 1
            pl.magic -= 1
        dice[k] = new
        if self.record:
            self._rec("change_die", player=p, die=d, to=new, how=verb)
        self._t_boost()                   # the next step (nothing was drawn)

    def _t_resolve(self):
        """Steps 3 and 4 (strength, victory points), then 5 to 9."""
        r = self.rules
        p = self.cur
        pl = self.players[p]
        card, dice = self.battle_plan, self.battle_dice
        plan = r.plans[r.plan_kind[card]]
        dice_strength = sum(d % 6 + 1 for d in dice)
        bonus = pl.battle_strength_bonus(plan.battle, r)
        total = dice_strength + bonus
        final = total if total < pl.influence else pl.influence
        self.battle_strength = final
        vp = r.vp_for(final)
        pl.score += vp
        self.stats["battles"] += 1
        if self.record:
            sources = [(r.champion_id(c), a) for c, a, b in pl.strength_cards if b < 0 or b == plan.battle]
            if pl.strength_on:
                sources.append(("board", r.strength_bonus))
            self._rec("battle", player=p, card=plan.id, dice=list(dice), dice_strength=dice_strength,
                      bonuses=sources, total=total, influence=pl.influence, strength=final, vp=vp)
        steps = [("trigger", source, gold, magic) for source, b, gold, magic in pl.t_complete
                 if b < 0 or b == plan.battle]
        if pl.covered:
            steps.append(("circle",))
            steps.append(("area",))
        steps.append(("battle_end",))
        self._then(*steps)

    def _t_circle(self):
        self._ask(CIRCLE)

    def _l_circle(self):
        return [("circle", c) for c in self._covered_circles(self.players[self.cur])]

    def _a_circle(self, action):
        self._uncover(self.cur, action[1])

    def _uncover(self, p, c):
        """Take the conquest marker off circle ``c``: what the circle covered is unlocked at once."""
        r = self.rules
        pl = self.players[p]
        pl.covered &= ~(1 << c)
        circle = r.circles[c]
        if self.record:
            self._rec("unlock", player=p, circle=circle.id, unlocks=circle.unlocks)
        u = circle.unlocks
        if u == "champion_limit":
            pl.limit_step = min(pl.limit_step + 1, len(r.champion_limits) - 1)
        elif u == "wild":
            pl.wild_on = True
        elif u == "gem_storage":
            pl.gem_cap = max(pl.gem_cap, circle.value)
            self._gain_gems(p, circle.gain_gems, "unlock")
        elif u == "reserve_slot":
            pl.slot_open[circle.slot] = True
        elif u == "strength":
            pl.strength_on = True
        elif u == "track":
            pl.cap = r.track_max
        else:
            pl.spaces += 1

    def _uncover_quietly(self, p, c):
        """What circle ``c`` unlocks, without its one-time gain (a scenario's starting position)."""
        r = self.rules
        pl = self.players[p]
        pl.covered &= ~(1 << c)
        circle = r.circles[c]
        u = circle.unlocks
        if u == "champion_limit":
            pl.limit_step = min(pl.limit_step + 1, len(r.champion_limits) - 1)
        elif u == "wild":
            pl.wild_on = True
        elif u == "gem_storage":
            pl.gem_cap = max(pl.gem_cap, circle.value)
        elif u == "reserve_slot":
            pl.slot_open[circle.slot] = True
        elif u == "strength":
            pl.strength_on = True
        elif u == "track":
            pl.cap = r.track_max
        else:
            pl.spaces += 1

    def _t_area(self):
        self._ask(AREA)

    def _l_area(self):
        areas = self.players[self.cur].areas
        return [("area", a) for a in range(9) if not areas >> a & 1]

    def _a_area(self, action):
        r = self.rules
        p = self.cur
        pl = self.players[p]
        a = action[1]
        pl.areas |= 1 << a
        m, s = pl.side
        side = r.maps[m][s]
        plan = r.plans[r.plan_kind[self.battle_plan]]
        kind, index = r.area_kind[side.areas[a]]
        troop_vp, at_least, strength_vp, battle_vp = r.skirmish
        if kind == 0:
            vp = troop_vp * plan.need[index]
        elif kind == 1:
            vp = battle_vp if plan.battle == index else 0
        else:
            vp = strength_vp if self.battle_strength >= at_least else 0
        pl.score += vp
        if self.record:
            self._rec("skirmish", player=p, area=a, bonus=side.areas[a], vp=vp)
        steps = []
        for x, y, bonus in side.chains:
            if (x == a or y == a) and pl.areas >> x & 1 and pl.areas >> y & 1:
                steps.append(("chain", bonus, x, y))
        self._then(*steps)

    def _t_chain(self, bonus, x, y):
        """One chain bonus (RULING: several are taken in map order, across then down, top to bottom)."""
        r = self.rules
        p = self.cur
        pl = self.players[p]
        self.stats["chains"] += 1
        if self.record:
            self._rec("chain", player=p, bonus=bonus, between=[x, y])
        champions, influence, magic, gold, gems, dice = r.chain_gains[bonus]
        self._influence(p, influence, "chain")
        self._magic(p, magic, "chain")
        self._gold(p, gold, "chain")
        self._gain_gems(p, gems, "chain")
        steps = []
        for _ in range(dice):
            steps.append(("take_any", "chain"))
        for _ in range(champions):
            steps.append(("free",))
        steps.extend(("trigger", source, g, m) for source, g, m in pl.t_chain)
        self._then(*steps)

    def _t_free(self):
        pl = self.players[self.cur]
        if len(pl.champions) < pl.limit(self.rules) and any(c >= 0 for row in self.rows for c in row):
            self._ask(FREE)
        elif self.record:
            self._rec("no_free_champion", player=self.cur)

    def _l_free_champion(self):
        out = [("free", t, i) for t in range(3) for i, c in enumerate(self.rows[t]) if c >= 0]
        if self.players[self.cur].magic >= self.rules.cycle_magic:
            # RULING: the source's reminder under the free Champion bonus lets magic cycle the rows first
            out.extend(("cycle", t, i) for t in range(3) for i, c in enumerate(self.rows[t]) if c >= 0)
        return out

    def _a_free_champion(self, action):
        if action[0] == "cycle":
            self._cycle_champion(action[1], action[2])
            self._then(("free",))
            return
        self._gain_champion(self.cur, action[1], action[2], 0, "chain")

    def _t_battle_end(self):
        r = self.rules
        p = self.cur
        pl = self.players[p]
        card = self.battle_plan
        for d in self.battle_dice:
            self.bag[d // 6] += 1
        self.battle_dice = []
        self.battle_plan = -1
        pl.completed.append(card)
        if self.record:
            self._rec("battle_end", player=p, card=r.plan_id(card), plans=len(pl.completed))
        self.ctx = {}
        if len(pl.completed) >= self.end_plans and not self.end_triggered:
            self.end_triggered = True
            if self.solo:
                self.final_turn = True
            if self.record:
                self._rec("end_triggered", player=p, plans=len(pl.completed), solo=self.solo)

    # ================================================================== gains and their triggers

    def _gold(self, p, amount, source, echo=True):
        if amount <= 0:
            return
        pl = self.players[p]
        before = pl.gold
        new = before + amount
        pl.gold = new if new < pl.cap else pl.cap
        if self.record:
            self._rec("gain", player=p, what="gold", amount=amount, got=pl.gold - before, source=source)
        if echo:
            # RULING: extra gold from an echo (Peddler) never sets off an echo again
            for card, extra in pl.echo_gold:
                self._gold(p, extra, self.rules.champion_id(card), False)

    def _magic(self, p, amount, source, echo=True):
        if amount <= 0:
            return
        pl = self.players[p]
        before = pl.magic
        new = before + amount
        pl.magic = new if new < pl.cap else pl.cap
        if self.record:
            self._rec("gain", player=p, what="magic", amount=amount, got=pl.magic - before, source=source)
        if echo:
            for card, extra in pl.echo_magic:
                self._magic(p, extra, self.rules.champion_id(card), False)

    def _influence(self, p, amount, source):
        if amount <= 0:
            return
        r = self.rules
        pl = self.players[p]
        before = pl.influence
        new = before + amount
        vp = 0
        if new > pl.cap:
            # RULING: only influence beyond the track's top (20) turns into victory points; beyond 13
            # while the 14 space is covered it is lost like gold and magic
            if pl.cap >= r.track_max:
                vp = (new - pl.cap) * r.overflow_vp
                pl.score += vp
            new = pl.cap
        pl.influence = new
        if self.record:
            self._rec("gain", player=p, what="influence", amount=amount, got=new - before, source=source, vp=vp)
        for card in pl.match_gold:
            self._gold(p, amount, r.champion_id(card))
        for card in pl.match_magic:
            self._magic(p, amount, r.champion_id(card))

    def _gain_gems(self, p, k, source):
        if k <= 0:
            return
        pl = self.players[p]
        take = min(k, self.gem_supply, pl.gem_cap - pl.gems)
        for _ in range(max(0, take)):
            pl.gems += 1
            self.gem_supply -= 1
            if self.record:
                self._rec("gem", player=p, gained=True, source=source)
            for card, gold, magic in pl.t_gem:
                cid = self.rules.champion_id(card)
                self._gold(p, gold, cid)
                self._magic(p, magic, cid)

    def _spend_gem(self, p, why):
        pl = self.players[p]
        pl.gems -= 1
        self.gem_supply += 1
        if self.record:
            self._rec("gem", player=p, gained=False, source=why)
        for card, gold, magic in pl.t_gem:
            cid = self.rules.champion_id(card)
            self._gold(p, gold, cid)
            self._magic(p, magic, cid)

    # ================================================================== the end

    def _finish(self, reason):
        r = self.rules
        self.over_reason = reason
        self.tasks = []
        self.chance = []
        bonus = []
        for p, pl in enumerate(self.players):
            champions = scoring.final_bonus(r, pl)
            dice_vp = len(pl.dice)
            pl.score += sum(vp for _, vp in champions) + dice_vp
            bonus.append((champions, dice_vp))
            if self.record:
                self._rec("final", player=p, champions=[(r.champion_id(c), vp) for c, vp in champions],
                          dice=dice_vp, score=pl.score)
        self.bonus_vp = bonus
        self.scores = [pl.score for pl in self.players]
        self.mark_progress()
        if self.solo:
            empty = sum(1 for m in self.award_markers if not m)
            claimed = sum(1 for m in self.award_markers if 0 in m)
            self.adversary_score += empty * r.solo_empty_award_vp + claimed * r.solo_claimed_award_vp
            self.winners = (0,) if self.scores[0] > self.adversary_score else ()
            if self.record:
                self._rec("adversary_final", empty=empty, claimed=claimed, score=self.adversary_score)
        else:
            best = max(self.scores)
            tied = [p for p in range(self.n) if self.scores[p] == best]
            top = max(self.players[p].influence for p in tied)
            self.winners = tuple(p for p in tied if self.players[p].influence == top)
        self.winner = self.winners[0] if len(self.winners) == 1 else None
        self.phase = OVER
        if self.record:
            self._rec("game_over", reason=reason, scores=self.scores, winners=list(self.winners),
                      adversary=self.adversary_score if self.solo else None)

    # ================================================================== names, events, checks

    def action_to_string(self, player, action) -> str:
        return f"seat {player}: {describe_action(self, action)}"

    def _rec(self, kind, **data):
        self.events.append(Event(kind, self.round, data))

    def _checkpoint(self, where):
        if not self.check:
            return
        for problem in check_state(self):
            self.violations.append(f"turn {self.turns}, after {where}: {problem}")

    # ------------------------------------------------------------------ for reports and bots

    def all_cards(self) -> list:
        """Every card wherever it is, as ``(deck, number)``: plans, champions and awards."""
        r = self.rules
        plans = ([c for c in self.line if c >= 0] + self.plan_unseen + self.plan_known + self.adversary_plans
                 + ([self.battle_plan] if self.battle_plan >= 0 else []))
        champions = [c for row in self.rows for c in row if c >= 0]
        for t in range(3):
            champions += self.champ_unseen[t] + self.champ_known[t]
        for pl in self.players:
            plans += [c for c in pl.reserved if c >= 0] + pl.completed
            champions += pl.champions
        awards = [c for c in self.awards if c >= 0] + [c for d in self.award_unseen for c in d]
        if self.solo:
            awards += [n for n, k in enumerate(r.award_kind) if k in r.solo_removed]
        return [("plan", c) for c in plans] + [("champion", c) for c in champions] + [("award", c) for c in awards]

    def board_dice(self) -> int:
        return sum(len(s) for s in self.shrines)

    def all_dice(self) -> list[int]:
        """Dice per troop type wherever they are (bag, shrines, troop spaces, on a plan in battle)."""
        counts = self.bag[:]
        for s in self.shrines:
            for d in s:
                counts[d // 6] += 1
        for pl in self.players:
            for d in pl.dice:
                counts[d // 6] += 1
        for d in self.battle_dice:
            counts[d // 6] += 1
        if self.phase == ROOM:
            counts[self.ctx["die"] // 6] += 1
        return counts


#: Dispatch tables (built once): task name -> step, phase -> its action's handler and its legal actions.
_TASKS = {name[3:]: fn for name, fn in vars(GameState).items() if name.startswith("_t_")}
_ACTIONS = tuple(getattr(GameState, "_a_" + name, None) for name in PHASE_NAMES)
_LEGAL = tuple(getattr(GameState, "_l_" + name) for name in PHASE_NAMES)

__all__ = ["Event", "GameState", "IllegalAction", "ENDINGS", "PHASE_NAMES", "NB"]
