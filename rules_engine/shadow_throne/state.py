"""The mutable state of a Shadow Throne game and the rules that move it forward.

:class:`GameState` implements the core state API (:mod:`rules_engine.core.state`): it says whose
decision it is (:meth:`GameState.to_move`), lists the legal actions (:meth:`GameState.legal_actions`),
applies a joint action of every deciding player (:meth:`GameState.apply`) and names actions
(:meth:`GameState.action_to_string`). The one chance event is the shuffle and deal at the start of
each battle (phase ``deal``): explicit outcomes deal one card at a time (:meth:`GameState.chance_outcomes`),
the fast path shuffles the whole deck at once (:meth:`GameState.sample_chance`). Decisions come in
four phases:

``draft``  every player takes one card of the pool in front of her (pools then pass left);
``play``   every player secretly chooses a card for the wave (all are revealed together);
``extra``  a player whose King Kyros (``extra_play``) acts may add a card, or ``None`` for none;
``keep``   at the end of a battle every player keeps one unplayed card.

Actions are physical card numbers (``rules.card_id(n)`` gives the id). With ``record=True`` every
step is also written as an :class:`~rules_engine.shadow_throne.events.Event` in ``state.events``;
with ``check=True`` the invariants (see :mod:`rules_engine.shadow_throne.invariants`) are checked at
every step and broken ones are listed in ``state.violations``.

Interpretations of the printed rules are marked ``RULING`` and collected in ``docs/engine.md``.
"""

from __future__ import annotations

import random

from rules_engine.core.search import softmax_returns
from rules_engine.core.state import IllegalAction, State, shuffle, weighted_kinds
from rules_engine.shadow_throne.effects import apply_effects
from rules_engine.shadow_throne.events import Event, ref
from rules_engine.shadow_throne.invariants import check_state
from rules_engine.shadow_throne.rules import GOAL, MAX_BATTLES, Rules

DEAL, DRAFT, PLAY, EXTRA, KEEP, OVER = "deal", "draft", "play", "extra", "keep", "over"

#: Game-over reasons.
GOAL_REACHED, GOLD_TIEBREAK, TIE, BATTLE_LIMIT = "goal", "gold_tiebreak", "tie", "battle_limit"
REASONS = (GOAL_REACHED, GOLD_TIEBREAK, TIE, BATTLE_LIMIT)


class Character:
    """A card in the battle (or a card turned face down, with ``played`` False)."""

    __slots__ = ("card", "owner", "wave", "original", "faction", "base", "played", "dead", "converted",
                 "bonus", "boost", "blocked", "step", "extra", "used", "stays", "gold_after",
                 "converted_at")

    def __init__(self, card, owner, wave, faction, base, step, gold_after=0, played=True):
        self.card = card            # physical card number
        self.owner = owner          # seat
        self.wave = wave            # 1..4, or 0 for a character carried over from the last battle
        self.original = faction     # printed faction: hush money follows it
        self.faction = faction      # current faction (conversion changes it)
        self.base = base            # printed power
        self.played = played
        self.dead = False
        self.converted = False
        self.bonus = 0              # +1 tokens on the card
        self.boost = 0              # power from its own condition (Thamna), no tokens
        self.blocked = 0            # bitmask of steps whose abilities are suppressed
        self.step = step            # step its ability resolves at (None: trigger or no ability)
        self.extra = False          # played as an extra card (King Kyros)
        self.used = False           # its extra-play choice has been offered
        self.stays = 0              # battles it may still stay for after a loss (Langman)
        self.gold_after = gold_after  # owner's gold right after paying for it
        self.converted_at = -1

    def copy(self) -> "Character":
        new = Character.__new__(Character)
        new.card, new.owner, new.wave, new.original, new.faction, new.base = (
            self.card, self.owner, self.wave, self.original, self.faction, self.base)
        new.played, new.dead, new.converted, new.bonus, new.boost, new.blocked = (
            self.played, self.dead, self.converted, self.bonus, self.boost, self.blocked)
        new.step, new.extra, new.used, new.stays, new.gold_after, new.converted_at = (
            self.step, self.extra, self.used, self.stays, self.gold_after, self.converted_at)
        return new

    def strength(self) -> int:
        """Power it gives its current faction now: nothing when dead."""
        return 0 if self.dead else self.base + self.bonus + self.boost

    def __repr__(self):
        state = " dead" if self.dead else ""
        return f"<Character #{self.card} p{self.owner} w{self.wave} f{self.faction}{state}>"


class GameState(State):
    """One game (or, with :meth:`for_battle`, one set-up battle) of Shadow Throne.

    ``players`` seats are numbered from 0 in clockwise order; a seat's left neighbour is the next seat.
    With a ``seed`` (or ``rng``) the state deals its own battles as they come (tests, play by hand);
    with ``seed=None`` it stops in phase ``deal`` for the caller to resolve the chance event.
    """

    def __init__(self, rules: Rules, players: int, seed=None, *, goal: int = GOAL, record: bool = False,
                 check: bool = False, max_battles: int = MAX_BATTLES, rng: random.Random | None = None,
                 _start: bool = True):
        if players < 1 or (_start and players * rules.pool_size > rules.ncards):
            raise ValueError(f"{players} players: the deck deals pools to 1..{rules.max_players()} players")
        self.rules = rules
        self.n = players
        self.goal = goal
        self._auto_chance = rng if rng is not None else (random.Random(seed) if seed is not None else None)
        self.gold = [rules.start_gold] * players
        self.influence = [0] * players
        self.hands = [[] for _ in range(players)]
        self.played = [[] for _ in range(players)]   # per seat: cards it played as characters
        self.deck = list(range(rules.ncards))
        self.discard = []
        self.pools = [[] for _ in range(players)]
        self.carry = []              # characters staying for the next battle
        self.chars = []              # characters in this battle (carried-over ones first)
        self.face_down = []          # cards turned face down this battle (poor players)
        self.wave_chars = []
        self.pending = []            # (wave, source): embolden effects waiting for a later wave
        self.power = [0] * len(rules.factions)
        self.last_factions = [0] * players   # bitmask of original factions played last wave
        self.battle = 0
        self.wave = 0
        self.draft_round = 0
        self.moment = 0              # counts ability steps; marks simultaneous effects
        self.max_battles = max_battles
        self.phase = DRAFT
        self.extra_pending = {}      # seat -> source character waiting for an extra-card choice
        self._resume_step = 0
        self.allow_pass = False      # scenarios: a player may play nothing in a wave
        self.offer_every_extra = False  # scenarios: ask even when no card could be added
        self._refused = set()
        self.winner = None
        self.leaders = ()
        self.over_reason = None
        self.faction_wins = [0] * len(rules.factions)
        self.battle_winners = []     # per battle: tuple of winning faction indexes
        self.tok_dead = self.tok_converted = self.tok_plus = 0
        self.peak = {"gold": 0, "influence": 0, "dead": 0, "converted": 0, "plus": 0}
        self.events = [] if record else None
        self.check = check
        self.violations = []
        self._influence_seen = list(self.influence)
        self.gold_after_conflict = None
        self.last_result = None
        self._dealt = []             # phase deal: cards dealt so far, one chance outcome at a time
        if _start:
            if record:
                self._rec("game_start", players=players, goal=goal, gold=rules.start_gold)
            self._begin_battle()
            self.settle()

    # ------------------------------------------------------------------ set-up battles (scenarios)

    @classmethod
    def for_battle(cls, rules: Rules, hands, *, gold=None, influence=None, carryover=(), goal: int = GOAL,
                   record: bool = False, check: bool = False, seed=0):
        """A state at the start of a battle's conflict phase, with the given hands and no draft.

        ``hands`` is one list of physical card numbers per seat; ``carryover`` lists
        ``(card number, seat)`` for characters already in play (as if played before wave 1). The
        cards not in a hand or carried over make the deck. Used by scenarios and tests.
        """
        n = len(hands)
        state = cls(rules, n, seed, goal=goal, record=record, check=check, _start=False)
        if gold is not None:
            state.gold = list(gold)
        if influence is not None:
            state.influence = list(influence)
        state._influence_seen = list(state.influence)
        used = set()
        state.hands = [list(h) for h in hands]
        for hand in state.hands:
            used.update(hand)
        state.battle = 1
        state.pools = [[] for _ in range(n)]
        state.last_factions = [0] * n
        for card, owner in carryover:
            used.add(card)
            ch = Character(card, owner, 0, rules.faction[card], rules.power[card], None)
            state.chars.append(ch)
            state.power[ch.faction] += ch.base
        state.deck = [c for c in range(rules.ncards) if c not in used]
        state.phase = PLAY
        if record:
            # the position in the words every engine's scenario_start uses, for printed examples
            position = {"hands": {p: [rules.card_id(c) for c in hand] for p, hand in enumerate(state.hands)},
                        "tableau": {p: [rules.card_id(ch.card) for ch in state.chars if ch.owner == p]
                                    for p in range(n)},
                        "counters": {p: {"gold": state.gold[p], "influence": state.influence[p]} for p in range(n)}}
            state._rec("scenario_start", gold=list(state.gold), influence=list(state.influence), position=position)
            for ch in state.chars:
                state._rec("carried", character=ref(rules, ch))
        state._checkpoint("set-up")
        return state

    # ------------------------------------------------------------------ decisions

    def to_move(self) -> list[int]:
        """Seats that must choose an action now (all at once); none while a battle is being dealt."""
        if self.phase in (DRAFT, PLAY):
            return list(range(self.n))
        if self.phase == EXTRA:
            return sorted(self.extra_pending)
        if self.phase == KEEP:
            return [p for p in range(self.n) if self.hands[p]]
        return []

    def legal_actions(self, player: int) -> list:
        """Card numbers the seat may choose; in ``extra`` also ``None`` (no extra card)."""
        if self.phase == DRAFT:
            return sorted(self.pools[player])
        if self.phase == PLAY:
            hand = sorted(self.hands[player])
            return hand + [None] if (self.allow_pass or not hand) else hand
        if self.phase == EXTRA:
            source = self.extra_pending.get(player)
            return ([None] + self.extra_options(source)) if source is not None else []
        if self.phase == KEEP:
            return sorted(self.hands[player])
        return []

    def action_to_string(self, player: int, action) -> str:
        verb = {DRAFT: "take", PLAY: "play", EXTRA: "add", KEEP: "keep"}.get(self.phase, "do")
        if action is None:
            return f"seat {player}: {verb} nothing"
        return f"seat {player}: {verb} {self.rules.card_id(action)}"

    def apply(self, actions: dict):
        """Apply the joint action ``{seat: action}`` of every seat in :meth:`to_move`."""
        movers = self.to_move()
        for p in movers:
            if p not in actions:
                raise IllegalAction(f"no action for seat {p} in phase {self.phase}")
            if actions[p] not in self.legal_actions(p):
                raise IllegalAction(f"{self.action_to_string(p, actions[p])} is not legal in phase {self.phase}")
        if self.phase == DRAFT:
            self.apply_draft([actions[p] for p in range(self.n)])
        elif self.phase == PLAY:
            self.apply_play([actions.get(p) for p in range(self.n)])
        elif self.phase == EXTRA:
            self.apply_extra(actions)
        elif self.phase == KEEP:
            self.apply_keep([actions.get(p) for p in range(self.n)])
        elif self.phase == DEAL:
            raise IllegalAction("the battle is being dealt: resolve the chance event first")
        else:
            raise IllegalAction("the game is over")

    apply_actions = apply

    def step_actions(self, actions: dict):
        """Apply a joint action known to be legal (the fast path of the core play loop)."""
        phase = self.phase
        n = range(self.n)
        if phase == PLAY:
            self.apply_play([actions.get(p) for p in n])
        elif phase == DRAFT:
            self.apply_draft([actions[p] for p in n])
        elif phase == EXTRA:
            self.apply_extra(actions)
        elif phase == KEEP:
            self.apply_keep([actions.get(p) for p in n])
        else:
            self.apply(actions)

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        """1 to the winner; on a tie the players tied for the lead (influence, then gold) share 1."""
        if self.phase != OVER:
            return [0.0] * self.n
        share = 1.0 / len(self.leaders) if self.leaders else 0.0
        return [share if p in self.leaders else 0.0 for p in range(self.n)]

    def evaluate(self) -> list[float]:
        """Estimated returns before the end, for the search bot: a softmax of influence plus a little
        for gold (gold breaks ties and buys characters)."""
        return softmax_returns([i + 0.3 * g for i, g in zip(self.influence, self.gold)], 2.5)

    # ------------------------------------------------------------------ chance: the deal

    def is_chance(self) -> bool:
        return self.phase == DEAL

    def chance_outcomes(self) -> list:
        """The next card dealt into the pools (seat 0's pool first): any card of the shuffled deck,
        copies of a card counted together."""
        if self.phase != DEAL:
            return []
        return weighted_kinds(self.deck, self.rules.kind)

    def apply_chance(self, card):
        """Deal ``card`` (from the deck) into the next pool slot."""
        if self.phase != DEAL or card not in self.deck:
            raise IllegalAction(f"card #{card} cannot be dealt now")
        self.deck.remove(card)
        self._dealt.append(card)
        if len(self._dealt) == self.rules.pool_size * self.n:
            size = self.rules.pool_size
            self._deal([self._dealt[i * size:(i + 1) * size] for i in range(self.n)])

    def sample_chance(self, rng):
        """Shuffle the deck and deal the pools at once (the fast path; the same distribution)."""
        if self._dealt:
            return State.sample_chance(self, rng)
        deck = self.deck
        shuffle(deck, rng.random)
        size = self.rules.pool_size
        pools = []
        for _ in range(self.n):
            pools.append(deck[-size:])
            del deck[-size:]
        self._deal(pools)

    # ------------------------------------------------------------------ the random bot's moves

    def random_action(self, p: int, rng):
        """A random draft pick or kept card; a random affordable card to play (an unaffordable one
        only when nothing is affordable); a random extra card or none."""
        phase = self.phase
        if phase == PLAY:
            return random_play(self, p, rng)
        if phase == DRAFT:
            pool = self.pools[p]
            return pool[int(rng.random() * len(pool))]
        if phase == EXTRA:
            choices = [None] + self.extra_options(self.extra_pending[p])
            return choices[int(rng.random() * len(choices))]
        hand = self.hands[p]
        return hand[int(rng.random() * len(hand))]

    # ------------------------------------------------------------------ intrigue phase

    def _begin_battle(self):
        rules, n = self.rules, self.n
        self.battle += 1
        self.wave = 0
        self.deck.extend(self.discard)
        self.discard = []
        self._dealt = []
        self.phase = DEAL
        self.power = [0] * len(rules.factions)
        self.tok_dead = self.tok_converted = self.tok_plus = 0
        self.chars = []
        self.face_down = []
        self.wave_chars = []
        self.pending = []
        self.last_factions = [0] * n
        events = self.events
        if events is not None:
            self._rec("battle_start")
            for p in range(n):
                for card in self.hands[p]:
                    self._rec("kept_card", player=p, card=rules.card_id(card))
        for ch in self.carry:
            # RULING: a character that stays is reset (tokens and suppression removed) and counts
            # as played in wave 0, before the first wave; its ability does not trigger again.
            ch.wave = 0
            ch.bonus = ch.boost = ch.blocked = 0
            ch.used = True
            ch.step = None
            self.chars.append(ch)
            self.power[ch.faction] += ch.strength()
            self.tok_converted += ch.converted
            if events is not None:
                self._rec("carried", character=ref(rules, ch))
        self.carry = []

    def _deal(self, pools):
        self.pools = pools
        self._dealt = []
        self.draft_round = 0
        self.phase = DRAFT
        if self.events is not None:
            self._rec("deal", size=self.rules.pool_size)
        if self.check:
            self._checkpoint("deal")

    def apply_draft(self, picks):
        """Every seat takes ``picks[seat]`` from its pool; the pools then pass to the left."""
        pools, hands, n = self.pools, self.hands, self.n
        self.draft_round += 1
        for p in range(n):
            card = picks[p]
            try:
                pools[p].remove(card)
            except ValueError:
                raise IllegalAction(f"seat {p} cannot take card #{card}: not in its pool") from None
            hands[p].append(card)
        if self.events is not None:
            cid = self.rules.card_id
            self._rec("draft_round", round=self.draft_round, picks=[[p, cid(picks[p])] for p in range(n)],
                      left=len(pools[0]))
        # the pool in front of seat p goes to seat p + 1 (her left neighbour)
        self.pools = pools[-1:] + pools[:-1]
        if not pools[0]:
            self.pools = [[] for _ in range(n)]
            self.phase = PLAY
            if self.events is not None:
                cid = self.rules.card_id
                for p in range(n):
                    self._rec("hand", player=p, cards=[cid(c) for c in hands[p]])
        if self.check:
            self._checkpoint("draft")

    # ------------------------------------------------------------------ conflict phase

    def apply_play(self, choices):
        """Reveal ``choices[seat]`` (a card number, or None to play nothing), pay, resolve abilities."""
        rules, n = self.rules, self.n
        self.wave += 1
        wave = self.wave
        events = self.events
        if events is not None:
            self._rec("wave_start" if any(c is not None for c in choices) else "wave_empty")
        hands, gold, last = self.hands, self.gold, self.last_factions
        r_faction, r_delta, r_power, r_ability = rules.faction, rules.delta, rules.power, rules.ability
        wave_chars = []
        for p in range(n):
            card = choices[p]
            if card is None:
                if hands[p] and not self.allow_pass:
                    raise IllegalAction(f"seat {p} must play a card")
                last[p] = 0
                continue
            try:
                hands[p].remove(card)
            except ValueError:
                self.violations.append(f"battle {self.battle}, wave {wave}: seat {p} played card "
                                       f"#{card}, which was not in its hand")
                raise IllegalAction(f"seat {p} cannot play card #{card}: not in its hand") from None
            faction = r_faction[card]
            hush = (last[p] >> faction) & 1
            change = r_delta[card] - hush
            have = gold[p]
            if have + change < 0:
                # Poor player: the card is turned face down, is not in the battle, and the player
                # collects 1 gold; no hush money is owed next wave.
                gold[p] = have + 1
                self.face_down.append(Character(card, p, wave, faction, r_power[card], None, played=False))
                last[p] = 0
                if events is not None:
                    self._rec("poor", player=p, card=rules.card_id(card), need=-change, had=have, gold=have + 1)
                continue
            gold[p] = have + change
            ability = r_ability[card]
            ch = Character(card, p, wave, faction, r_power[card],
                           ability.step if ability is not None else None, have + change)
            wave_chars.append(ch)
            self.played[p].append(card)
            self.power[faction] += ch.base
            last[p] = 1 << faction
            if events is not None:
                self._rec_payment(p, card, change, hush, gold[p])
        self.chars.extend(wave_chars)
        self.wave_chars = wave_chars
        if self.check:
            self._checkpoint("payments")
        self._resolve_steps(0)

    def _rec_payment(self, p, card, change, hush, now, source=None):
        printed = self.rules.delta[card]
        prefix = "extra_" if source is not None else ""
        if printed > 0:
            kind = "collect_hush" if hush else "collect"
            amount = change
        elif change == 0:
            kind, amount = "play_free", 0
        else:
            kind = "pay_hush" if hush else "pay"
            amount = -change
        data = {"player": p, "card": self.rules.card_id(card), "amount": amount, "gold": now}
        if source is not None:
            data["source"] = ref(self.rules, source)
        self._rec(prefix + kind, **data)

    def _active(self, ch, step) -> bool:
        return not ch.dead and not (ch.blocked >> step) & 1

    def _resolve_steps(self, start):
        """Resolve ability steps from index ``start``; pauses in phase ``extra`` for a choice."""
        rules = self.rules
        steps = rules.steps
        # only the wave's characters with an ability at some step take part (the others are skipped
        # below anyway); the wave changes only through an extra card, which starts here again
        wave_chars = [ch for ch in self.wave_chars if ch.step is not None]
        if not wave_chars and not self.pending and not self.check:
            self.moment += len(steps) - start
            self._end_wave()
            return
        r_ability = rules.ability
        events = self.events
        for si in range(start, len(steps)):
            step = steps[si]
            # 1. extra cards first (King Kyros): offer the choice, then come back to this step
            if rules.has_extra_play:
                waiting = {}
                for ch in wave_chars:
                    ability = r_ability[ch.card]
                    if (ability is not None and ability.handler.extra_play and ch.step == step
                            and not ch.used and self._active(ch, step)):
                        ch.used = True
                        if self.offer_every_extra or self.extra_options(ch):
                            waiting[ch.owner] = ch
                        elif events is not None:
                            self._rec("extra_none", player=ch.owner, source=ref(rules, ch))
                if waiting:
                    self.extra_pending = waiting
                    self._resume_step = si
                    self.phase = EXTRA
                    return
            # 2. every ability of this step picks its targets against the same snapshot ...
            self.moment += 1
            effects = []
            for ch in wave_chars:
                if ch.step != step:
                    continue
                ability = r_ability[ch.card]
                if ability is None:
                    continue
                if ch.dead or (ch.blocked >> step) & 1:
                    # RULING: killed at an earlier step, or suppressed: the ability does not happen
                    if events is not None:
                        self._rec("blocked", character=ref(rules, ch), step=step,
                                  reason="dead" if ch.dead else "suppressed")
                    continue
                effect = ability.handler.determine(self, ch, ability.params)
                if effect is not None:
                    effects.append(effect)
            if self.pending:
                for wave, source in self.pending:
                    if wave == self.wave and source.step == step:
                        ability = r_ability[source.card]
                        effects.append(ability.handler.determine_delayed(self, source, ability.params))
            # 3. ... then they all take effect together
            if effects:
                if events is not None:
                    for effect in effects:
                        self._rec_effect(effect)
                apply_effects(self, effects)
            if self.check:
                self._checkpoint(f"step {step}")
        self._end_wave()

    def extra_options(self, source) -> list:
        """Cards the source's owner may add: its printed faction, affordable without hush money."""
        rules = self.rules
        faction = rules.faction[source.card]
        have = self.gold[source.owner]
        r_faction, r_delta = rules.faction, rules.delta
        return sorted(c for c in self.hands[source.owner] if r_faction[c] == faction and have + r_delta[c] >= 0)

    def apply_extra(self, actions: dict):
        """Each waiting seat adds ``actions[seat]`` (a card number or None) to its source's wave."""
        rules = self.rules
        events = self.events
        for p in sorted(self.extra_pending):
            source = self.extra_pending[p]
            card = actions.get(p)
            if card is None:
                if events is not None and p not in self._refused:
                    self._rec("extra_none", player=p, source=ref(rules, source))
                continue
            if card not in self.extra_options(source):
                raise IllegalAction(f"seat {p} cannot add card #{card} as an extra card")
            self.hands[p].remove(card)
            # RULING: no hush money for the extra card; it joins the source's wave and its own
            # ability resolves at the source's step, whatever step it is printed with.
            change = rules.delta[card]
            self.gold[p] += change
            ch = Character(card, p, self.wave, rules.faction[card], rules.power[card],
                           source.step if rules.ability[card] is not None else None, self.gold[p])
            ch.extra = True
            self.played[p].append(card)
            self.wave_chars.append(ch)
            self.chars.append(ch)
            self.power[ch.faction] += ch.base
            self.last_factions[p] |= 1 << ch.original
            if events is not None:
                self._rec_payment(p, card, change, 0, self.gold[p], source=source)
        self.extra_pending = {}
        self._refused = set()
        self.phase = PLAY
        self._checkpoint("extra card")
        self._resolve_steps(self._resume_step)

    def refuse_extra(self, source, card, reason):
        """Record that a scripted extra card could not be played (scenarios)."""
        self._refused.add(source.owner)
        if self.events is not None:
            self._rec("extra_refused", player=source.owner, source=ref(self.rules, source),
                      card=self.rules.card_id(card), reason=reason)

    def kill(self, target, source):
        """Kill a character now: no power, tokens removed; triggers its on-death ability."""
        self.power[target.faction] -= target.strength()
        self.tok_plus -= target.bonus
        target.bonus = 0
        target.dead = True
        self.tok_dead += 1
        ability = self.rules.ability[target.card]
        if ability is not None and ability.step is None:
            ability.handler.on_death(self, target, ability.params)

    def gain_influence(self, player, amount, source=None):
        """Influence gained at once (Simone); the game still ends only in the resolution phase."""
        self.influence[player] += amount
        if self.events is not None:
            self._rec("death_influence", character=ref(self.rules, source), player=player, amount=amount,
                      influence=self.influence[player])

    def _rec_effect(self, effect):
        rules = self.rules
        source = ref(rules, effect.source)
        kind = effect.kind
        targets = [ref(rules, t) for t in effect.targets]
        if kind in ("kill", "convert", "embolden", "suppress") and not targets:
            self._rec(kind + "_none", source=source)
        elif kind == "kill":
            self._rec("kill", source=source, targets=targets)
        elif kind == "convert":
            self._rec("convert_bonus" if effect.amount else "convert", source=source, targets=targets,
                      faction=rules.factions[effect.faction], amount=effect.amount)
        elif kind == "embolden":
            self._rec("embolden", source=source, targets=targets, amount=effect.amount)
        elif kind == "boost":
            self._rec("boost", source=source, amount=effect.amount, gold=effect.source.gold_after)
        elif kind == "suppress":
            steps = [s for s in rules.steps if (effect.steps >> s) & 1]
            self._rec("suppress", source=source, targets=targets, steps=steps)
        elif kind == "schedule":
            self._rec("schedule", source=source, amount=effect.amount,
                      faction=rules.factions[effect.source.faction])
        elif kind == "stay":
            self._rec("stay", source=source, faction=rules.factions[effect.source.faction])
        elif kind == "nothing":
            data = {"source": source}
            if effect.reason == "condition":
                data["gold"] = effect.source.gold_after
            self._rec("nothing_" + effect.reason, **data)

    def _end_wave(self):
        self.wave_chars = []
        self._peaks()
        events = self.events
        if events is not None and not (events and events[-1].type == "wave_empty"):
            self._rec("power_track", power=self._power_dict())
        if self.check:
            self._check_power()
        if self.wave >= self.rules.waves:
            self._resolve_battle()
        else:
            self.phase = PLAY

    # ------------------------------------------------------------------ resolution phase

    def _resolve_battle(self):
        rules, n = self.rules, self.n
        events = self.events
        power = self.power
        best = max(power)
        winners = tuple(f for f, total in enumerate(power) if total == best)
        won = [False] * len(power)
        for f in winners:
            won[f] = True
            self.faction_wins[f] += 1
        self.battle_winners.append(winners)
        self.gold_after_conflict = list(self.gold)
        if events is not None:
            names = [rules.factions[f] for f in winners]
            self._rec("battle_tied" if len(winners) > 1 else "battle_won", factions=names,
                      power=self._power_dict())
        gained_influence = [0] * n
        gained_gold = [0] * n
        detail = [[] for _ in range(n)] if events is not None else None
        r_influence, r_consolation = rules.influence, rules.consolation
        for ch in self.chars:
            p = ch.owner
            if won[ch.faction]:
                amount = r_influence[ch.card]
                if ch.dead:
                    amount //= 2   # dead characters give half their influence, rounded down
                gained_influence[p] += amount
                if detail is not None:
                    detail[p].append({"character": ref(rules, ch), "influence": amount, "dead": ch.dead})
            else:
                amount = r_consolation[ch.card]
                gained_gold[p] += amount
                if detail is not None:
                    detail[p].append({"character": ref(rules, ch), "gold": amount, "dead": ch.dead})
        for p in range(n):
            self.influence[p] += gained_influence[p]
            self.gold[p] += gained_gold[p]
            if events is not None and detail[p]:
                self._rec("rewards", player=p, influence=gained_influence[p], gold=gained_gold[p],
                          total_influence=self.influence[p], total_gold=self.gold[p], detail=detail[p])
        # who stays: alive, its ability triggered, and its faction did not win
        discard = self.discard
        for ch in self.chars:
            if ch.stays > 0 and not ch.dead and not won[ch.faction]:
                ch.stays -= 1
                self.carry.append(ch)
                if events is not None:
                    self._rec("stays", character=ref(rules, ch))
            else:
                discard.append(ch.card)
        discard.extend(ch.card for ch in self.face_down)
        self.last_result = {"winners": winners, "power": list(power), "characters": self.chars + self.face_down}
        self.chars = []
        self.face_down = []
        self._peaks()
        if self.check:
            self._checkpoint("resolution")
        self.mark_progress()
        top = max(self.influence)
        if top >= self.goal:
            self._game_over(GOAL_REACHED)
        elif self.battle >= self.max_battles:
            self._game_over(BATTLE_LIMIT)
        else:
            self.phase = KEEP

    def _game_over(self, reason):
        top = max(self.influence)
        leaders = [p for p in range(self.n) if self.influence[p] == top]
        if len(leaders) > 1:
            richest = max(self.gold[p] for p in leaders)
            leaders = [p for p in leaders if self.gold[p] == richest]
            if reason == GOAL_REACHED:
                reason = GOLD_TIEBREAK if len(leaders) == 1 else TIE
        self.winner = leaders[0] if len(leaders) == 1 else None
        self.leaders = tuple(leaders)
        self.over_reason = reason
        self.phase = OVER
        if self.events is not None:
            reached = [p for p in range(self.n) if self.influence[p] >= self.goal]
            self._rec("game_over", players=reached, goal=self.goal, reason=reason)
            if self.winner is None:
                self._rec("no_winner", players=leaders, influence=top)
            else:
                self._rec("winner_gold" if reason == GOLD_TIEBREAK else "winner", player=self.winner,
                          influence=top, gold=self.gold[self.winner])

    def apply_keep(self, keeps):
        """Each seat keeps ``keeps[seat]`` from its hand; the rest is discarded; the next battle starts."""
        rules = self.rules
        for p in range(self.n):
            hand = self.hands[p]
            if not hand:
                continue
            card = keeps[p]
            if card not in hand:
                raise IllegalAction(f"seat {p} cannot keep card #{card}: not in its hand")
            hand.remove(card)
            self.discard.extend(hand)
            self.hands[p] = [card]
            if self.events is not None:
                self._rec("keep", player=p, card=rules.card_id(card))
        self._begin_battle()
        self.settle()

    # ------------------------------------------------------------------ bookkeeping

    def _power_dict(self) -> dict:
        return {f: self.power[i] for i, f in enumerate(self.rules.factions)}

    def _peaks(self):
        peak = self.peak
        gold = sum(self.gold)
        if gold > peak["gold"]:
            peak["gold"] = gold
        influence = sum(self.influence)
        if influence > peak["influence"]:
            peak["influence"] = influence
        if self.tok_dead > peak["dead"]:
            peak["dead"] = self.tok_dead
        if self.tok_converted > peak["converted"]:
            peak["converted"] = self.tok_converted
        if self.tok_plus > peak["plus"]:
            peak["plus"] = self.tok_plus

    def _rec(self, type_, **data):
        self.events.append(Event(type_, self.battle, self.wave, data))

    def _checkpoint(self, where):
        if self.check:
            for problem in check_state(self):
                self.violations.append(f"battle {self.battle}, wave {self.wave}, {where}: {problem}")

    def _check_power(self):
        totals = [0] * len(self.power)
        for ch in self.chars:
            totals[ch.faction] += ch.strength()
        if totals != self.power:
            self.violations.append(f"battle {self.battle}, wave {self.wave}: power track {self.power} "
                                   f"does not match the characters ({totals})")

    # ------------------------------------------------------------------ copies and hidden information

    def progress(self):
        """Influence: what the game is won by (lead changes and comebacks are counted on it)."""
        return self.influence

    def clone(self) -> "GameState":
        """An independent copy (characters copied once each, shared between the lists that hold
        them); it records no events, checks nothing and deals no battle by itself."""
        new = GameState.__new__(GameState)
        new.__dict__.update(self.__dict__)
        new.trace = None
        memo = {}

        def ch(c):
            copy = memo.get(c)
            if copy is None:
                copy = memo[c] = c.copy()
            return copy

        new._auto_chance = None
        new.events = None
        new.check = False
        new.violations = []
        new.gold, new.influence, new.power = self.gold[:], self.influence[:], self.power[:]
        new.hands = [h[:] for h in self.hands]
        new.played = [cards[:] for cards in self.played]
        new.pools = [pool[:] for pool in self.pools]
        new.deck, new.discard, new._dealt = self.deck[:], self.discard[:], self._dealt[:]
        # the battle's characters first (a character is in one of these lists, or in none)
        chars = [c.copy() for c in self.chars]
        new.chars = chars
        memo.update(zip(self.chars, chars))
        new.face_down = [c.copy() for c in self.face_down]
        new.carry = [ch(c) for c in self.carry] if self.carry else []
        new.wave_chars = [ch(c) for c in self.wave_chars] if self.wave_chars else []
        new.pending = [(wave, ch(source)) for wave, source in self.pending] if self.pending else []
        new.extra_pending = {p: ch(source) for p, source in self.extra_pending.items()} if self.extra_pending else {}
        new.last_factions = self.last_factions[:]
        new.faction_wins = self.faction_wins[:]
        new.battle_winners = self.battle_winners[:]
        new.peak = dict(self.peak)
        new._refused = set(self._refused)
        new._influence_seen = self._influence_seen[:]
        if self.last_result is not None and self.phase in (KEEP, OVER):
            # the last battle's result is read (scenarios) right after it, in phase keep or at the end;
            # later it is a stale record that nothing reads or changes, and the copy shares it
            memo.update(zip(self.face_down, new.face_down))
            new.last_result = dict(self.last_result, characters=[ch(c) for c in self.last_result["characters"]])
        return new

    def information_state(self, player: int) -> tuple:
        """What ``player`` knows: its own hand (and pool), everything on the table, everyone's gold,
        influence and hand size. Cards are named by kind, so copies of a card look alike."""
        return self.information_states((player,))[0]

    def information_states(self, players) -> list:
        """:meth:`information_state` of each of ``players``: what the table shows is worked out once."""
        kind = self.rules.kind
        table = (self.phase, self.battle, self.wave, self.draft_round,
                 tuple(self.gold), tuple(self.influence), tuple([len(h) for h in self.hands]),
                 tuple([(kind[c.card], c.owner, c.wave, c.faction, c.dead, c.bonus, c.boost, c.blocked)
                        for c in self.chars]),
                 tuple([(kind[c.card], c.owner, c.wave) for c in self.face_down]),
                 tuple(sorted(self.extra_pending)), tuple([(w, c.owner, c.wave) for w, c in self.pending]))
        drafting = self.phase == DRAFT
        return [(player, tuple(sorted([kind[c] for c in self.hands[player]])),
                 tuple(sorted([kind[c] for c in self.pools[player]])) if drafting else (), table)
                for player in players]

    def determinize(self, player: int, rng) -> "GameState":
        """A clone where the cards ``player`` cannot see (other hands and pools, the deck) are dealt
        again at random, each hand and pool keeping its size. (The seat is taken to have forgotten
        the cards that passed through its pool in earlier draft rounds.)"""
        new = self.clone()
        hidden = list(new.deck)
        others = [q for q in range(new.n) if q != player]
        for q in others:
            hidden.extend(new.hands[q])
            hidden.extend(new.pools[q])
        hidden.sort()       # from where the real game's hidden cards lie, nothing reaches the sample
        shuffle(hidden, rng.random)
        for q in others:
            size = len(new.hands[q])
            new.hands[q] = hidden[-size:] if size else []
            del hidden[len(hidden) - size:]
            size = len(new.pools[q])
            new.pools[q] = hidden[-size:] if size else []
            del hidden[len(hidden) - size:]
        new.deck = hidden
        return new

    def played_ids(self) -> list[set]:
        """Per seat, the ids of the cards it played as characters during the game."""
        card_id = self.rules.card_id
        return [{card_id(c) for c in cards} for cards in self.played]

    def all_cards(self) -> list[int]:
        """Every physical card in some zone: deck, pools, hands, battle, face down, carried, discard."""
        cards = list(self.deck)
        for pool in self.pools:
            cards.extend(pool)
        for hand in self.hands:
            cards.extend(hand)
        cards.extend(ch.card for ch in self.chars)
        cards.extend(ch.card for ch in self.face_down)
        cards.extend(ch.card for ch in self.carry)
        cards.extend(self.discard)
        cards.extend(self._dealt)
        return cards


def random_play(state, p, rng):
    hand = state.hands[p]
    rules = state.rules
    have = state.gold[p]
    last = state.last_factions[p]
    r_delta, r_faction = rules.delta, rules.faction
    affordable = [c for c in hand if have + r_delta[c] - ((last >> r_faction[c]) & 1) >= 0]
    choices = affordable or hand
    return choices[int(rng.random() * len(choices))]
