"""Shadow Queen's bots: ``random`` (the core's: a uniformly random legal action) and ``greedy``, a
heuristic player that heads each piece for its job and plays the card that looks best now.

The greedy bot reads only what its side could see: the board, its own hand and the number of cards
in the other hand. Each piece has a goal by what it can play:

* fighters and possessors (Shadows, Soldiers) head for the nearest enemy piece, and attack when their
  dice outnumber the defenders' that could answer;
* Familiars head for the nearest holding of the other side (to taint it, or lure what stands near);
* builders (Thralls, Peasants) head for a bridge site while no bridge stands, then stay near bridges;
* Priests head for tainted holdings, possessed pieces and Shadows (to bless or banish);
* Messengers head for the nearest Soldier without orders, and give patrol orders towards the nearest
  Shadow piece first.
"""

from __future__ import annotations

import weakref
from operator import itemgetter

from rules_engine.core.bots import Bot, registry
from rules_engine.shadow_queen.state import (ACT, DEFEND, DISCARD, DISCARD_CARD, END_ACTION, FINISH, MOVE,
                                             NO_DEFENCE_ACTION, PASS_ACTION, PIECE, PLAY, Action)

#: What playing a card of each kind is worth to the greedy bot (before the situation adds or takes).
CARD_VALUE = {"possess": 10, "taint": 9, "bless": 9, "attack": 8, "rescue": 6, "orders": 7, "banish": 3,
              "construct": 5, "lure": 5, "steal": 4, "restore": 3, "sabotage": 2, "defend": 6}


#: The greedy bot's guess that the other side holds a defend card when it holds any card.
DEFENCE_GUESS = 0.35

_ODDS = {}


def fight_odds(att: int, dfn: int, sides: int = 6) -> tuple[float, float]:
    """(P(attack roll > defence roll), P(attack roll < defence roll)) for sums of d-sided dice."""
    key = (att, dfn, sides)
    if key not in _ODDS:
        from rules_engine.shadow_queen.state import dice_sum_odds
        a, d = dice_sum_odds(att, sides), dice_sum_odds(dfn, sides)
        win = sum(pa * pd for x, pa in a for y, pd in d if x > y)
        lose = sum(pa * pd for x, pa in a for y, pd in d if x < y)
        _ODDS[key] = (win, lose)
    return _ODDS[key]


def route_row(rules, bridge: tuple, start: int) -> list:
    """Route distances from space ``start`` to every space (hexes, over the bridges ``bridge`` standing,
    ignoring pieces; 10**6 where no route leads)."""
    inf = 10 ** 6
    dist = [inf] * len(rules.at)
    dist[start] = 0
    frontier, d = [start], 0
    while frontier:
        d += 1
        nxt = []
        for s in frontier:
            for j, need in rules.links[s]:
                if dist[j] == inf and (need < 0 or bridge[need]):
                    dist[j] = d
                    nxt.append(j)
        frontier = nxt
    return dist


def route_column(rules, bridge: tuple, end: int) -> list:
    """Route distances from every space to space ``end`` (:func:`route_row` of each space, read at
    ``end``): a search back along the links that lead into it."""
    inf = 10 ** 6
    dist = [inf] * len(rules.at)
    dist[end] = 0
    frontier, d = [end], 0
    into = rules.links_in
    while frontier:
        d += 1
        nxt = []
        for s in frontier:
            for j, need in into[s]:
                if dist[j] == inf and (need < 0 or bridge[need]):
                    dist[j] = d
                    nxt.append(j)
        frontier = nxt
    return dist


class Tables:
    """What the greedy bot keeps per rules, shared by games: per set of bridges standing, the route
    columns worked out so far (:func:`route_column`, at most one per space); per (bridges standing, spaces
    headed for), a heading (:func:`heading`), the same goals coming back turn after turn and game after
    game; per (bridges standing, space, hexes) the spaces a move may reach at most (:func:`within`); per
    kind of piece the card kinds it may play; per piece whether it takes its go first; per physical card
    its place in the order the bot discards in."""

    #: Headings kept at most (about 1 KB each); the columns are kept apart (one a space per set of bridges).
    HEADINGS_KEPT = 4096

    def __init__(self, rules):
        self.columns = {}
        self.headings = {}
        self.within = {}
        self.kinds = [frozenset(rules.card_kind[i] for i in range(len(rules.cards)) if k in rules.card_players[i])
                      for k in range(len(rules.kinds))]
        # possessors and messengers first: a possession or an order gives another piece its go
        self.lead = tuple(bool(self.kinds[k] & {"possess", "orders"}) for k in rules.piece_kind)
        # per physical card its place in the order the bot discards in: the card it values least first
        # (the lowest-numbered of equal value)
        value = [CARD_VALUE.get(rules.card_kind[rules.card_of[c]], 1) for c in range(len(rules.card_of))]
        order = sorted(range(len(value)), key=lambda c: (value[c], c))
        self.discard_rank = [0] * len(order)
        for i, c in enumerate(order):
            self.discard_rank[c] = i


_TABLES = weakref.WeakKeyDictionary()


def tables(rules) -> Tables:
    """The greedy bot's :class:`Tables` of ``rules``."""
    t = _TABLES.get(rules)
    if t is None:
        t = _TABLES[rules] = Tables(rules)
    return t


def heading(state, goals: frozenset, t: Tables | None = None) -> tuple:
    """``(goals, scores, columns, bridges, kept, pick)`` for pieces heading for the spaces ``goals``: the
    goals as a tuple, per space its score (the route distance from the nearest goal, 3 more in a cave; None
    until a bot first needs it, see :func:`fill_scores`), the route columns of the bridges standing, those
    bridges, a dict of what the bot works out per space as pieces come there: per goal the hexes to the
    nearest other goal, per ``(space, hexes of the move)`` the spaces near that score no more
    (:func:`better_spaces`; False the first time), and a function reading the goals' entries of a route
    column as a tuple (an ``itemgetter``: one C call, where a ``map`` of the column's ``__getitem__`` made a
    call per goal). The scores depend on the goals and the bridges alone, so they are shared between turns
    and games."""
    r = state.rules
    t = t or tables(r)
    bridge = tuple(state.bridge)
    key = (bridge, goals)
    kept = t.headings
    entry = kept.get(key)
    if entry is None:
        if len(kept) >= t.HEADINGS_KEPT:
            kept.clear()
        columns = t.columns.get(bridge)
        if columns is None:
            columns = t.columns[bridge] = [None] * len(r.at)
        goals = tuple(goals)
        pick = itemgetter(*goals) if len(goals) > 1 else itemgetter(goals[0], goals[0])   # (always a tuple)
        entry = kept[key] = (goals, [None] * len(r.at), columns, bridge, {}, pick)
    return entry


def fill_scores(rules, entry, spaces, score) -> None:
    """Fill in the scores still None in ``score`` (those of ``spaces``, in order) from a :func:`heading`
    entry, keeping them there."""
    _, near, columns, bridge, _, pick = entry
    cave = rules.cave
    for i, s in enumerate(spaces):
        if score[i] is None:
            column = columns[s]
            if column is None:
                column = columns[s] = route_column(rules, bridge, s)
            score[i] = near[s] = min(pick(column)) + (3 if cave[s] else 0)


def within(rules, bridge: tuple, here: int, steps: int) -> tuple:
    """The spaces other than ``here`` within ``steps`` hexes of it over the links the bridges ``bridge``
    open (pieces and forests ignored), in order; kept in the rules' :class:`Tables`."""
    kept = tables(rules).within
    key = (bridge, here, steps)
    out = kept.get(key)
    if out is None:
        links = rules.open_links(bridge)
        seen, frontier = {here}, [here]
        for _ in range(steps):
            nxt = []
            for s in frontier:
                for j in links[s]:
                    if j not in seen:
                        seen.add(j)
                        nxt.append(j)
            frontier = nxt
        seen.discard(here)
        if len(kept) >= Tables.HEADINGS_KEPT:
            kept.clear()
        out = kept[key] = tuple(sorted(seen))
    return out


def better_spaces(rules, entry, here: int, steps: int) -> tuple:
    """The spaces other than ``here`` within ``steps`` hexes of it over the links the :func:`heading`
    ``entry``'s bridges open (pieces and forests ignored: a superset of where a move of ``steps`` hexes
    may end) that score no more than ``here`` by the entry, best first: by score, and among equal scores
    the spaces next to ``here`` first, in the order of its open links (the order in which
    :meth:`GameState.destinations` lists a move's first hex), then the others.
    A piece on ``here`` with each of them taken by a piece (a space with a piece is never a destination)
    stays: every place it may go scores more than staying; with a free one next to it and no free one
    further off that scores as well, it goes there. Kept in the entry's dict per ``(here, steps)``: the
    same few come back turn after turn."""
    bridge = entry[3]
    spaces = within(rules, bridge, here, steps)
    near = entry[1]
    score = [near[s] for s in spaces]
    fill_scores(rules, entry, spaces, score)
    own = [near[here]]
    fill_scores(rules, entry, (here,), own)
    first = rules.open_links(bridge)[here]
    rank = {s: i for i, s in enumerate(first)}
    far = len(first)
    return tuple(s for v, i, s in sorted([(v, rank.get(s, far), s) for s, v in zip(spaces, score) if v <= own[0]]))


def card_kinds(rules) -> list:
    """Per kind of piece, the card kinds it may play."""
    return tables(rules).kinds


def leads(rules) -> tuple:
    """Per piece, whether it takes its go first: a possessor or a messenger (a possession or an order
    gives another piece its go)."""
    return tables(rules).lead


class GreedyBot(Bot):
    """Heads every piece for its job and plays the best-looking card (see the module docstring)."""

    name = "greedy"
    fast = True
    _rules = None                  # the rules of the last game played, and their tables
    _tables = None

    def __init__(self):
        self._moves = {}
        self._discards = {}

    def tables(self, r) -> Tables:
        if self._rules is not r:
            self._rules, self._tables = r, tables(r)
        return self._tables

    def act(self, state, player, rng):
        phase = state.phase
        if phase == PIECE:
            return self._piece(state, player, rng)
        if phase == ACT:
            return self._card(state, player, rng)
        if phase == DEFEND:
            options = state.defend_actions()
            return max(options, key=lambda a: (self._defence_dice(state, a), -a.card)) if options \
                else NO_DEFENCE_ACTION
        if phase == DISCARD:
            return self._discard(state, player)
        return state.legal_actions(player)[0]

    # -- moving

    def _piece(self, state, me, rng):
        # the state's memo read directly (as :meth:`GameState.movers` and :meth:`_heading` read it): a go
        # is a dozen small steps, and most of them end in a stay
        memo = state._memo if state._memo_version == state.version else state.memo()
        movable = memo.get("movable")
        if movable is None:
            movable = memo["movable"] = state._movable()
        if not movable:
            return END_ACTION
        r = state.rules
        if self._rules is not r:
            self.tables(r)
        t = self._tables
        # possessors and messengers first: a possession or an order gives another piece its go. The leads
        # among the movable pieces, in their order, are kept with them; a piece leaves the movable ones
        # only by its go (``acted``) while they are kept
        leads = memo.get("leads")
        if leads is None:
            lead = t.lead
            leads = memo["leads"] = [q for q in movable if lead[q]]
        if leads:
            acted = state.acted
            while leads and leads[0] in acted:
                del leads[0]
        p = leads[0] if leads else movable[0]
        here = state.pos[p]
        if state.builds and any(b[0] == p for b in state.builds):
            return self._go(p, here)                 # stay to finish the build it began
        dests = None
        if r.needs_orders[p]:
            if state.orders[p] is None and not state.possessed[p]:
                return self._go(p, here)             # (RULING: no orders, no move: its only destination)
            dests = state.destinations(p)            # (kept for the search below: the same spaces)
            if len(dests) == 1:
                return self._go(p, here)
        key = -1 - me if state.possessed[p] and r.piece_side[p] != me else me * 64 + r.piece_kind[p]
        entry = memo.get(key)
        if entry is None:
            entry = self._heading(state, p, me)
        near = entry[1]
        if near[here] == 0 or near[here] is None and self._score(r, entry, here) == 0:
            # standing on a space it heads for, with no other such space within its move: staying is
            # the best move (any other space scores 1 or more), found without searching where it may go
            apart = entry[4].get(here)
            if apart is None:
                dist = r.dist[here]
                apart = entry[4][here] = min([dist[g] for g in entry[0] if g != here], default=10 ** 6)
            if apart > state.allowance(p):
                return self._go(p, here)
        # every space within its move that scores no more than its own taken by a piece (or none such):
        # staying is the best move whatever else stands near, found without searching where it may go
        if r.forest[here] and not state.path[here]:
            steps = 1                                # (RULING: a move from a forest is one hex)
        else:
            steps = r.kind_move[r.piece_kind[p]] if state.orders[p] is None else state.allowance(p)
        key = (here, steps)
        kept = entry[4]
        better = kept.get(key)
        if better is None:
            kept[key] = False                        # worked out when a piece stands here again
        else:
            if better is False:
                better = kept[key] = better_spaces(r, entry, here, steps)
            # every space within its move that scores no more than its own taken by a piece (or none such):
            # staying is the best move whatever else stands near, found without searching where it may go
            occ = state.occ
            them = iter(better)
            for s in them:
                if occ[s] < 0:
                    break
            else:
                return self._go(p, here)
            # ``s``: the best free one (:func:`better_spaces` has them best first). When it is next to the
            # piece it is a destination (the search lists the free spaces next to it first, in the order of
            # its open links, as ``better`` has them): it goes there, unless a free space further off scores
            # as well (only the search knows whether it may reach it). For a move of its own side's piece
            # with no orders to follow (the search :meth:`GameState._reach_free`)
            if dests is None and r.piece_side[p] ^ state.possessed[p] == me:
                adjacent = (state._open or state.open_links())[here]
                if s in adjacent:
                    low = near[s]
                    ties = [s]
                    for t in them:
                        if occ[t] < 0:
                            if near[t] != low:
                                break
                            if t not in adjacent:
                                ties = None
                                break
                            ties.append(t)
                    if ties:
                        if len(ties) == 1:
                            return self._go(p, s)
                        # a draw only where the best destinations tie: the k-th of them, in their order
                        return self._go(p, ties[int(rng.random() * len(ties))])
                elif steps > 1:
                    # two hexes off or more: when no other free one scores as well and the piece may pass
                    # through a space next to it (free, or one of its side's pieces; no pathless forest)
                    # that leads to it, it is in the search's second hex and the only best destination
                    low = near[s]
                    for t in them:
                        if occ[t] < 0:
                            if near[t] == low:
                                s = -1
                            break
                    if s >= 0:
                        deep = state._deep or state._deep_now()
                        ahead = deep[here]
                        side, possessed = r.piece_side, state.possessed
                        for m in adjacent:
                            if m in ahead and s in deep[m]:
                                other = occ[m]
                                if other < 0 or side[other] ^ possessed[other] == me:
                                    return self._go(p, s)
        if dests is None:
            dests = state.destinations(p)
            if len(dests) == 1:
                return self._go(p, here)
        score = list(map(near.__getitem__, dests))
        if None in score:
            fill_scores(state.rules, entry, dests, score)
        score[0] += 0.5                              # (its own space comes first) staying costs a little
        low = min(score)
        ties = score.count(low)
        if ties == 1:
            return self._go(p, dests[score.index(low)])
        # a draw only where the best destinations tie: the k-th of them, in their order
        i = score.index(low)
        for _ in range(int(rng.random() * ties)):
            i = score.index(low, i + 1)
        return self._go(p, dests[i])

    @staticmethod
    def _score(r, entry, s) -> int:
        score = [None]
        fill_scores(r, entry, (s,), score)
        return score[0]

    def _go(self, p, dest) -> Action:
        """The move of ``p`` to ``dest`` (kept per piece and space: the same few come back all game)."""
        key = p * 4096 + dest
        a = self._moves.get(key)
        if a is None:
            a = self._moves[key] = Action(MOVE, p, -1, -1, dest)
        return a

    def _heading(self, state, p, me) -> tuple:
        """The :func:`heading` of piece ``p``: the spaces it heads for, and per space its score, filled as
        destinations are scored (the route distance from the nearest of them, 3 more in a cave; None until
        needed). Kept in the state's memo per kind of piece while the position holds
        (:meth:`GameState.memo`): the goals of a kind change only with what a plain move leaves as it is."""
        r = state.rules
        key = -1 - me if state.possessed[p] and r.piece_side[p] != me else me * 64 + r.piece_kind[p]
        memo = state._memo if state._memo_version == state.version else state.memo()
        entry = memo.get(key)
        if entry is None:
            # the same goals come back version after version (a side's holdings, the bridges, pieces that did
            # not move): kept across versions with the counts of the changes they read (:meth:`_stamp`)
            kept = state._kept
            stamp = self._stamp(state, key, me)
            was = kept.get(key)
            if was is not None and was[0] == stamp:
                entry = was[1]
            else:
                goals = self._goals(state, p, me)
                # (the nearest goal is the same whatever their order); None: no goals
                entry = heading(state, frozenset(goals), self.tables(r)) if goals else None
                kept[key] = (stamp, entry)
            if entry is None:                        # nowhere to head for: stay near where it stands
                return heading(state, frozenset((state.pos[p],)), self.tables(r))
            memo[key] = entry
        return entry

    def _stamp(self, state, key, me) -> tuple:
        """The counts of the changes of what :meth:`_goals` reads for the pieces of memo key ``key``
        (:meth:`GameState.kept`): holdings' control and possessions (``_stakes``) for every kind, the
        bridges standing (the heading's routes) and, by what the kind heads for, the placements of the
        other side's pieces (fighters, Priests), of its own (Priests, Messengers) and orders (Messengers)."""
        if key < 0:                                  # a possessed piece: the holdings its possessor controls
            return (state._stakes, state._bridged)
        kinds = self.tables(state.rules).kinds[key - me * 64]
        if "bless" in kinds or "banish" in kinds:
            return (state._stakes, state._bridged, state._placed[0], state._placed[1])
        if "orders" in kinds:
            return (state._stakes, state._bridged, state._placed[me], state._ordered)
        if "taint" in kinds and "possess" not in kinds or "construct" in kinds:
            return (state._stakes, state._bridged)
        return (state._stakes, state._bridged, state._placed[1 - me])

    def _goals(self, state, p, me) -> list[int]:
        """Spaces piece ``p`` should head for."""
        r = state.rules
        pos = state.pos
        nh = len(r.holdings)
        kinds = self.tables(r).kinds[r.piece_kind[p]]
        if state.possessed[p] and r.piece_side[p] != me:
            return [r.holding_space[h] for h in range(nh) if state.control[h] == me]
        if "bless" in kinds or "banish" in kinds:
            goals = [r.holding_space[h] for h in range(nh) if state.control[h] != me and r.holding_side[h] == me]
            possessed, essential = state.possessed, r.essential
            goals += [pos[t] for t in r.pieces_of[me] if possessed[t] and pos[t] >= 0]
            goals += [pos[t] for t in r.pieces_of[1 - me] if essential[t] and pos[t] >= 0]
            return goals
        if "orders" in kinds:
            return [pos[s] for s in r.pieces_of[me] if pos[s] >= 0 and r.needs_orders[s]
                    and state.orders[s] is None and not state.possessed[s]]
        if "taint" in kinds and "possess" not in kinds:
            return [r.holding_space[h] for h in range(nh) if state.control[h] != me]
        if "construct" in kinds:
            if not any(state.bridge):
                return [s for b in range(len(r.bridge_sites)) for s in r.site_near[b] if r.half[s] == me]
            return [s for b in range(len(r.bridge_sites)) if state.bridge[b] for s in r.site_near[b]]
        # fighters and possessors: the nearest enemy piece, else the other side's holdings
        possessed = state.possessed
        goals = [pos[t] for t in r.pieces_of[1 - me] if pos[t] >= 0 and not possessed[t]]
        return goals or [r.holding_space[h] for h in range(nh) if state.control[h] != me]

    # -- cards

    def _card(self, state, me, rng):
        best, value = PASS_ACTION, 0.0
        for a in state.legal_actions(me):
            v = self._value(state, me, a)
            if v > value:
                best, value = a, v
        return best

    def _value(self, state, me, a) -> float:
        if a.verb == FINISH:
            return 8.0
        if a.verb != PLAY:
            return 0.0
        r = state.rules
        k = r.card_of[a.card]
        kind = r.card_kind[k]
        v = float(CARD_VALUE.get(kind, 1))
        t = a.target
        if kind in ("attack", "rescue"):
            att = state._fighters(me, t)
            dfn = state._fighters(1 - me, t) if state.hand[1 - me] else 0
            win, lose = fight_odds(att, dfn, state.die)
            # the defence answers only with a defend card: weigh its roll by a guess that it holds one
            guess = DEFENCE_GUESS if dfn else 0.0
            win = guess * win + (1 - guess)
            lose = guess * lose
            if win <= lose + 0.15:
                return 0.0
            v = v * (win - lose) + (6 if r.essential[t] else 0)
        elif kind == "banish":
            v *= len(state._banished(a.piece, r.card_params[k].get("reach", 1)))
        elif kind == "construct":
            item = r.card_params[k]["item"]
            if item == "bridge":
                v += 3 if not any(state.bridge) else -2
            elif item == "path":
                v = 1.0
            elif item == "altar":
                v = 3.0 if state.used[me] else 0.5
        elif kind == "sabotage":
            nb = len(r.bridge_sites)
            if t < nb:
                s = r.site_space[t]
                drowned = s >= 0 and state.occ[s] >= 0 and state.enemy(me, state.occ[s])
                v = 9.0 if drowned else (4.0 if me == 1 else 0.0)
            else:
                v = 1.0
        elif kind == "orders":
            nh = len(r.holdings)
            if r.card_params[k]["order"] == "patrol":
                v += 3 if a.dest >= nh else -5
        elif kind == "restore":
            v = 2.0 + CARD_VALUE.get(r.card_kind[r.card_of[t]], 1) / 4
        elif kind == "steal":
            v += CARD_VALUE.get(r.card_kind[r.card_of[t]], 1) / 4
        return v

    def _defence_dice(self, state, a) -> int:
        return state._fighters(1 - state.active, a.target)

    def _discard(self, state, me):
        """The card it values least (the lowest-numbered of them): one of the legal discards, which offer
        the lowest-numbered copy of each card in hand."""
        c = min(state.hand[me], key=self.tables(state.rules).discard_rank.__getitem__)
        a = self._discards.get(c)
        if a is None:
            a = self._discards[c] = Action(DISCARD_CARD, card=c)
        return a


BOTS = registry({"greedy": GreedyBot})
