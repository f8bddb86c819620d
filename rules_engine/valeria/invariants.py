"""Invariants every Valeria state keeps; checked after every decision and chance event when ``check=True``.

* dice: bag + shrines + troop spaces + a battle's dice (+ a die waiting for room) hold exactly the dice
  of each type put in the bag at setup (45 less those returned to the box);
* tracks: gold and magic between 0 and the player's cap (13, or 20 once the 14 space is open),
  influence between its start and the cap and never lower than before, gems within storage, the gems
  of the players and the shrine add up to the setup's, scores never fall;
* conquest markers: per player, the markers off the board are on the map or on awards (one in hand
  between a battle's steps 6 and 7), and the awards' markers match;
* cards: every plan, champion and award is in exactly one place;
* limits: troop dice within troop spaces, champions within the limit, plans only in open slots.
"""

from __future__ import annotations

from collections import Counter

from rules_engine.valeria.phases import AREA


def check_state(state) -> list[str]:
    problems = []
    r = state.rules
    per_type = state.dice_per_type
    dice = state.all_dice()
    if dice != [per_type] * len(dice):
        problems.append(f"dice per type {dice}, expected {per_type} of each")
    gems = state.gem_supply + sum(pl.gems for pl in state.players)
    if gems != r.setup[state.n]["gems"]:
        problems.append(f"{gems} gems in play, expected {r.setup[state.n]['gems']}")
    last = getattr(state, "_last_tracks", None)
    tracks = []
    for p, pl in enumerate(state.players):
        who = f"seat {p}"
        if not 0 <= pl.gold <= pl.cap or not 0 <= pl.magic <= pl.cap:
            problems.append(f"{who}: gold {pl.gold} / magic {pl.magic} outside 0..{pl.cap}")
        if not r.start[0] <= pl.influence <= pl.cap:
            problems.append(f"{who}: influence {pl.influence} outside {r.start[0]}..{pl.cap}")
        if not 0 <= pl.gems <= pl.gem_cap:
            problems.append(f"{who}: {pl.gems} gems, storage {pl.gem_cap}")
        if len(pl.dice) > pl.spaces:
            problems.append(f"{who}: {len(pl.dice)} dice in {pl.spaces} troop spaces")
        if len(pl.champions) > pl.limit(r):
            problems.append(f"{who}: {len(pl.champions)} champions, limit {pl.limit(r)}")
        if any(card >= 0 and not open_ for card, open_ in zip(pl.reserved, pl.slot_open)):
            problems.append(f"{who}: a plan in a locked reserve slot")
        off = len(r.circles) - bin(pl.covered).count("1")
        placed = bin(pl.areas).count("1") + bin(pl.award_marks).count("1")
        in_hand = 1 if state.phase == AREA and p == state.cur else 0   # between a battle's steps 6 and 7
        if off != placed + in_hand:
            problems.append(f"{who}: {off} conquest markers off the board, {placed} placed")
        marks = sum(1 << slot for slot, seats in enumerate(state.award_markers) if p in seats)
        if marks != pl.award_marks:
            problems.append(f"{who}: award markers out of step")
        tracks.append((pl.influence, pl.score))
    if last is not None:
        for p, ((inf0, score0), (inf1, score1)) in enumerate(zip(last, tracks)):
            if inf1 < inf0 or score1 < score0:
                problems.append(f"seat {p}: influence or score went down ({inf0}->{inf1}, {score0}->{score1})")
    state._last_tracks = tracks
    problems += _cards(state)
    return problems


def _cards(state) -> list[str]:
    r = state.rules
    out = []
    plans = ([c for c in state.line if c >= 0] + state.plan_unseen + state.plan_known + state.adversary_plans
             + ([state.battle_plan] if state.battle_plan >= 0 else []))
    for pl in state.players:
        plans += [c for c in pl.reserved if c >= 0] + pl.completed
    if sorted(plans) != list(range(len(r.plan_kind))):
        out.append(_diff("plans", plans, len(r.plan_kind)))
    champions = [c for row in state.rows for c in row if c >= 0]
    for t in range(3):
        champions += state.champ_unseen[t] + state.champ_known[t]
    for pl in state.players:
        champions += pl.champions
    if sorted(champions) != list(range(len(r.champion_kind))):
        out.append(_diff("champions", champions, len(r.champion_kind)))
    awards = [c for c in state.awards if c >= 0] + [c for d in state.award_unseen for c in d]
    if state.solo:
        awards += [n for n, k in enumerate(r.award_kind) if k in r.solo_removed]
    if sorted(awards) != list(range(len(r.award_kind))):
        out.append(_diff("awards", awards, len(r.award_kind)))
    return out


def _diff(what, cards, total) -> str:
    counts = Counter(cards)
    twice = sorted(c for c, k in counts.items() if k > 1)
    missing = sorted(set(range(total)) - set(counts))
    return f"{len(cards)} {what} accounted for instead of {total}" + (f"; twice: {twice}" if twice else "") + \
        (f"; missing: {missing}" if missing else "")
