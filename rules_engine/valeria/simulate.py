"""Seeded simulation of many Valeria games: the report of ``pnp simulate`` and invariant checks.

Every game's seed comes from ``(seed, game index)`` alone and results are combined in game order, so a
report is the same whatever runs the games. A solo run also plays the same games against the
Adversary at each difficulty of :data:`DIFFICULTIES` and reports the player's win rate at each.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Callable, NamedTuple, Sequence

from rules_engine.core import play as core_play
from rules_engine.core import runs
from rules_engine.core.play import Engine
from rules_engine.core.stats import wilson
from rules_engine.valeria.bots import BOTS
from rules_engine.valeria.rules import TURN_LIMIT, Rules
from rules_engine.valeria.state import ENDINGS, OVER, GameState

#: Seats the engine plays: the solo game and 2 to 5 players.
PLAYERS = (1, 5)
#: The Adversary's starting scores a solo report compares (the source: 10 for beginners, 30 for experts).
DIFFICULTIES = (10, 30)
#: Score bins of the VP distribution.
SCORE_BIN = 10


def derive_seed(seed: int, index: int) -> int:
    return runs.derive_seed("valeria", seed, index)


seat_bots = runs.seat_bots


def new_state(rules: Rules, players: int, *, record: bool = False, check: bool = False,
              adversary_vp: int | None = None, turn_limit: int = TURN_LIMIT, end_plans: int | None = None) -> GameState:
    """A new game at its first chance event (the setup's draws); the play loop resolves it."""
    return GameState(rules, players, None, record=record, check=check, adversary_vp=adversary_vp,
                     turn_limit=turn_limit, end_plans=end_plans)


def fast_play(state: GameState, bots, rng) -> GameState:
    """The play loop without the core's generality (one seat decides at a time): the same game as the
    core loop (``tests/test_core.py`` compares them)."""
    chance = state.chance
    acts = [bot.act for bot in bots]      # bound once per game
    step = state.step
    decisions = core_play.start_record(state, state.n)
    while state.phase != OVER:
        if chance:
            state.sample_chance(rng)
            chance = state.chance
            continue
        p = state.cur
        decisions[p] += 1
        step(acts[p](state, p, rng))
        chance = state.chance
    return state


class GameResult(NamedTuple):
    """What a report needs from one game (small, so workers send it back cheaply)."""

    winners: tuple
    reason: str
    rounds: int
    turns: int
    scores: tuple
    adversary: int              # the Adversary's final score (solo), else 0
    plans: tuple                # completed plans per seat
    bought: tuple               # per seat: the champion ids gained, in order
    battles: int
    refills: int
    awards: int
    chains: int
    violations: tuple
    bots: tuple

    @property
    def length(self) -> int:
        return self.rounds

    @property
    def cards(self) -> tuple:
        return self.bought


def _result(state: GameState, bots) -> GameResult:
    r = state.rules
    st = state.stats
    return GameResult(tuple(state.winners), state.over_reason or "", state.round, state.turns,
                      tuple(state.scores or ()), state.adversary_score if state.solo else 0,
                      tuple(len(pl.completed) for pl in state.players),
                      tuple(tuple(r.champion_id(c) for c in b) for b in state.bought),
                      st["battles"], st["refills"], st["awards"], st["chains"], tuple(state.violations), tuple(bots))


def balance_figures(results, rules=None) -> dict:
    """Valeria's own figures for ``pnp balance``: what a game uses and how it goes."""
    mean = runs.mean
    n = len(results)
    components = {
        "battles per game": mean([r.battles for r in results]),
        "shrine refills per game": mean([r.refills for r in results]),
        "awards claimed per game": mean([r.awards for r in results]),
        "chain bonuses per game": mean([r.chains for r in results]),
        "turns per game": mean([r.turns for r in results]),
        "games ending at the turn limit": runs.share(sum(1 for r in results if r.reason == "turn_limit"), n),
    }
    return {"sides": [], "components": components}


#: What the core needs to play Valeria with bots.
def game_metrics(result: GameResult, rules=None) -> dict:
    """Valeria's own per-game metrics (``pnp lab``): the best score, battles fought."""
    return {"top_score": max(result.scores, default=0), "battles": result.battles}


ENGINE = Engine("valeria", new_state, _result, BOTS, PLAYERS, fast_play=fast_play, card_usage="owned",
                length_unit="rounds", figures=balance_figures, timeouts=("turn_limit",), progress="score",
                metrics=game_metrics,
                metric_labels={"top_score": ("best score", "count"), "battles": ("battles per game", "count")},
                headline=("win_seat_1", "top_score", "length"))


def play_game(rules: Rules, bots, seed, *, players: int | None = None, record: bool = False, check: bool = False,
              generic: bool = False, **options) -> GameState:
    """One whole game with the given bots (objects or names, one per seat); returns the final state."""
    return core_play.play_game(ENGINE, rules, bots, seed, players=players, record=record, check=check,
                               generic=generic, **options)


def recorded_game(rules: Rules, *, seed: int, players: int, bots: Sequence[str], check: bool = False, **options):
    """Game 0 of a run seeded with ``seed``, with events: ``(seat bot names, final state)``."""
    return core_play.recorded_game(ENGINE, rules, seed=seed, players=players, bots=bots, check=check, **options)


def run_games(rules: Rules, *, games: int, seed: int = 0, players: int = 4, bots: Sequence[str] = ("planner",),
              jobs: int = 1, check: bool = False, progress: Callable[[int], None] | None = None, chunk: int = 250,
              executor=None, **options) -> list[GameResult]:
    """Play ``games`` games and return one :class:`GameResult` per game, in game order."""
    return runs.run_games(ENGINE, rules, games=games, seed=seed, players=players, bots=bots, jobs=jobs, check=check,
                          progress=progress, chunk=chunk, executor=executor, options=options)


def _rate(wins, games) -> dict:
    low, high = wilson(wins, games)
    return {"wins": round(wins, 3), "games": games, "win_rate": runs.share(wins, games), "ci_low": low,
            "ci_high": high}


def summarize(results: Sequence[GameResult], *, players: int, seed: int, bots: Sequence[str], checked: bool = False,
              options: dict | None = None, difficulty: dict | None = None) -> dict:
    """The simulation report as plain data (what ``pnp simulate --json`` prints)."""
    games = len(results)
    mean, share, percentile = runs.mean, runs.share, runs.percentile
    seat_wins = Counter(p for r in results for p in r.winners)
    bot_seats, bot_wins = Counter(), defaultdict(float)
    for r in results:
        bot_seats.update(r.bots)
        for p in r.winners:
            bot_wins[r.bots[p]] += 1 / len(r.winners)
    rounds = [r.rounds for r in results]
    scores = [s for r in results for s in r.scores]
    winner_scores = [r.scores[r.winners[0]] for r in results if r.winners]
    bins = Counter(s // SCORE_BIN * SCORE_BIN for s in scores)
    # champions: how often each is gained, and the win rate of the seats that gained it
    owners, owner_wins, gained = Counter(), defaultdict(float), Counter()
    total_wins = 0.0
    for r in results:
        credit = 1 / len(r.winners) if r.winners else 0.0
        total_wins += credit * len(r.winners)
        for seat, ids in enumerate(r.bought):
            gained.update(ids)
            for cid in set(ids):
                owners[cid] += 1
                if seat in r.winners:
                    owner_wins[cid] += credit
    seat_games = games * players
    champions = {}
    for cid in sorted(owners, key=lambda c: (-owners[c], c)):
        n = owners[cid]
        rest_n, rest_wins = seat_games - n, total_wins - owner_wins[cid]
        champions[cid] = {"gained_per_game": round(gained[cid] / games, 3), "seats": n,
                          **_rate(owner_wins[cid], n),
                          "without": {"seats": rest_n, "win_rate": share(rest_wins, rest_n)}}
    broken = [f"game {i}: {v}" for i, r in enumerate(results) for v in r.violations]
    report = {
        "games": games,
        "players": players,
        "seed": seed,
        "bots": list(bots),
        "options": dict(sorted((options or {}).items())),
        "wins_by_seat": {str(s + 1): seat_wins.get(s, 0) for s in range(players)},
        "shared_victories": sum(1 for r in results if len(r.winners) > 1),
        "wins_by_bot": {name: {"seats": bot_seats[name], "share_of_wins": round(bot_wins.get(name, 0.0), 3),
                               "win_rate": share(bot_wins.get(name, 0.0), bot_seats[name])}
                        for name in dict.fromkeys(bots)},
        "rounds": {"mean": mean(rounds), "min": min(rounds, default=0), "median": percentile(rounds, 0.5),
                   "p90": percentile(rounds, 0.9), "max": max(rounds, default=0)},
        "endings": {reason: sum(1 for r in results if r.reason == reason) for reason in ENDINGS},
        "scores": {"mean": mean(scores), "min": min(scores, default=0), "max": max(scores, default=0),
                   "winner_mean": mean(winner_scores),
                   "distribution": {f"{b}-{b + SCORE_BIN - 1}": bins[b] for b in sorted(bins)}},
        "per_game": {"battles": mean([r.battles for r in results]), "refills": mean([r.refills for r in results]),
                     "awards": mean([r.awards for r in results]), "chain_bonuses": mean([r.chains for r in results]),
                     "turns": mean([r.turns for r in results])},
        "plans_per_seat": mean([p for r in results for p in r.plans]),
        "champions": champions,
        "invariants": {"checked": checked, "broken": len(broken), "examples": broken[:10]},
    }
    if players == 1:
        report["solo"] = {"win_rate": share(seat_wins.get(0, 0), games),
                          "adversary_mean": mean([r.adversary for r in results]),
                          "difficulty": difficulty or {}}
    return report


def simulate(rules: Rules, *, games: int, seed: int = 0, players: int = 4, bots: Sequence[str] = ("planner",),
             jobs: int = 1, check: bool = False, progress=None, executor=None, **options) -> dict:
    """Run games and summarize them; a solo run also plays them at each difficulty of
    :data:`DIFFICULTIES` (the Adversary's starting score)."""
    results = run_games(rules, games=games, seed=seed, players=players, bots=bots, jobs=jobs, check=check,
                        progress=progress, executor=executor, **options)
    difficulty = None
    if players == 1:
        difficulty = {}
        chosen = options.get("adversary_vp")
        for vp in sorted(set(DIFFICULTIES) | ({chosen} if chosen is not None else set())):
            if vp == (chosen if chosen is not None else rules.solo_start_score):
                part = results
            else:
                part = run_games(rules, games=games, seed=seed, players=1, bots=bots, jobs=jobs, check=check,
                                 executor=executor, **{**options, "adversary_vp": vp})
            wins = sum(1 for r in part if r.winners)
            difficulty[str(vp)] = _rate(wins, len(part))
    return summarize(results, players=players, seed=seed, bots=bots, checked=check, options=options,
                     difficulty=difficulty)


def report_lines(report: dict, *, title: str, cards=(), factions=()) -> list[str]:
    """The simulation report as English lines."""
    games = report["games"]
    names = {c.id: c.name for c in cards}

    def pct(x):
        return f"{100 * x:.1f}%"

    lines = [f"{title}: {games} games, {report['players']} player{'s' if report['players'] > 1 else ''}, "
             f"seed {report['seed']}, bots {', '.join(report['bots'])}"
             + (f", options {report['options']}" if report["options"] else "")]
    if report["players"] > 1:
        seats = ", ".join(f"seat {s} {n} ({pct(n / games) if games else '-'})"
                          for s, n in report["wins_by_seat"].items())
        lines.append(f"Wins by seat (a shared victory counts for each winner): {seats}; shared victories "
                     f"{report['shared_victories']}")
        lines.append("Wins by bot: " + ", ".join(f"{b} {pct(v['win_rate'])} of its seats"
                                                  for b, v in report["wins_by_bot"].items()))
    else:
        solo = report["solo"]
        lines.append(f"Solo: the player beats the Adversary in {pct(solo['win_rate'])} of games "
                     f"(the Adversary's mean final score {solo['adversary_mean']:.1f})")
        lines.append("By difficulty (the Adversary's starting VP): " + ", ".join(
            f"{vp}: {pct(v['win_rate'])} [{pct(v['ci_low'])}-{pct(v['ci_high'])}]"
            for vp, v in solo["difficulty"].items()))
    r = report["rounds"]
    lines.append(f"Rounds per game: mean {r['mean']:.1f} (min {r['min']}, median {r['median']}, "
                 f"90th percentile {r['p90']}, max {r['max']})")
    endings = {"plans": "a seventh plan", "adversary_plans": "the Adversary's seventh plan",
               "turn_limit": "turn limit"}
    lines.append("Endings: " + ", ".join(f"{endings[k]} {v}" for k, v in report["endings"].items() if v or k == "plans"))
    s = report["scores"]
    lines.append(f"Scores: mean {s['mean']:.1f} (min {s['min']}, max {s['max']}), winners' mean "
                 f"{s['winner_mean']:.1f}; distribution " + ", ".join(f"{k}: {v}" for k, v in s["distribution"].items()))
    g = report["per_game"]
    lines.append(f"Per game: {g['battles']:.1f} battles, {g['refills']:.1f} shrine refills, {g['awards']:.1f} awards "
                 f"claimed, {g['chain_bonuses']:.1f} chain bonuses; {report['plans_per_seat']:.2f} plans per seat")
    champions = report["champions"]
    if champions:
        top = list(champions.items())[:8]
        lines.append("Champions gained most (per game; win rate of their owners vs the others): " + ", ".join(
            f"{names.get(c, c)} {v['gained_per_game']:.2f} ({pct(v['win_rate'])} vs {pct(v['without']['win_rate'])})"
            for c, v in top))
        ranked = sorted(((v["win_rate"] - v["without"]["win_rate"], c) for c, v in champions.items()
                         if v["seats"] >= max(20, games // 50)), reverse=True)
        if ranked:
            lines.append("Highest win correlation: " + ", ".join(f"{names.get(c, c)} {100 * d:+.1f} points"
                                                                for d, c in ranked[:5]))
            lines.append("Lowest win correlation: " + ", ".join(f"{names.get(c, c)} {100 * d:+.1f} points"
                                                               for d, c in ranked[-5:][::-1]))
    lines.append(runs.invariant_line(report["invariants"]))
    return lines
