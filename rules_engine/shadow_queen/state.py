"""The mutable state of a Shadow Queen game and the rules that move it forward.

:class:`GameState` implements the core state API (:mod:`rules_engine.core.state`). Seat 0 is the
side that moves first (the Shadows), seat 1 the other (the Kingdom). A turn:

``draw``      chance: the side draws one card per holding it controls (a card from its deck at random;
              the deck is an unordered pile, as it is reshuffled whenever cards go back into it);
``piece``     the side picks a piece it controls that has not yet had its go this turn and moves it
              (an :class:`Action` ``move`` to a space, its own space for no move), or ends the turn;
``act``       that piece may play a card, finish a build it began on the side's last turn, or pass;
``defend``    when a piece is attacked (or rescued), the side that controls it may play a defend card;
``roll``      chance: the attack roll, then the defence roll (the sum of the dice);
``discard``   at the end of the turn, the side discards down to one card per holding it controls;
``over``      someone has won, or the turn limit was reached.

Interpretations of the draft are marked ``RULING`` and listed in ``docs/engine.md`` ("Shadow Queen").
With ``record=True`` events go to ``state.events``; with ``check=True`` the invariants
(:mod:`rules_engine.shadow_queen.invariants`) are checked after every action.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from rules_engine.core.state import IllegalAction, State, weighted_kinds
from rules_engine.shadow_queen.events import Event
from rules_engine.shadow_queen.rules import CAVE_TURNS, DIE_SIDES, TURN_LIMIT, Rules
from rules_engine.shadow_queen.transcript import names_table

DRAW, PIECE, ACT, DEFEND, ROLL, DISCARD, OVER = "draw", "piece", "act", "defend", "roll", "discard", "over"

#: Action verbs.
MOVE, PLAY, FINISH, PASS, END, DEFEND_WITH, NO_DEFENCE, DISCARD_CARD = (
    "move", "play", "finish", "pass", "end", "defend", "no_defence", "discard")

#: How a game ends.
ENTHRALLED, BANISHED, HELD, TURN_LIMIT_REACHED = "enthralled", "banished", "held", "turn_limit"
REASONS = (ENTHRALLED, BANISHED, HELD, TURN_LIMIT_REACHED)

#: The draft's open points as game options, with the values that play the draft as the rulings read it
#: (``OPTIONS`` in the package documents each): cards drawn and kept per holding, the bear's patience,
#: and the victory conditions (0: every piece, as written; a number: that many; holdings_to_win 0: off).
VARIANT_DEFAULTS = {"draws_per_holding": 1, "hand_per_holding": 1, "cave_limit": CAVE_TURNS, "enthral_to_win": 0,
                    "banish_to_win": 0, "kingdom_goal": "shadows", "holdings_to_win": 0}

#: How a piece leaves the board.
KILLED, DROWNED, EATEN = "killed", "drowned", "eaten"
FATES = (KILLED, DROWNED, EATEN)


class Action(NamedTuple):
    """One decision. ``piece``: the piece moved, playing or defending; ``card``: a physical card;
    ``target``: what a card aims at (a piece, a holding, a bridge site, a card: see each kind);
    ``dest``: a space (a move, where a lured piece ends) or a patrol's destination."""

    verb: str
    piece: int = -1
    card: int = -1
    target: int = -1
    dest: int = -1


END_ACTION, PASS_ACTION, NO_DEFENCE_ACTION = Action(END), Action(PASS), Action(NO_DEFENCE)
PASS_ONLY = (PASS_ACTION,)

#: Card kinds whose every target is a piece the playing side does not control, within the card's reach
#: (a blessing may instead aim at the holding the piece stands in).
FOE_KINDS = frozenset(("attack", "rescue", "possess", "lure", "banish", "bless"))


def dice_sum_odds(dice: int, sides: int = DIE_SIDES) -> list[tuple[int, float]]:
    """``[(total, probability)]`` of the sum of ``dice`` dice (one outcome 0 for no dice)."""
    ways = {0: 1}
    for _ in range(dice):
        nxt = {}
        for total, n in ways.items():
            for face in range(1, sides + 1):
                nxt[total + face] = nxt.get(total + face, 0) + n
        ways = nxt
    whole = sides ** dice
    return [(t, ways[t] / whole) for t in sorted(ways)]


class Order:
    """Orders a piece (a Soldier) is under: the card, which orders, the patrol's destination
    (``Rules``-coded: a holding, or the number of holdings + a piece), the marching direction (-1
    until the first march), the turn they were given and whether the piece moved this turn."""

    __slots__ = ("card", "order", "dest", "direction", "given", "moved")

    def __init__(self, card, order, dest=-1, direction=-1, given=0, moved=False):
        self.card, self.order, self.dest, self.direction, self.given, self.moved = (
            card, order, dest, direction, given, moved)

    def copy(self):
        return Order(self.card, self.order, self.dest, self.direction, self.given, self.moved)

    def key(self):
        return (self.card, self.order, self.dest, self.direction, self.given, self.moved)


class GameState(State):
    """One game of Shadow Queen. ``seed`` (or ``rng``) makes the state resolve its own chance events
    (tests, play by hand); ``seed=None`` leaves them to the caller (:meth:`is_chance`)."""

    n = 2

    def __init__(self, rules: Rules, players: int = 2, seed=None, *, record: bool = False, check: bool = False,
                 turn_limit: int = TURN_LIMIT, die: int | None = None, rng: random.Random | None = None,
                 _start: bool = True, **variant):
        if players != 2:
            raise ValueError(f"{players} players: Shadow Queen is played by 2")
        self.rules = rules
        self._auto_chance = rng if rng is not None else (random.Random(seed) if seed is not None else None)
        self.turn_limit = turn_limit
        self.die = die or rules.die_sides          # None: the game's die (dice.yaml)
        # the draft's open points as options (docs/engine.md, "Tunable parameters"); defaults: the rulings
        unknown = set(variant) - set(VARIANT_DEFAULTS)
        if unknown:
            raise TypeError(f"unknown Shadow Queen option(s): {', '.join(sorted(unknown))}")
        for name, default in VARIANT_DEFAULTS.items():
            setattr(self, name, variant.get(name, default) if variant.get(name) is not None else default)
        r = rules
        npieces = len(r.piece_kind)
        self.pos = list(r.start)
        self.fate = [None if s >= 0 else KILLED for s in r.start]
        self.possessed = [False] * npieces
        self.cave_turns = [0] * npieces
        self.orders = [None] * npieces
        self.occ = [-1] * len(r.at)
        for p, s in enumerate(self.pos):
            if s >= 0 and r.holding_at[s] < 0:
                self.occ[s] = p
        self.control = list(r.holding_side)
        self.altar = [False] * len(r.holdings)
        self.bridge = [False] * len(r.bridge_sites)
        self.path = [False] * len(r.at)
        self.builds = []              # [piece, card, item, place, turn begun]
        self.deck = [list(r.deck_cards[0]), list(r.deck_cards[1])]
        self.hand = [[], []]
        self.used = [[], []]          # cards out of the game, by the deck they belong to
        self.active = 0
        self.turn = 1
        self.phase = PIECE
        self.acted = set()            # pieces that had their go this turn
        self.current = -1             # the piece whose card or action is being chosen
        self._acts = ()               # its legal actions (computed once, as it ends its move)
        self.draws_left = 0
        self.fight = None             # the attack or rescue being resolved (a dict)
        self.winner = None
        self.over_reason = None
        self.plays = {}               # distinct card -> times played (reports)
        self.removed = {f: 0 for f in FATES}
        self.events = [] if record else None
        self.check = check
        self.violations = []
        # derived facts kept between decisions (see :meth:`memo`): ``version`` counts the changes that can
        # alter who may move, where pieces head for or whether someone has won (every change but a piece's
        # plain move); a memo is good while the version stays the same
        self.version = 0
        self._memo = {}
        self._memo_version = 0
        # the win depends only on pieces gone, possessions and holdings' control: ``_stakes`` counts their
        # changes, ``_win_checked`` is its value when the win was last checked
        self._stakes = 0
        self._win_checked = -1
        self._progress = None           # (``_stakes``, :meth:`progress`) when last worked out
        # counts of the changes of what bots derive their goals from, so that a fact kept across versions
        # (:meth:`kept`) is used only while what it reads is unchanged: ``_placed[side]`` counts every piece
        # of that side put on a space or removed (moves, lures, banishment, rescues, deaths), ``_ordered``
        # orders given or ended, ``_bridged`` bridges built or sabotaged (``_stakes``: possessions, control)
        self._placed = [0, 0]
        self._ordered = 0
        self._bridged = 0
        self._kept = {}
        self._ctl_kept = [None, None]   # per side, :meth:`_controlled_pieces` kept with the count of possessions and removals
        self._open = None               # per space, the neighbours reachable with the bridges standing now
        self._deep = None               # the same without pathless forests (:meth:`_reach_free`)
        if _start:
            if record:
                self._rec("game_start", sides=list(r.sides), names=names_table(r))
            self._begin_turn()
            self.settle()

    # ------------------------------------------------------------------ set-up positions (scenarios)

    @classmethod
    def setup(cls, rules: Rules, *, first: int = 0, seed=None, record: bool = False, check: bool = False,
              positions=None, hands=((), ()), possessed=(), control=None, altars=(), bridges=(), paths=(),
              orders=(), cave_turns=None, turn_limit: int = TURN_LIMIT, die: int | None = None, rng=None, used=((), ()),
              **variant):
        """A state at the start of ``first``'s turn, with the position given (scenarios).

        ``positions``: every piece's space (-1: off the board); ``hands``: physical cards per seat (taken
        from the decks); ``orders``: ``(piece, card, order, dest)``; ``control``: per holding, its side.
        """
        state = cls(rules, 2, seed, record=record, check=check, turn_limit=turn_limit, die=die, rng=rng,
                    _start=False, **variant)
        r = rules
        if positions is not None:
            state.pos = list(positions)
            state.fate = [None if s >= 0 else KILLED for s in state.pos]
            state.occ = [-1] * len(r.at)
            for p, s in enumerate(state.pos):
                if s >= 0 and r.holding_at[s] < 0:
                    state.occ[s] = p
        for seat in (0, 1):
            for c in hands[seat]:
                state.deck[r.card_deck[r.card_of[c]]].remove(c)
                state.hand[seat].append(c)
        for seat in (0, 1):
            for c in used[seat]:
                state.deck[seat].remove(c)
                state.used[seat].append(c)
        for p in possessed:
            state.possessed[p] = True
        if control is not None:
            state.control = list(control)
        for h in altars:
            state.altar[h] = True
        for b in bridges:
            state.bridge[b] = True
        state._open = state._deep = None
        for s in paths:
            state.path[s] = True
        for p, card, order, dest in orders:
            state.deck[r.card_deck[r.card_of[card]]].remove(card)
            state.orders[p] = Order(card, order, dest, given=0)
        for p, n in (cave_turns or {}).items():
            state.cave_turns[p] = n
        state.active = first
        if record:
            # the position in the words every engine's scenario_start uses, for printed examples
            position = {"hands": {seat: [r.card_id(c) for c in state.hand[seat]] for seat in (0, 1)},
                        "pieces": [{"kind": r.kinds[r.piece_kind[p]].id, "at": r.hex_id[s], "side": seat_side,
                                    "possessed": state.possessed[p]}
                                   for p, s in enumerate(state.pos) if s >= 0
                                   for seat_side in (r.sides[r.piece_side[p]],)],
                        "bridges": [r.hex_id[r.at.index(r.bridge_sites[b])] for b, built in enumerate(state.bridge) if built]}
            state._rec("scenario_start", first=first, names=names_table(r), position=position)
        state._begin_turn()
        state.settle()
        if check:
            state._checkpoint("setup")
        return state

    # ------------------------------------------------------------------ who controls what

    def ctrl(self, p: int) -> int:
        """The side that controls piece ``p``: its own, or the other while possessed."""
        return self.rules.piece_side[p] ^ self.possessed[p]

    def on_board(self, p: int) -> bool:
        return self.pos[p] >= 0

    def enemy(self, me: int, t: int) -> bool:
        """``t`` is a piece ``me`` may act against: neither its own nor one it controls."""
        return self.pos[t] >= 0 and self.rules.piece_side[t] != me and self.ctrl(t) != me

    def controlled(self, side: int) -> int:
        """Holdings the side controls now."""
        return self.control.count(side)

    def pieces_of(self, side: int):
        """Pieces on the board that ``side`` controls."""
        pos, ctrl = self.pos, self.ctrl
        return [p for p in range(len(pos)) if pos[p] >= 0 and ctrl(p) == side]

    def in_cave(self, p: int) -> bool:
        return self.rules.cave[self.pos[p]]

    def dist(self, a: int, b: int) -> int:
        """Hexes between two pieces (0 when they share a holding)."""
        return self.rules.dist[self.pos[a]][self.pos[b]]

    # ------------------------------------------------------------------ derived facts, kept while valid

    def memo(self) -> dict:
        """A dict for facts derived from the position (who may move, where pieces head for), good until
        the next change other than a piece's plain move (:attr:`version`); bots keep their own there. A
        clone starts with an empty one. The engine's keys: ``"movable"``, ``-10 - kind`` (the cards a kind
        may play: the side to move is the same for a whole version), ``-100 - reach`` (foes near),
        ``-1000 - kind`` (where its cards could aim at something: :meth:`_card_gate`) and ``("gate", what)``; the
        greedy bot's: ``"leads"``, and ints from -2 to 127."""
        if self._memo_version != self.version:
            self._memo = {}
            self._memo_version = self.version
        return self._memo

    def kept(self) -> dict:
        """A dict for facts bots keep across versions, each with the counts of the changes it depends on
        (``_stakes``, ``_placed``, ``_ordered``, ``_bridged``) as they were when it was worked out: such a
        fact is good while those counts stand. A clone starts with an empty one."""
        return self._kept

    def open_links(self) -> tuple:
        """Per space, the spaces one hex away that the bridges standing now let a piece enter (in the
        order of ``Rules.links``); worked out again only when a bridge is built or sabotaged."""
        table = self._open
        if table is None:
            table = self._open = self.rules.open_links(self.bridge)
        return table

    # ------------------------------------------------------------------ state API

    def to_move(self) -> list[int]:
        if self.phase in (PIECE, ACT, DISCARD):
            return [self.active]
        if self.phase == DEFEND:
            return [1 - self.active]
        return []

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        if self.phase != OVER or self.winner is None:
            return [0.0, 0.0]
        return [1.0 if s == self.winner else 0.0 for s in (0, 1)]

    @property
    def winners(self) -> tuple:
        return (self.winner,) if self.winner is not None else ()

    def progress(self):
        """Per side, what it has taken towards its goal: the other side's pieces it possessed or removed
        (the Shadows) or the Shadows removed (the Kingdom), plus the holdings it controls."""
        kept = self._progress
        if kept is not None and kept[0] == self._stakes:
            return kept[1]                           # (it reads only what ``_stakes`` counts the changes of)
        r, pos = self.rules, self.pos
        taken = sum(1 for p in r.pieces_of[1] if pos[p] < 0 or self.possessed[p])
        banished = sum(1 for p in r.pieces_of[0] if pos[p] < 0 and r.essential[p])
        out = (taken + self.controlled(0), banished + self.controlled(1))
        self._progress = (self._stakes, out)
        return out

    def evaluate(self) -> list[float]:
        """Estimated returns before the end (for the search bot): pieces and holdings held."""
        score = material(self)
        x = max(-1.0, min(1.0, score / 20.0))
        return [0.5 + x / 2, 0.5 - x / 2]

    # ------------------------------------------------------------------ chance

    def is_chance(self) -> bool:
        return self.phase in (DRAW, ROLL)

    def chance_outcomes(self) -> list:
        if self.phase == DRAW:
            return weighted_kinds(self.deck[self.active], self.rules.card_of)
        if self.phase == ROLL:
            return dice_sum_odds(self._dice_now(), self.die)
        return []

    def apply_chance(self, outcome) -> None:
        if self.phase == DRAW:
            if outcome not in self.deck[self.active]:
                raise IllegalAction(f"card #{outcome} is not in the deck")
            self._draw(outcome)
        elif self.phase == ROLL:
            dice = self._dice_now()
            if not dice <= outcome <= dice * self.die and not (dice == 0 and outcome == 0):
                raise IllegalAction(f"{outcome} cannot be rolled with {dice} dice")
            self._rolled(outcome)
        else:
            raise IllegalAction("no chance event is pending")

    def sample_chance(self, rng) -> None:
        if self.phase == DRAW:
            deck = self.deck[self.active]
            self._draw(deck[int(rng.random() * len(deck))])
        elif self.phase == ROLL:
            die = self.die
            self._rolled(sum(int(rng.random() * die) + 1 for _ in range(self._dice_now())))

    def _dice_now(self) -> int:
        f = self.fight
        return f["att_dice"] if f["att_roll"] is None else f["def_dice"]

    def _draw(self, card: int) -> None:
        self.version += 1
        self.deck[self.active].remove(card)
        self.hand[self.active].append(card)
        self.draws_left -= 1
        if self.events is not None:
            self._rec("draw", side=self.active, card=self.rules.card_id(card))
        if self.draws_left <= 0 or not self.deck[self.active]:
            self.draws_left = 0
            self.phase = PIECE
        self._checkpoint("draw")

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self, player: int | None = None) -> list[Action]:
        movers = self.to_move()
        if not movers or (player is not None and player not in movers):
            return []
        if self.phase == PIECE:
            return self.move_actions() + [END_ACTION]
        if self.phase == ACT:
            return list(self._acts)
        if self.phase == DEFEND:
            return self.defend_actions() + [NO_DEFENCE_ACTION]
        if self.phase == DISCARD:
            seen, out = set(), []
            for c in sorted(self.hand[self.active]):
                k = self.rules.card_of[c]
                if k not in seen:
                    seen.add(k)
                    out.append(Action(DISCARD_CARD, card=c))
            return out
        return []

    def is_legal(self, player: int, action) -> bool:
        """:meth:`legal_actions` without listing them when a piece is to move (every destination of every
        piece that may still take a go: about 40): a move is legal when its piece may still take a go this
        turn and the space is one of its destinations (its own space always is: a stay needs no search).
        The other phases look the action up in their short lists."""
        if self.phase != PIECE or player != self.active or not isinstance(action, tuple) or len(action) != 5:
            return action in self.legal_actions(player)
        verb, p, card, target, dest = action
        if verb != MOVE or card != -1 or target != -1:
            return action == END_ACTION
        movable = self.movers()
        try:
            q = movable[movable.index(p)]
        except ValueError:
            return False
        return dest == self.pos[q] or dest in self.destinations(q)

    def movable(self) -> list[int]:
        """Pieces the side to move may still take a go with this turn (kept while the version holds: a
        plain move only takes the moved piece out)."""
        memo = self.memo()
        out = memo.get("movable")
        if out is None:
            out = memo["movable"] = self._movable()
        return out[:]

    def movers(self) -> list[int]:
        """:meth:`movable` itself, not a copy (for a bot that reads it before its move and keeps nothing)."""
        if self._memo_version != self.version:
            self._memo = {}
            self._memo_version = self.version
        memo = self._memo
        out = memo.get("movable")
        if out is None:
            out = memo["movable"] = self._movable()
        return out

    def _movable(self) -> list[int]:
        me = self.active
        acted = self.acted
        # the pieces on the board the side controls, and its own possessed ones, change only with a
        # possession or a removal (``_stakes``): kept per side with that count (:meth:`_controlled_pieces`)
        kept = self._ctl_kept[me]                    # (per side: the sides alternate every turn)
        if kept is None or kept[1] != self._stakes:
            kept = self._controlled_pieces(me)
        controlled, owned = kept[2], kept[3]
        out = [p for p in controlled if p not in acted] if acted else list(controlled)
        if owned:
            pos, half = self.pos, self.rules.half
            extra = [p for p in owned if p not in acted and half[pos[p]] == me]
            if extra:       # RULING: the owner may move its possessed piece on its own half
                out = sorted(out + extra)
        return out

    def _controlled_pieces(self, me: int) -> tuple:
        """``(side, _stakes, pieces, owned)``: the pieces on the board side ``me`` controls and its own
        possessed pieces on the board, in order, as :meth:`_movable` and :meth:`_foes_near` keep them."""
        side, possessed = self.rules.piece_side, self.possessed
        controlled, owned = [], []
        for p, s in enumerate(self.pos):
            if s < 0:
                continue
            if side[p] ^ possessed[p] == me:             # it controls the piece (ctrl)
                controlled.append(p)
            elif possessed[p] and side[p] == me:
                owned.append(p)
        kept = self._ctl_kept[me] = (me, self._stakes, tuple(controlled), tuple(owned))
        return kept

    def move_actions(self) -> list[Action]:
        return [Action(MOVE, p, dest=s) for p in self.movable() for s in self.destinations(p)]

    def allowance(self, p: int) -> int:
        """Hexes piece ``p`` may move now."""
        r = self.rules
        move = r.kind_move[r.piece_kind[p]]
        o = self.orders[p]
        if o is not None:
            move += r.card_params[r.card_of[o.card]].get("bonus", 0)
        return move

    def destinations(self, p: int) -> list[int]:
        """Spaces piece ``p`` may move to now (its own space first: a move of no hexes)."""
        r = self.rules
        start = self.pos[p]
        possessed = self.possessed[p]
        owner_only = r.piece_side[p] ^ possessed != self.active     # the owner moving its possessed piece
        o = self.orders[p]
        if r.needs_orders[p] and not possessed:
            if o is None:
                return [start]                      # RULING: no orders, no move
            if o.order == "marching":
                return self._straight(p, start, o)
            if o.order == "patrol":
                goal = self._patrol_goal(o)
                if goal < 0:
                    return [start]
                return self._reach(p, start, self.allowance(p), owner_only, goal)
        if owner_only:
            return self._reach(p, start, self.allowance(p), owner_only, -1)
        steps = r.kind_move[r.piece_kind[p]]        # (the allowance, inline: the common case)
        if o is not None:
            steps += r.card_params[r.card_of[o.card]].get("bonus", 0)
        if r.forest[start] and not self.path[start]:
            steps = min(steps, 1)                   # RULING: a move from a forest is one hex
        return self._reach_free(start, steps)

    def _passable(self, j: int, need: int) -> bool:
        return need < 0 or self.bridge[need]

    def _reach(self, p, start, steps, owner_only, goal) -> list[int]:
        """Spaces reachable in ``steps`` hexes (breadth first): through hexes of pieces the mover
        controls but never ending on one, never through other pieces (holdings take any number), over
        bridges where bridges stand, pathless forest only as a one-hex move, within the owner's half for
        ``owner_only``, each hex nearer ``goal`` when one is given."""
        r = self.rules
        occ, forest, path, holding_at, half = self.occ, r.forest, self.path, r.holding_at, r.half
        if forest[start] and not path[start]:
            steps = min(steps, 1)                   # RULING: a move from a forest is one hex
        if not owner_only and goal < 0:
            return self._reach_free(start, steps)
        side = r.piece_side[p]
        mover = self.active
        dist = r.dist
        out = [start]
        seen = {start}
        frontier = [start]
        for step in range(steps):
            nxt = []
            for s in frontier:
                for j, need in r.links[s]:
                    if j in seen or (need >= 0 and not self.bridge[need]):
                        continue
                    if owner_only and half[j] != side:
                        continue
                    if goal >= 0 and dist[j][goal] >= dist[s][goal]:
                        continue
                    slow = forest[j] and not path[j]
                    if slow and step > 0:
                        continue                    # RULING: entering a forest is a one-hex move
                    seen.add(j)
                    other = occ[j]
                    if other >= 0 and holding_at[j] < 0:
                        if self.ctrl(other) != mover or slow:
                            continue                # RULING: never through the other side's pieces
                        nxt.append(j)               # through a friendly piece, not onto it
                        continue
                    out.append(j)
                    if not slow:
                        nxt.append(j)
            frontier = nxt
        return out

    def _deep_now(self) -> tuple:
        table = self._deep = self.rules.deep_links(self.bridge, self.path)
        self._rings = self.rules.rings(table)
        return table

    def _reach_free(self, start: int, steps: int) -> list[int]:
        """:meth:`_reach` for a move with no half to keep to and no goal (most moves): the same spaces in
        the same order, through the open links of the bridges standing now."""
        links = self._open or self.open_links()
        occ = self.occ
        if steps == 1:                               # (most moves: a one-hex piece, or from a forest)
            out = [start]
            out += [j for j in links[start] if occ[j] < 0]
            return out
        out = [start]
        if steps <= 0:
            return out
        deep = self._deep or self._deep_now()
        side, possessed = self.rules.piece_side, self.possessed
        mover = self.active
        frontier = []
        ahead = deep[start]
        for j in links[start]:                       # the first hex: a forest may be entered
            other = occ[j]                           # (occ holds no piece standing in a holding)
            if other >= 0:
                if side[other] ^ possessed[other] == mover and j in ahead:
                    frontier.append(j)               # through a friendly piece, not onto it
                continue
            out.append(j)
            if j in ahead:
                frontier.append(j)
        # each later hex: the new spaces the frontier's links lead to (RULING: entering a forest is a one-hex
        # move), in the order a breadth-first search meets them. They depend only on the start and the
        # frontier of each hex before (the spaces seen are those), so they are kept per deep-links table
        # with those as the key (:meth:`Rules.rings`); the pieces on them are read afresh
        rings = self._rings
        key = start
        for step in range(steps - 1):
            if not frontier:
                break
            key = (key, *frontier)
            ring = rings.get(key)
            if ring is None:
                ring = self._ring(start, key, deep, links)
            if step == steps - 2:                    # the last hex: no frontier beyond it
                out += [j for j in ring if occ[j] < 0]
                break
            frontier = []
            for j in ring:
                other = occ[j]
                if other >= 0:
                    if side[other] ^ possessed[other] == mover:
                        frontier.append(j)           # through a friendly piece, not onto it
                    continue
                out.append(j)
                frontier.append(j)
        return out

    def _ring(self, start: int, key: tuple, deep: tuple, links: tuple) -> tuple:
        """The ring of :meth:`_reach_free` for ``key`` (the start, then each hex's frontier, nested), worked
        out by the search and kept."""
        fronts = []
        k = key
        while isinstance(k, tuple):
            fronts.append(k[1:])
            k = k[0]
        fronts.reverse()
        seen = set(links[start])
        seen.add(start)
        for frontier in fronts:
            ring = []
            for s in frontier:
                for j in deep[s]:
                    if j not in seen:
                        seen.add(j)
                        ring.append(j)
        ring = tuple(ring)
        rings = self._rings
        if len(rings) >= 16384:
            rings.clear()
        rings[key] = ring
        return ring

    def _straight(self, p, start, o) -> list[int]:
        """Marching: up to the allowance in one straight line (the order's direction once set)."""
        r = self.rules
        out = [start]
        steps = self.allowance(p)
        if r.forest[start] and not self.path[start]:
            steps = min(steps, 1)
        directions = [o.direction] if o.direction >= 0 else range(6)
        for d in directions:
            s = start
            for step in range(steps):
                j = r.step(s, d)
                if j < 0:
                    break
                need = next((n for k, n in r.links[s] if k == j), None)
                if need is None or (need >= 0 and not self.bridge[need]):
                    break
                slow = r.forest[j] and not self.path[j]
                if slow and step > 0:
                    break
                other = self.occ[j]
                if other >= 0 and r.holding_at[j] < 0:
                    if self.ctrl(other) != self.active or slow:
                        break
                else:
                    out.append(j)
                s = j
                if slow:
                    break
        return out

    def _patrol_goal(self, o) -> int:
        """The space a patrol heads for, or -1 when its destination is gone."""
        r = self.rules
        h = len(r.holdings)
        if o.dest < h:
            return r.holding_space[o.dest]
        return self.pos[o.dest - h]

    # -- cards and actions of the current piece

    def act_actions(self) -> list[Action]:
        p = self.current
        out = [PASS_ACTION]
        s = self.pos[p]
        if s < 0 or self.rules.cave[s]:
            return out                             # no card or action in a cave
        for b in self.builds:
            if b[0] == p and b[4] < self.turn and self._build_ok(p, b[2], b[3], b[1]):
                out.append(Action(FINISH, p))
                break
        cards = self._playable(p)
        if cards:
            r = self.rules
            near = {}
            h = r.holding_at[s]
            for c in cards:
                k = r.card_of[c]
                kind = r.card_kind[k]
                # a quick no where a card's targets cannot be: the pieces it aims at (all of them pieces
                # the side does not control) stand nowhere near, the holding or the site it needs is not here
                if kind in FOE_KINDS:
                    if s not in self._foes_near(r.card_params[k].get("reach", 1)) and (
                            kind != "bless" or h < 0 or self.control[h] == self.active):
                        continue
                elif kind == "taint":
                    if h < 0 or self.control[h] == self.active:
                        continue
                elif kind == "construct":
                    item = r.card_params[k]["item"]
                    if item == "bridge":
                        if all(map(self.bridge.__getitem__, r.sites_from[s])):
                            continue                 # no bridge site here, or a bridge on each
                    elif item == "path":
                        if not r.forest[s] or self.path[s]:
                            continue                 # no forest here, or a path through it
                    elif h < 0 or self.altar[h]:
                        continue                     # no holding here, or an altar in it
                elif kind == "restore":
                    if h < 0 or self.control[h] != self.active or not (
                            self.altar[h] or not r.card_params[k].get("altar", True)):
                        continue                     # not in a holding of its side (with an altar)
                out.extend(self.card_actions(p, c, near))
        return out

    def _card_gate(self, p: int):
        """For the kind of piece ``p``: the sets of spaces where :meth:`act_actions`' quick no may pass one
        of the cards in hand its kind plays (a card elsewhere has no target: a go ending there has only the
        pass), True when a card has no quick no (steal, sabotage, orders: any space may give an action), ()
        for no card. Each set reads only what changes with a version (hands, holdings' control, altars,
        bridges, paths, the pieces the side to move does not control), so the gate is kept in the memo for
        the version (key ``-1000 - kind``); the sets are the version's, shared by the kinds."""
        r = self.rules
        memo = self._memo
        gate = []
        for c in self._playable(p):
            k = r.card_of[c]
            kind = r.card_kind[k]
            if kind in FOE_KINDS:
                g = self._foes_near(r.card_params[k].get("reach", 1))
                if kind == "bless":
                    gate.append(self._gate_spaces("foreign"))
            elif kind == "taint":
                g = self._gate_spaces("foreign")
            elif kind == "construct":
                g = self._gate_spaces(r.card_params[k]["item"])
            elif kind == "restore":
                g = self._gate_spaces("restore" if r.card_params[k].get("altar", True) else "own")
            else:
                gate = True                          # no quick no
                break
            if g not in gate:
                gate.append(g)
        if gate is not True:
            gate = tuple(gate)
        memo[-1000 - r.piece_kind[p]] = gate
        return gate

    def _gate_spaces(self, what: str):
        """The spaces where one kind of :meth:`act_actions`' quick no passes (for :meth:`_card_gate`): a
        holding the side to move does not control (``foreign``: taint, bless) or does (``own``), does with
        an altar (``restore``); a space next to a bridge site not bridged (``bridge``), a forest without a
        path (``path``), a holding without an altar (``altar``). Kept for the version (key ``("gate", what)``)."""
        memo = self._memo
        key = ("gate", what)
        out = memo.get(key)
        if out is None:
            r = self.rules
            me = self.active
            hs = r.holding_space
            if what == "foreign":
                out = {hs[h] for h, side in enumerate(self.control) if side != me}
            elif what == "own":
                out = {hs[h] for h, side in enumerate(self.control) if side == me}
            elif what == "restore":
                altar = self.altar
                out = {hs[h] for h, side in enumerate(self.control) if side == me and altar[h]}
            elif what == "altar":
                out = {hs[h] for h, built in enumerate(self.altar) if not built}
            else:                                    # bridge, path: kept in the rules per bridges or paths
                built = tuple(self.bridge if what == "bridge" else self.path)
                out = r._gates.get((what, built))
                if out is None:
                    if what == "bridge":
                        out = frozenset(s for s, sites in enumerate(r.sites_from)
                                        if not all(map(built.__getitem__, sites)))
                    else:
                        out = frozenset(s for s, f in enumerate(r.forest) if f and not built[s])
                    if len(r._gates) > 256:
                        r._gates.clear()
                    r._gates[(what, built)] = out
            memo[key] = out
        return out

    def _foes_near(self, reach: int) -> frozenset | set:
        """The spaces within ``reach`` of a piece on the board that the side to move does not control,
        kept while the version holds (such pieces do not move on its plain moves): one C union of their
        balls, the pieces taken from the other side's list kept with the count of possessions and removals."""
        if self._memo_version != self.version:
            self._memo = {}
            self._memo_version = self.version
        key = -100 - reach
        out = self._memo.get(key)
        if out is None:
            # the pieces on the board the other side controls (kept per side, :meth:`_controlled_pieces`)
            other = 1 - self.active
            kept = self._ctl_kept[other]
            if kept is None or kept[1] != self._stakes:
                kept = self._controlled_pieces(other)
            balls = self.rules.balls(reach)
            out = set().union(*[balls[s] for s in map(self.pos.__getitem__, kept[2]) if s >= 0])
            self._memo[key] = out
        return out

    def playable_cards(self, p: int) -> list[int]:
        """One physical card of each distinct card in hand that piece ``p`` may play."""
        return self._playable(p)[:]

    def _playable(self, p: int) -> list[int]:
        """:meth:`playable_cards` itself, kept while the version holds (not a copy: read, never change)."""
        r = self.rules
        kind = r.piece_kind[p]
        if self._memo_version != self.version:      # (hands change only with a version)
            self._memo = {}
            self._memo_version = self.version
        memo = self._memo
        key = -10 - kind                             # (the side to move changes only with a version)
        out = memo.get(key)
        if out is None:
            plays, card_of = r.kind_plays[kind], r.card_of
            seen, out = set(), []
            for c in sorted(self.hand[self.active]):
                k = card_of[c]
                if k in plays and k not in seen:     # its side's deck, a card its kind plays, no defence
                    seen.add(k)
                    out.append(c)
            memo[key] = out
        return out

    def card_actions(self, p: int, c: int, near: dict | None = None) -> list[Action]:
        """Every legal way for piece ``p`` to play card ``c``. ``near``: the pieces within each reach of
        ``p``, kept between the cards of one go."""
        r = self.rules
        k = r.card_of[c]
        kind = r.card_kind[k]
        params = r.card_params[k]
        me = self.active
        here = self.pos[p]
        h_here = r.holding_at[here]
        dist = r.dist[here]
        pos = self.pos
        out = []
        if kind in ("attack", "rescue", "possess", "lure"):
            reach = params.get("reach", 1)
            within = near.get(reach) if near is not None else None
            if within is None:
                within = [t for t, s in enumerate(pos) if s >= 0 and dist[s] <= reach]
                if near is not None:
                    near[reach] = within
            for t in within:
                if kind == "possess":
                    if r.piece_side[t] == me or self.possessed[t]:
                        continue
                    ht = r.holding_at[pos[t]]
                    if ht >= 0 and not self._holding_ok(ht, params.get("holding", "controlled")):
                        continue
                    out.append(Action(PLAY, p, c, t))
                elif kind == "attack":
                    if self.enemy(me, t) and not self.in_cave(t):
                        out.append(Action(PLAY, p, c, t))
                elif kind == "rescue":
                    if self.in_cave(t) or params.get("trait", "rescuable") not in r.traits[t]:
                        continue
                    if self.enemy(me, t) or (self.possessed[t] and r.piece_side[t] == me):
                        # RULING 20: the rescuer may bring the rescued piece to the nearest holding it
                        # controls (named when the card is played), or leave it where it stands
                        home = self._rescue_home(t)
                        if home >= 0 and home != pos[t]:
                            out.append(Action(PLAY, p, c, t, home))
                        out.append(Action(PLAY, p, c, t))
                else:  # lure
                    if not self.enemy(me, t) or self._lure_immune(t):
                        continue
                    for d in self.lure_ends(t, here):
                        out.append(Action(PLAY, p, c, t, d))
        elif kind == "taint":
            if h_here >= 0 and self.control[h_here] != me:
                out.append(Action(PLAY, p, c, h_here))
        elif kind == "restore":
            if h_here >= 0 and self.control[h_here] == me and (self.altar[h_here] or not params.get("altar", True)):
                seen = set()
                for u in sorted(self.used[me]):
                    if r.card_of[u] not in seen:
                        seen.add(r.card_of[u])
                        out.append(Action(PLAY, p, c, u))
        elif kind == "steal":
            seen = set()
            for u in sorted(self.hand[1 - me]):
                if r.card_of[u] not in seen:
                    seen.add(r.card_of[u])
                    out.append(Action(PLAY, p, c, u))
        elif kind == "construct":
            item = params["item"]
            for place in self._build_places(p, item, params.get("holding", "controlled")):
                out.append(Action(PLAY, p, c, place))
        elif kind == "sabotage":
            for target in self._sabotage_targets(p, params.get("reach", 1)):
                out.append(Action(PLAY, p, c, target))
        elif kind == "banish":
            if self._banished(p, params.get("reach", 1)):
                out.append(Action(PLAY, p, c))
        elif kind == "bless":
            if h_here >= 0 and self.control[h_here] != me and r.holding_side[h_here] == me:
                out.append(Action(PLAY, p, c, h_here))
            reach = params.get("reach", 1)
            nh = len(r.holdings)
            for t in range(len(pos)):
                if pos[t] >= 0 and self.possessed[t] and r.piece_side[t] == me and dist[pos[t]] <= reach:
                    out.append(Action(PLAY, p, c, nh + t))
        elif kind == "orders":
            reach = params.get("reach", 1)
            for s in range(len(pos)):
                if (pos[s] < 0 or not r.needs_orders[s] or r.piece_side[s] != me or self.possessed[s]
                        or self.orders[s] is not None or dist[pos[s]] > reach):
                    continue
                if params["order"] == "patrol":
                    for dest in self._patrol_destinations(here, params.get("range", 3)):
                        out.append(Action(PLAY, p, c, s, dest))
                else:
                    out.append(Action(PLAY, p, c, s))
        return out

    def _holding_ok(self, h: int, which: str) -> bool:
        mine = self.control[h] == self.active
        return mine if which == "controlled" else not mine

    def _lure_immune(self, t: int) -> bool:
        o = self.orders[t]
        if o is None:
            return False
        r = self.rules
        return bool(r.card_params[r.card_of[o.card]].get("lure_immune"))

    def lure_ends(self, t: int, towards: int) -> list[int]:
        """Where a lured piece may end: hex by hex, each nearer ``towards`` (over bridges, not through
        other pieces, holdings taking any number), as near as the way allows; [] when it cannot come
        nearer at all. RULING: forests do not slow a lured piece (it is not its own move)."""
        r = self.rules
        start = self.pos[t]
        dist = r.dist
        best, ends = dist[start][towards], []
        seen = {start}
        frontier = [start]
        while frontier:
            nxt = []
            for s in frontier:
                for j, need in r.links[s]:
                    if j in seen or (need >= 0 and not self.bridge[need]):
                        continue
                    if self.occ[j] >= 0 and r.holding_at[j] < 0:
                        continue
                    if dist[j][towards] >= dist[s][towards]:
                        continue
                    seen.add(j)
                    nxt.append(j)
                    d = dist[j][towards]
                    if d < best:
                        best, ends = d, [j]
                    elif d == best and ends:
                        ends.append(j)
            frontier = nxt
        return sorted(ends)

    def _patrol_destinations(self, here: int, reach: int) -> list[int]:
        """Patrol destinations within the messenger's range: holdings (their index) and enemy pieces
        (the number of holdings + the piece)."""
        r = self.rules
        dist = r.dist[here]
        nh = len(r.holdings)
        out = [h for h, s in enumerate(r.holding_space) if dist[s] <= reach]
        out += [nh + t for t in range(len(self.pos)) if self.pos[t] >= 0 and r.piece_side[t] != self.active
                and dist[self.pos[t]] <= reach]
        return out

    def _build_places(self, p: int, item: str, which: str) -> list[int]:
        r = self.rules
        here = self.pos[p]
        if item == "bridge":
            sites = r.sites_from[here]
            if not sites:
                return []
            begun = {b[3] for b in self.builds if b[2] == item}
            return [b for b in sites if not self.bridge[b] and b not in begun]
        if item == "path":
            if not r.forest[here] or self.path[here]:
                return []
            return [] if any(b[2] == item and b[3] == here for b in self.builds) else [here]
        h = r.holding_at[here]
        if h >= 0 and not self.altar[h] and self._holding_ok(h, which) and not any(
                b[2] == item and b[3] == h for b in self.builds):
            return [h]
        return []

    def _build_ok(self, p: int, item: str, place: int, card: int) -> bool:
        """The builder may still add the item it began: it meets the card's condition at that place."""
        r = self.rules
        here = self.pos[p]
        if item == "bridge":
            return not self.bridge[place] and here in r.site_near[place]
        if item == "path":
            return here == place and not self.path[place]
        which = r.card_params[r.card_of[card]].get("holding", "controlled")
        return r.holding_at[here] == place and not self.altar[place] and self._holding_ok(place, which)

    def _sabotage_targets(self, p: int, reach: int) -> list[int]:
        """Items within reach: a bridge site (its index), a path (sites + space), an altar (sites +
        spaces + holding)."""
        r = self.rules
        here = self.pos[p]
        dist = r.dist[here]
        nb, ns = len(r.bridge_sites), len(r.at)
        out = []
        for b in range(nb):
            if self.bridge[b]:
                s = r.site_space[b]
                if (s >= 0 and dist[s] <= reach) or (s < 0 and min(dist[x] for x in r.site_near[b]) < reach):
                    out.append(b)
        out += [nb + s for s in range(ns) if self.path[s] and dist[s] <= reach]
        out += [nb + ns + h for h in range(len(r.holdings)) if self.altar[h] and dist[r.holding_space[h]] <= reach]
        return out

    def _banished(self, p: int, reach: int) -> list[tuple[int, int]]:
        """``[(piece, holding)]``: the enemy and possessed pieces within reach of ``p`` and the nearest
        holding under the other side's control each is sent to (RULING: ties go to the holding listed
        first in the map; a piece already there, or with no such holding, stays)."""
        r = self.rules
        me = self.active
        foe_holdings = [h for h in range(len(r.holdings)) if self.control[h] != me]
        here = self.pos[p]
        out = []
        for t in range(len(self.pos)):
            s = self.pos[t]
            if s < 0 or r.dist[here][s] > reach:
                continue
            if self.ctrl(t) == me:          # enemy pieces, and pieces of the player's possessed by the enemy
                continue
            if not foe_holdings:
                continue
            h = min(foe_holdings, key=lambda h: (r.dist[s][r.holding_space[h]], h))
            if r.holding_space[h] != s:
                out.append((t, h))
        return out

    def defend_actions(self) -> list[Action]:
        """The defending side's ways to defend the piece under attack: a defend card played by one of
        its pieces within reach of the target (the target itself included)."""
        f = self.fight
        r = self.rules
        side = 1 - self.active
        t = f["target"]
        out = []
        seen = set()
        for c in sorted(self.hand[side]):
            k = r.card_of[c]
            if r.card_kind[k] != "defend" or k in seen:
                continue
            seen.add(k)
            reach = r.card_params[k].get("reach", 1)
            for d in range(len(self.pos)):
                if (self.pos[d] < 0 or self.ctrl(d) != side or r.piece_kind[d] not in r.card_players[k]
                        or r.card_deck[k] != r.piece_side[d] or self.in_cave(d) or self.dist(d, t) > reach):
                    continue
                out.append(Action(DEFEND_WITH, d, c, t))
        return out

    # ------------------------------------------------------------------ applying actions

    def apply_actions(self, actions) -> None:
        movers = self.to_move()
        if self.phase == OVER:
            raise IllegalAction("the game is over")
        if not movers:
            raise IllegalAction("a chance event is pending: resolve it first")
        if set(actions) != set(movers):
            raise IllegalAction(f"seat {movers[0]} decides now")
        action = actions[movers[0]]
        if not self.is_legal(movers[0], action):
            raise IllegalAction(f"{self.action_to_string(movers[0], action)} is not legal now")
        self.step(action)

    def apply(self, action: Action) -> None:
        self.apply_action(action)

    def step_actions(self, actions) -> None:
        self.step(next(iter(actions.values())))

    def step_action(self, action) -> None:
        self.step(action)

    def step(self, a: Action) -> None:
        """Apply a legal action (the fast path: no checks)."""
        v = a.verb
        if v == MOVE:
            self._move(a.piece, a.dest)
            if self.check:
                self._checkpoint(v)
            return
        self.version += 1                            # anything but a plain move may change the position
        if v == PLAY:
            self._play(a)
        elif v == FINISH:
            self._finish(a.piece)
        elif v == PASS:
            self._done()
        elif v == END:
            self._end_turn()
        elif v == DEFEND_WITH:
            self._defend(a.piece, a.card)
        elif v == NO_DEFENCE:
            self.fight["def_dice"] = 0
            self._roll_next()
        elif v == DISCARD_CARD:
            self._discard(a.card)
        if self.check:
            self._checkpoint(v)
        self.settle()

    # -- moving

    def _move(self, p: int, dest: int) -> None:
        r = self.rules
        start = self.pos[p]
        self.acted.add(p)
        self.current = p
        if self.possessed[p] and (r.piece_side[p] == self.active or r.essential[p]):
            self.version += 1                        # the owner moves its possessed piece: a goal of its Priests
        elif self._memo_version == self.version:
            movable = self._memo.get("movable")      # the other pieces' goes are unchanged by a plain move
            if movable is not None and p in movable:
                movable.remove(p)
        if self.events is not None:
            self._rec("move", piece=p, kind=r.kinds[r.piece_kind[p]].id, side=self.active, start=r.hex_id[start],
                      to=r.hex_id[dest], hexes=r.dist[start][dest])
        if dest != start:
            self._place(p, dest, own=True)
            o = self.orders[p]
            if o is not None and self.pos[p] >= 0:
                o.moved = True
                if o.order == "marching" and o.direction < 0:
                    o.direction = self._direction(start, dest)
        if r.piece_side[p] ^ self.possessed[p] == self.active and self.pos[p] >= 0:
            # nothing to list when its kind plays no card in hand and it has no build to finish (most goes)
            if self.builds:
                acts = self.act_actions()
            else:
                # where its kind's cards could aim at something (:meth:`_card_gate`, kept for the version):
                # a go that ends elsewhere has only the pass, found without listing its cards
                memo = self._memo if self._memo_version == self.version else self.memo()
                gate = memo.get(-1000 - r.piece_kind[p])
                if gate is None:
                    gate = self._card_gate(p)
                if gate is True:
                    acts = self.act_actions()
                else:
                    acts = PASS_ONLY
                    for g in gate:
                        if dest in g:
                            acts = self.act_actions()
                            break
            if len(acts) > 1:
                self.phase = ACT
                self._acts = acts
                return
        # nothing to play or do: the piece's go is over (:meth:`_done`, inline)
        self.current = -1
        if self.phase != OVER:
            self.phase = PIECE
        if self._win_checked != self._stakes:
            self._check_win()

    def _direction(self, a: int, b: int) -> int:
        r = self.rules
        for d in range(6):
            s = a
            for _ in range(r.dist[a][b]):
                s = r.step(s, d)
                if s < 0:
                    break
            if s == b:
                return d
        return -1

    def _place(self, p: int, dest: int, own: bool = False) -> None:
        """Put piece ``p`` on ``dest`` (moves, lures, banishment, rescue); orders end when a piece under
        orders enters a holding. ``own``: the piece's own move (:meth:`_move` counts the change)."""
        r = self.rules
        if not own:
            self.version += 1
        old = self.pos[p]
        if old >= 0 and self.occ[old] == p:
            self.occ[old] = -1
        self.pos[p] = dest
        self._placed[r.piece_side[p]] += 1
        if r.holding_at[dest] < 0:
            self.occ[dest] = p
        if not r.cave[dest]:
            self.cave_turns[p] = 0
        if self.orders[p] is not None and r.holding_at[dest] >= 0 and dest != old:
            self._cancel_orders(p, "holding")

    def _remove(self, p: int, fate: str) -> None:
        self.version += 1
        s = self.pos[p]
        if s >= 0 and self.occ[s] == p:
            self.occ[s] = -1
        self.pos[p] = -1
        self._stakes += 1
        self._placed[self.rules.piece_side[p]] += 1
        self.fate[p] = fate
        self.removed[fate] += 1
        self.cave_turns[p] = 0
        if self.orders[p] is not None:
            self._cancel_orders(p, "removed")
        for b in [b for b in self.builds if b[0] == p]:
            self._abandon(b)
        if self.events is not None:
            self._rec("removed", piece=p, kind=self.rules.kinds[self.rules.piece_kind[p]].id,
                      side=self.rules.piece_side[p], fate=fate, at=self.rules.hex_id[s] if s >= 0 else None)

    def _cancel_orders(self, p: int, why: str) -> None:
        self.version += 1
        self._ordered += 1
        o = self.orders[p]
        self.orders[p] = None
        r = self.rules
        self.used[r.card_deck[r.card_of[o.card]]].append(o.card)
        if self.events is not None:
            self._rec("orders_end", piece=p, kind=r.kinds[r.piece_kind[p]].id, card=r.card_id(o.card), reason=why)

    def _done(self) -> None:
        self.current = -1
        if self.phase != OVER:
            self.phase = PIECE
        if self._win_checked != self._stakes:       # nothing a win depends on changed since the last check
            self._check_win()

    # -- playing cards

    def _use_card(self, c: int) -> None:
        """Card ``c`` leaves the hand and the game (RULING: used cards never come back, except by a
        sacrifice or a prayer)."""
        r = self.rules
        self.hand[self.active].remove(c)
        self.used[r.card_deck[r.card_of[c]]].append(c)
        k = r.card_of[c]
        self.plays[k] = self.plays.get(k, 0) + 1

    def _play(self, a: Action) -> None:
        r = self.rules
        p, c, t = a.piece, a.card, a.target
        k = r.card_of[c]
        kind = r.card_kind[k]
        params = r.card_params[k]
        me = self.active
        if self.events is not None:
            self._rec("play", piece=p, kind=r.kinds[r.piece_kind[p]].id, side=me, card=r.card_id(c),
                      at=r.hex_id[self.pos[p]], **self._target_data(kind, t, a.dest, params.get("item")))
        if r.needs_orders[p] and self.orders[p] is not None:
            self._cancel_orders(p, "action")        # orders end when the piece takes an action
        if kind in ("attack", "rescue"):
            self._use_card(c)
            self._start_fight(kind, p, t, a.dest)
            return
        if kind == "construct":
            self.hand[me].remove(c)
            k = r.card_of[c]
            self.plays[k] = self.plays.get(k, 0) + 1
            self.builds.append([p, c, params["item"], t, self.turn])
            self._done()
            return
        if kind == "orders":
            self.hand[me].remove(c)
            self.plays[k] = self.plays.get(k, 0) + 1
            self.orders[t] = Order(c, params["order"], a.dest, given=self.turn)
            self._ordered += 1
            self._done()
            return
        self._use_card(c)
        if kind == "possess":
            self.possessed[t] = True
            self._stakes += 1
            if self.orders[t] is not None:
                self._cancel_orders(t, "possessed")
            self.acted.discard(t)                   # it may be moved at once, this turn
        elif kind == "taint":
            self.control[t] = me
            self._stakes += 1
        elif kind == "restore":
            self.used[me].remove(t)
            self.deck[me].append(t)
        elif kind == "steal":
            self.hand[1 - me].remove(t)
            self.hand[me].append(t)
        elif kind == "lure":
            self._place(t, a.dest)
        elif kind == "sabotage":
            self._sabotage(t)
        elif kind == "banish":
            for piece, h in self._banished(p, params.get("reach", 1)):
                self._place(piece, r.holding_space[h])
                if self.events is not None:
                    self._rec("banished", piece=piece, kind=r.kinds[r.piece_kind[piece]].id,
                              holding=r.holding_ids[h])
        elif kind == "bless":
            nh = len(r.holdings)
            if t < nh:
                self.control[t] = me
            else:
                self.possessed[t - nh] = False
            self._stakes += 1
        self._done()

    def _target_data(self, kind, t, dest, item=None) -> dict:
        """Event data naming a card's target by id."""
        r = self.rules
        nh, nb, ns = len(r.holdings), len(r.bridge_sites), len(r.at)
        if kind in ("attack", "rescue", "possess", "lure", "orders"):
            data = {"target": t, "target_kind": r.kinds[r.piece_kind[t]].id, "target_at": r.hex_id[self.pos[t]]}
            if kind == "lure":
                data["to"] = r.hex_id[dest]
            if kind == "rescue" and dest >= 0:
                data["home"] = r.hex_id[dest]
            if kind == "orders":
                data["orders"] = True
            if kind == "orders" and dest >= 0:
                if dest < nh:
                    data["toward_holding"] = r.holding_ids[dest]
                else:
                    data["toward_kind"] = r.kinds[r.piece_kind[dest - nh]].id
                    data["toward_at"] = r.hex_id[self.pos[dest - nh]]
            return data
        if kind in ("taint",):
            return {"holding": r.holding_ids[t]}
        if kind == "bless":
            return {"holding": r.holding_ids[t]} if t < nh else {
                "target": t - nh, "target_kind": r.kinds[r.piece_kind[t - nh]].id, "target_at": r.hex_id[self.pos[t - nh]]}
        if kind in ("restore", "steal"):
            return {"target_card": r.card_id(t)}
        if kind == "construct":
            return {"item": item, "place": self._site_name(t) if item == "bridge" else
                    r.hex_id[t] if item == "path" else r.holding_ids[t]}
        if kind == "sabotage":
            if t < nb:
                return {"item": "bridge", "place": self._site_name(t)}
            if t < nb + ns:
                return {"item": "path", "place": r.hex_id[t - nb]}
            return {"item": "altar", "place": r.holding_ids[t - nb - ns]}
        return {}

    def _site_name(self, b: int) -> str:
        r = self.rules
        s = r.site_space[b]
        return r.hex_id[s] if s >= 0 else "/".join(r.hex_id[x] for x in r.site_near[b])

    def _sabotage(self, t: int) -> None:
        r = self.rules
        nb, ns = len(r.bridge_sites), len(r.at)
        if t < nb:
            self.bridge[t] = False
            self._bridged += 1
            self._open = self._deep = None
            s = r.site_space[t]
            if s >= 0 and self.occ[s] >= 0:
                self._remove(self.occ[s], DROWNED)   # a piece on the bridge falls and drowns
        elif t < nb + ns:
            self.path[t - nb] = False
            self._deep = None
        else:
            self.altar[t - nb - ns] = False

    def _finish(self, p: int) -> None:
        b = next(b for b in self.builds if b[0] == p and b[4] < self.turn)
        self.builds.remove(b)
        _, c, item, place, _ = b
        r = self.rules
        self.used[r.card_deck[r.card_of[c]]].append(c)
        if item == "bridge":
            self.bridge[place] = True
            self._bridged += 1
            self._open = self._deep = None
        elif item == "path":
            self.path[place] = True
            self._deep = None
        else:
            self.altar[place] = True
        if self.events is not None:
            self._rec("built", piece=p, kind=r.kinds[r.piece_kind[p]].id, item=item,
                      place=self._site_name(place) if item == "bridge" else
                      r.hex_id[place] if item == "path" else r.holding_ids[place])
        self._done()

    def _abandon(self, b) -> None:
        self.builds.remove(b)
        r = self.rules
        self.used[r.card_deck[r.card_of[b[1]]]].append(b[1])
        if self.events is not None:
            self._rec("build_abandoned", piece=b[0], kind=r.kinds[r.piece_kind[b[0]]].id, item=b[2])

    # -- attacks and rescues

    def _fighters(self, side: int, target: int) -> int:
        """Dice a side rolls against (or for) ``target``: its fighters next to it (the target itself
        counts), none in a cave."""
        r = self.rules
        s0 = self.pos[target]
        dist = r.dist[s0]
        n = 0
        for f in range(len(self.pos)):
            s = self.pos[f]
            if s >= 0 and r.fighter[f] and self.ctrl(f) == side and dist[s] <= 1 and not r.cave[s]:
                n += 1
        return n

    def _rescue_home(self, t: int) -> int:
        """The space of the holding nearest to piece ``t`` that the active side controls (ties: the holding
        listed first), or -1 when it controls none."""
        r = self.rules
        mine = [h for h in range(len(r.holdings)) if self.control[h] == self.active]
        if not mine:
            return -1
        s = self.pos[t]
        return r.holding_space[min(mine, key=lambda h: (r.dist[s][r.holding_space[h]], h))]

    def _start_fight(self, kind: str, p: int, t: int, dest: int = -1) -> None:
        me = self.active
        self.fight = {"kind": kind, "attacker": p, "target": t, "att_dice": self._fighters(me, t),
                      "def_dice": 0, "att_roll": None, "def_roll": None, "defender": -1, "dest": dest}
        if self.defend_actions():
            self.phase = DEFEND
        else:
            self.fight["def_dice"] = 0
            self._roll_next()

    def _defend(self, d: int, c: int) -> None:
        r = self.rules
        side = 1 - self.active
        f = self.fight
        self.hand[side].remove(c)
        self.used[r.card_deck[r.card_of[c]]].append(c)
        k = r.card_of[c]
        self.plays[k] = self.plays.get(k, 0) + 1
        if r.needs_orders[d] and self.orders[d] is not None:
            self._cancel_orders(d, "action")
        f["defender"] = d
        f["def_dice"] = self._fighters(side, f["target"])
        if self.events is not None:
            self._rec("defend", piece=d, kind=r.kinds[r.piece_kind[d]].id, side=side, card=r.card_id(c))
        self._roll_next()

    def _roll_next(self) -> None:
        self.phase = ROLL

    def _rolled(self, total: int) -> None:
        self.version += 1
        f = self.fight
        if f["att_roll"] is None:
            f["att_roll"] = total
            if self.events is not None:
                self._rec("roll", side=self.active, dice=f["att_dice"], total=total, role="attack")
            if f["def_dice"] > 0:
                return                               # the defence rolls next
            f["def_roll"] = 0
        else:
            f["def_roll"] = total
            if self.events is not None:
                self._rec("roll", side=1 - self.active, dice=f["def_dice"], total=total, role="defence")
        self._resolve_fight()

    def _resolve_fight(self) -> None:
        r = self.rules
        f = self.fight
        self.fight = None
        att, dfn = f["att_roll"], f["def_roll"]
        p, t = f["attacker"], f["target"]
        me = self.active
        if self.events is not None:
            self._rec("fight", kind=f["kind"], attack=att, defence=dfn,
                      result="win" if att > dfn else "tie" if att == dfn else "loss")
        if att > dfn:
            if f["kind"] == "attack":
                self._remove(t, KILLED)
            else:
                # RULING 20: a rescued Peasant is freed of the possession; a rescued Thrall stays the
                # Shadows'; either goes to the holding named when the card was played, if one was
                freed = self.possessed[t] and r.piece_side[t] == me
                self.possessed[t] = False
                self._stakes += 1
                if f["dest"] >= 0:
                    self._place(t, f["dest"])
                if self.events is not None:
                    self._rec("rescued", piece=t, kind=r.kinds[r.piece_kind[t]].id, at=r.hex_id[self.pos[t]],
                              freed=freed, moved=f["dest"] >= 0)
        elif att < dfn:
            self._remove(p, KILLED)                  # RULING: a lower attack roll costs the attacker
        self._done()

    # -- the end of a turn

    def _end_turn(self) -> None:
        self.current = -1
        if len(self.hand[self.active]) > self.controlled(self.active) * self.hand_per_holding:
            self.phase = DISCARD
            return
        self._upkeep()

    def _discard(self, c: int) -> None:
        r = self.rules
        self.hand[self.active].remove(c)
        self.deck[r.card_deck[r.card_of[c]]].append(c)     # RULING: discards are shuffled back at once
        if self.events is not None:
            self._rec("discard", side=self.active, card=r.card_id(c))
        if len(self.hand[self.active]) <= self.controlled(self.active) * self.hand_per_holding:
            self._upkeep()

    def _upkeep(self) -> None:
        """The end of the active side's turn: caves, orders, unfinished builds; then the next turn."""
        r = self.rules
        me = self.active
        pos, cave, orders = self.pos, r.cave, self.orders
        for p in r.pieces_of[me]:
            s = pos[p]
            if s < 0:
                continue
            if cave[s]:
                self.cave_turns[p] += 1
                if self.cave_turns[p] > self.cave_limit:
                    self._remove(p, EATEN)           # eaten by a bear
            else:
                self.cave_turns[p] = 0
            o = orders[p]
            if o is None:
                continue
            if self.pos[p] >= 0:
                goal = self._patrol_goal(o) if o.order == "patrol" else -2
                if goal == -1 or (goal >= 0 and r.dist[self.pos[p]][goal] <= 1):
                    self._cancel_orders(p, "arrived")
                elif not o.moved and o.given < self.turn:
                    self._cancel_orders(p, "still")
            if self.orders[p] is not None:
                self.orders[p].moved = False
        if self.builds:
            for b in [b for b in self.builds if r.piece_side[b[0]] == me and b[4] < self.turn]:
                self._abandon(b)
        if self._win_checked != self._stakes:
            self._check_win()
        if self.phase == OVER:
            return
        if self.holdings_to_win and self.controlled(me) >= self.holdings_to_win:
            self._over(me, HELD)             # option holdings_to_win: checked as the side's turn ends
            return
        if self.turn >= self.turn_limit:
            self._over(None, TURN_LIMIT_REACHED)
            return
        self.mark_progress()
        self.active = 1 - me
        self.turn += 1
        self._begin_turn()

    def _begin_turn(self) -> None:
        self.version += 1
        self.acted = set()
        self.current = -1
        if self.events is not None:
            self._rec("turn_start", side=self.active, holdings=self.controlled(self.active))
        self.draws_left = min(self.controlled(self.active) * self.draws_per_holding, len(self.deck[self.active]))
        self.phase = DRAW if self.draws_left > 0 else PIECE

    # -- winning

    def _check_win(self) -> None:
        self._win_checked = self._stakes
        if self.phase == OVER:
            return
        r = self.rules
        pos = self.pos
        # the first side wins when every piece of the second is gone or possessed (or, with the option
        # enthral_to_win, that many of them)
        taken = sum(1 for p in r.pieces_of[1] if pos[p] < 0 or self.possessed[p])
        if taken >= (self.enthral_to_win or len(r.pieces_of[1])):
            self._over(0, ENTHRALLED)
            return
        # the second wins when no essential piece of the first is left (option kingdom_goal 'all': no piece
        # of the first side at all; option banish_to_win: that many essential pieces gone) and no holding of
        # its is tainted
        tainted = any(self.control[h] == 0 and r.holding_side[h] == 1 for h in range(len(r.holdings)))
        if not tainted:
            counted = [p for p in r.pieces_of[0] if r.essential[p] or self.kingdom_goal == "all"]
            gone = sum(1 for p in counted if pos[p] < 0)
            if gone >= (self.banish_to_win or len(counted)):
                self._over(1, BANISHED)
                return

    def _over(self, winner, reason) -> None:
        self.mark_progress()
        self.phase = OVER
        self.winner = winner
        self.over_reason = reason
        self.fight = None
        if self.events is not None:
            self._rec("game_over", winner=winner, reason=reason)

    # ------------------------------------------------------------------ hidden information

    def clone(self) -> "GameState":
        new = GameState.__new__(GameState)
        new.__dict__.update(self.__dict__)
        new.pos = self.pos[:]
        new.fate = self.fate[:]
        new.possessed = self.possessed[:]
        new.cave_turns = self.cave_turns[:]
        new.orders = [o.copy() if o is not None else None for o in self.orders]
        new.occ = self.occ[:]
        new.control = self.control[:]
        new.altar = self.altar[:]
        new.bridge = self.bridge[:]
        new.path = self.path[:]
        new.builds = [b[:] for b in self.builds]
        new.deck = [d[:] for d in self.deck]
        new.hand = [h[:] for h in self.hand]
        new.used = [u[:] for u in self.used]
        new.acted = set(self.acted)
        new.fight = dict(self.fight) if self.fight else None
        new.plays = dict(self.plays)
        new.removed = dict(self.removed)
        new.events = None
        new.check = False
        new.violations = []
        new._memo = {}
        new._kept = {}
        new._placed = self._placed[:]
        new._ctl_kept = self._ctl_kept[:]
        new._auto_chance = None
        new.trace = None
        return new

    def information_state(self, player: int):
        """Everything on the table, the seat's own hand, and the other hand's size and the cards the
        seat knows are in it (its own deck's cards taken by a steal)."""
        r = self.rules
        other = self.hand[1 - player]
        known = tuple(sorted(r.card_of[c] for c in other if r.card_deck[r.card_of[c]] == player))
        return (player, self.phase, self.active, self.turn, tuple(self.pos), tuple(self.possessed),
                tuple(self.cave_turns), tuple(o.key() if o else None for o in self.orders),
                tuple(self.control), tuple(self.altar), tuple(self.bridge), tuple(self.path),
                tuple(tuple(b) for b in self.builds), tuple(sorted(r.card_of[c] for c in self.hand[player])),
                len(other), known, tuple(sorted(self.used[0])), tuple(sorted(self.used[1])),
                tuple(sorted(self.acted)), self.current, self.draws_left,
                tuple(sorted(self.fight.items())) if self.fight else None)

    def determinize(self, player: int, rng) -> "GameState":
        """A clone where the other side's hand (apart from cards the seat saw it take) is dealt again
        from that side's deck and hand together."""
        new = self.clone()
        r = self.rules
        o = 1 - player
        hidden = [c for c in new.hand[o] if r.card_deck[r.card_of[c]] == o]
        known = [c for c in new.hand[o] if r.card_deck[r.card_of[c]] != o]
        pool = sorted(new.deck[o] + hidden)     # from where the real cards lie, nothing reaches the sample
        rng.shuffle(pool)
        new.hand[o] = known + pool[:len(hidden)]
        new.deck[o] = pool[len(hidden):]
        if new.phase == ACT:             # the piece's choices were worked out with the hands as they were
            new._acts = new.act_actions()
        return new

    # ------------------------------------------------------------------ names, events, checks

    def action_to_string(self, player: int, a: Action) -> str:
        r = self.rules
        side = r.side_names[player]
        v = a.verb
        if v == MOVE:
            return f"{side}: move the {r.piece_name(a.piece)} from {r.hex_id[self.pos[a.piece]]} to {r.hex_id[a.dest]}"
        if v == PLAY:
            extra = f" at {a.target}" if a.target >= 0 else ""
            if a.dest >= 0:
                extra += f" (to {a.dest})"
            return f"{side}: the {r.piece_name(a.piece)} plays {r.card_id(a.card)}{extra}"
        if v == DEFEND_WITH:
            return f"{side}: the {r.piece_name(a.piece)} defends with {r.card_id(a.card)}"
        if v == DISCARD_CARD:
            return f"{side}: discard {r.card_id(a.card)}"
        if v == FINISH:
            return f"{side}: the {r.piece_name(a.piece)} finishes its build"
        return f"{side}: {v.replace('_', ' ')}"

    def _rec(self, type_, **data) -> None:
        self.events.append(Event(type_, self.turn, data))

    def _checkpoint(self, where: str) -> None:
        if not self.check:
            return
        from rules_engine.shadow_queen.invariants import check_state
        for problem in check_state(self):
            self.violations.append(f"turn {self.turn}, after {where}: {problem}")

    def all_cards(self) -> list[int]:
        """Every physical card's place, for the invariant: decks, hands, used, orders, builds."""
        cards = self.deck[0] + self.deck[1] + self.hand[0] + self.hand[1] + self.used[0] + self.used[1]
        cards += [o.card for o in self.orders if o is not None]
        cards += [b[1] for b in self.builds]
        return cards


def material(state) -> float:
    """The first side's lead: pieces it controls, holdings, and the other side's essential pieces lost
    (the search bot's estimate before the end, and the greedy bot's)."""
    r = state.rules
    score = 0.0
    for p, s in enumerate(state.pos):
        if s < 0:
            score += 1.5 if r.piece_side[p] == 1 else -(3.0 if r.essential[p] else 1.0)
        elif state.possessed[p]:
            score += 2.0
    score += 2.0 * (state.controlled(0) - state.controlled(1))
    return score
