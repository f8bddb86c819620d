"""``pnp lab GAME compare | ablate | tune | ladder``: the designer's balance questions, each answered with
paired 95 % intervals on common random numbers, in report.json, report.html and plain verdicts.

Every question is a sweep (:mod:`pnp.lab.sweep`): variants x seeds, on ``--jobs N`` or a Dask cluster,
cached per variant and batch of games, so an interrupted run resumes and a longer one plays only the new
games. The numbers come from :mod:`pnp.lab.analysis`; the pages from :mod:`pnp.lab.report`.
"""

from __future__ import annotations

import json
import math
import re
import sys
from dataclasses import replace
from pathlib import Path

import click

from pnp.commands.balance import _write, report_json
from pnp.commands.simulate import executor_options, make_executor
from pnp.lab.table import bot_list, player_counts
from pnp.errors import UserError
from pnp.loading.paths import excerpt

#: report.json format version of the lab's reports.
VERSION = 1

#: Metrics the terminal shows besides the engine's headline ones.
EXPERIENCE = ("length", "decided", "lead_changes", "comeback", "stalls", "timeout")

#: Most values a tuning run may try in its first grid (the product of the values of each ``--param``).
MAX_TUNE_VALUES = 1_000
#: Most games per variant a lab question may ask for.
MAX_GAMES = 1_000_000


class Lab:
    """What every lab command needs: the game, its engine, the table, where games run and go."""

    def __init__(self, game_name, players_text, bots, games, seed, jobs, executor, scheduler, workers, out, cache,
                 no_cache):
        from pnp.loading.gamedata import load_game
        from rules_engine.core.contract import engine_named

        self.game = load_game(game_name)
        if not self.game.engine:
            raise UserError(f"{self.game.title} has no rules engine to play")
        self.engine = engine_named(self.game.engine)
        self.bots = bot_list(bots, self.engine.BOTS) if bots is not None else list(self.engine.DEFAULT_BOTS)
        counts = player_counts(players_text, self.game.players, self.engine.PLAYERS, self.game.title)
        if len(counts) != 1:
            raise UserError("--players: a lab question is asked for one player count")
        self.players = counts[0]
        self.games, self.seed = games, seed
        self.executor = make_executor(executor, scheduler, workers, jobs)
        self.where = f"--scheduler {scheduler}" if scheduler else f"--executor {executor or 'local'}"
        self.out = Path(out)
        self.cache = None if no_cache else Path(cache) if cache else self.out / "cache"
        if self.cache is not None:              # a folder of the user's files is refused (pnp.cache.cachedir)
            from pnp.lab.sweep import claim

            claim(self.cache, "--cache" if cache else None)

    def variant(self, path):
        from pnp.loading.variants import BASE, load_variant

        if path in ("base", "-"):
            return BASE
        return load_variant(path, self.game, self.engine, self.players)

    def sweep(self, bots=None):
        from pnp.lab.sweep import Sweep

        return Sweep(self.engine, self.game, players=self.players, bots=bots or self.bots, seed=self.seed,
                     executor=self.executor, cache=self.cache)

    def play(self, sweep, arms, games=None):
        """Run a sweep's arms with a progress bar (games, variants, time left); Ctrl-C keeps what is done."""
        games = games or self.games
        todo = sum(len(t) for t in sweep.todo(arms, games))
        variants = len({a.key for a in arms})
        label = f"Playing {todo} games of {variants} variant{'s' * (variants != 1)}"
        show = sys.stderr.isatty() and todo > 0
        try:
            if show:
                with click.progressbar(length=todo, label=label, file=sys.stderr, show_eta=True,
                                       item_show_func=lambda v: v) as bar:
                    return sweep.run_arms(arms, games, lambda n, name: bar.update(n, name))
            return sweep.run_arms(arms, games)
        except KeyboardInterrupt:
            kept = f"; the games played so far are kept in {self.cache}" if self.cache else ""
            click.echo(f"pnp lab: interrupted{kept}", err=True)
            sys.exit(130)
        except (OSError, RuntimeError, TimeoutError) as exc:
            raise UserError(f"{self.where}: {exc}") from None

    def catalog(self, rules, *row_lists):
        from pnp.lab.analysis import endings
        from rules_engine.core.metrics import catalog

        return catalog(self.engine.ENGINE, rules, self.players, self.bots, endings(*row_lists))

    def headline(self, rules) -> list[str]:
        h = self.engine.ENGINE.headline
        return list(h(rules) if callable(h) else h)

    def metrics(self, names, catalog, rules) -> list[str]:
        """``--metric`` ids checked against the catalog (the closest one suggested); default: the engine's
        headline metrics."""
        from pnp.suggest import closest

        chosen = list(names) or [m for m in self.headline(rules) if m in catalog] or ["length"]
        for m in chosen:
            if m not in catalog:
                close = closest(m, catalog)
                hint = f" (did you mean '{close}'?)" if close else ""
                raise UserError(f"--metric: no metric '{m}'{hint}; metrics: {', '.join(catalog)}")
        return chosen

    def replay_command(self, game, variant_path=None) -> str:
        bots = ",".join(game["bots"])
        extra = f" --variant {variant_path}" if variant_path else ""
        return (f"pnp replay {self.game.id} --seed {game['seed']} --players {self.players} --bots {bots}"
                f"{extra}")

    def header(self, kind: str) -> dict:
        return {"version": VERSION, "kind": kind, "game": self.game.id, "engine": self.engine.ENGINE.name,
                "games": self.games, "seed": self.seed, "players": self.players, "bots": list(self.bots)}

    def write(self, report: dict, page: str) -> None:
        try:
            self.out.mkdir(parents=True, exist_ok=True)
            _write(self.out / "report.json", report_json(report))
            _write(self.out / "report.html", page.encode())
        except OSError as exc:
            raise UserError(f"--out {self.out}: cannot write the report: {exc.strerror or exc}") from None

    def wrote(self) -> None:
        click.echo(f"Wrote {self.out / 'report.json'} and {self.out / 'report.html'}")

    def write_variant(self, variant, slug: str) -> str:
        """A variant the lab made, as a file next to the report (so its games can be replayed)."""
        import yaml

        folder = self.out / "variants"
        folder.mkdir(parents=True, exist_ok=True)
        data = {"name": variant.name, "game": self.game.id}
        if variant.parameters:
            data["parameters"] = dict(variant.parameters)
        cards = {c: "remove" for c in variant.remove}
        cards.update({c: dict(ch) for c, ch in variant.changes.items()})
        if cards:
            data["cards"] = cards
        path = folder / f"{slug}.yaml"
        _write(path, ("# made by pnp lab\n" + yaml.safe_dump(data, sort_keys=False, allow_unicode=True)).encode())
        variant_path = str(path)
        return variant_path


def common(command):
    """The options every lab question takes."""
    options = [
        click.option("--players", "players_text", default=None, metavar="N",
                     help="Players per game. [default: 4, within the game's player range]"),
        click.option("--bots", default=None, help="Comma-separated bots, rotated around the table. [default: the "
                                                  "engine's default bots]"),
        click.option("--games", type=click.IntRange(min=2, max=MAX_GAMES), default=400, show_default=True,
                     help="Games per variant (the same seeds for every variant)."),
        click.option("--seed", type=int, default=0, show_default=True, help="Seed of the games."),
        click.option("--out", "out_dir", type=click.Path(file_okay=False), default="output/lab", show_default=True,
                     help="Folder report.json and report.html are written to."),
        click.option("--cache", "cache_dir", type=click.Path(file_okay=False), default=None,
                     help="Folder of the games already played, per variant and batch. [default: OUT/cache]"),
        click.option("--no-cache", is_flag=True, help="Play every game again and store nothing."),
    ]
    command = executor_options(command)
    for option in reversed(options):
        command = option(command)
    return command


def _lab(game, players_text, bots, games, seed, jobs, executor, scheduler, workers, out_dir, cache_dir, no_cache):
    try:
        import pnp.lab.report  # noqa: F401  (matplotlib)
    except ImportError:
        raise UserError("pnp lab draws its charts with matplotlib: pip install 'pnp[balance]'") from None
    return Lab(game, players_text, bots, games, seed, jobs, executor, scheduler, workers, out_dir, cache_dir, no_cache)


@click.group("lab")
@click.argument("game")
@click.pass_context
def command(ctx, game):
    """Ask GAME a balance question and get an honest answer: every variant plays the same seeded games
    (common random numbers), and every difference comes with its paired 95% interval.

    \b
      pnp lab GAME compare BASE.yaml VARIANT.yaml ...   variants against a base
      pnp lab GAME ablate --each card [--change remove | copies=-1 | FIELD=+1]
      pnp lab GAME tune --param NAME=LO..HI --target METRIC=LO..HI
      pnp lab GAME ladder [--rungs random,greedy,search:25,...]

    A variant file is a small YAML overlay of the game's data (docs/engine.md, "Balance lab"); 'base'
    stands for the game as its data says. Games are cached in OUT/cache, so an interrupted question
    resumes and a larger --games plays only the new games.
    """
    ctx.obj = game


# ---------------------------------------------------------------------------------------------- compare

@command.command("compare")
@click.argument("variant_files", nargs=-1, required=True, metavar="BASE VARIANT...")
@click.option("--metric", "metric_names", multiple=True, help="A metric to give verdicts on (repeatable). "
                                                               "[default: the game's headline metrics]")
@common
@click.pass_obj
def compare(game, variant_files, metric_names, players_text, bots, games, seed, out_dir, cache_dir, no_cache, jobs,
            executor, scheduler, workers):
    """Compare variants with a base on the same games. BASE VARIANT... are variant files, the first the
    base ('base' stands for the game as its data says)."""
    from pnp.lab import analysis
    from pnp.lab.report import compare_html

    if len(variant_files) < 2:
        raise UserError("compare: give a base and at least one variant (the word 'base' for the game as it is)")
    lab = _lab(game, players_text, bots, games, seed, jobs, executor, scheduler, workers, out_dir, cache_dir, no_cache)
    variants = [lab.variant(p) for p in variant_files]
    sweep = lab.sweep()
    arms = [sweep.arm(v) for v in variants]
    rows = lab.play(sweep, arms)
    catalog = lab.catalog(arms[0].rules, *rows)
    shown = lab.metrics(metric_names, catalog, arms[0].rules)
    shown += [m for m in EXPERIENCE if m in catalog and m not in shown]
    base_rows = rows[0]
    report = lab.header("compare")
    report.update({"metrics": catalog, "shown": shown, "comparisons": (len(variants) - 1) * len(shown),
                   "base": {"name": variants[0].name, "changes": variants[0].describe(), "file": variant_files[0],
                            "means": analysis.means(base_rows, catalog)}})
    out = []
    for variant, path, variant_rows in zip(variants[1:], variant_files[1:], rows[1:]):
        effects = analysis.effects(base_rows, variant_rows, catalog)
        games_ = analysis.linked_games(base_rows, variant_rows, shown[0])
        for g in games_.values():
            g["replay"] = lab.replay_command(g, None if variant.is_base else path)
        out.append({"name": variant.name, "file": path, "changes": variant.describe(), "content": variant.content(),
                    "means": analysis.means(variant_rows, catalog), "effects": effects, "games": games_})
    analysis.adjust([r["effects"] for r in out], shown)
    family = report["comparisons"]
    for r in out:
        r["verdicts"] = [analysis.verdict(catalog[m], r["effects"][m]["paired"], family) for m in shown]
    report["variants"] = out
    lab.write(report, compare_html(report, lab.game.title))
    click.echo(f"{lab.game.title}: {len(out)} variant{'s' * (len(out) != 1)} against {variants[0].name}, "
               f"{games} games each on the same seeds (seed {seed}), {lab.players} players, bots "
               f"{', '.join(lab.bots)}; paired 95% intervals, Holm over {family} comparisons")
    for r in out:
        click.echo(f"{r['name']} ({r['changes']}):")
        for line in r["verdicts"]:
            click.echo(f"  {line}")
    lab.wrote()


# ---------------------------------------------------------------------------------------------- ablate

_CHANGE = re.compile(r"^\s*(remove|([a-z_][a-z0-9_]*)\s*=\s*([+-]\d{1,6}))\s*$")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60] or "variant"


def _ablation(card, change, base, deck=None):
    """The variant that applies ``change`` to ``card`` on top of ``base``, or None when the card has no
    such value or the change leaves the range its deck allows. ``change``: ``remove`` or ``(key, delta)``."""
    from pnp.loading.variants import Variant

    if change == "remove":
        return replace(base, name=f"{card.id} removed", remove=tuple(sorted(set(base.remove) | {card.id})), path=None)
    key, delta = change
    current = card.copies if key == "copies" else card.stats.get(key)
    if isinstance(current, bool) or not isinstance(current, int):
        return None
    new = current + delta
    if key == "copies" and new < 1:
        return replace(base, name=f"{card.id} removed ({key}{delta:+d})",
                       remove=tuple(sorted(set(base.remove) | {card.id})), path=None)
    spec = deck.field(key).schema_field() if deck is not None and deck.field(key) is not None else None
    if spec is not None and (spec.min is not None and new < spec.min or spec.max is not None and new > spec.max):
        return None
    if key == "copies" and new > 99:
        return None
    changes = {**base.changes, card.id: {**base.changes.get(card.id, {}), key: new}}
    return Variant(name=f"{card.id} {key}{delta:+d}", parameters=base.parameters, remove=base.remove,
                   changes=changes, add=base.add)


@command.command("ablate")
@click.option("--each", type=click.Choice(["card"]), default="card", show_default=True,
              help="What each variant changes one of.")
@click.option("--change", "change_text", default="remove", show_default=True,
              help="What is done to each: remove, copies=-1, or a numeric field changed, e.g. cost=+1.")
@click.option("--deck", "deck_ids", multiple=True, help="Only the cards of this deck (repeatable).")
@click.option("--base", "base_file", default=None, help="A variant file the changes are made on. [default: the game "
                                                        "as its data says]")
@click.option("--metric", "metric_names", multiple=True, help="A metric to measure (repeatable); the first sorts "
                                                               "the rows. [default: the game's headline metrics]")
@common
@click.pass_obj
def ablate(game, each, change_text, deck_ids, base_file, metric_names, players_text, bots, games, seed, out_dir,
           cache_dir, no_cache, jobs, executor, scheduler, workers):
    """One variant per card (removed, or one of its values changed), all paired against the base on the
    same games and played as one sweep; the effects are sorted, corrected for the number of comparisons
    (Holm) and drawn as a forest plot."""
    from pnp.lab import analysis
    from pnp.lab.report import ablate_html
    from pnp.loading.variants import BASE, refusals

    match = _CHANGE.match(change_text)
    if not match:
        raise UserError(f"--change: expected remove, copies=-1 or FIELD=+N (e.g. cost=+1), got {excerpt(change_text)}")
    change = "remove" if match.group(1) == "remove" else (match.group(2), int(match.group(3)))
    lab = _lab(game, players_text, bots, games, seed, jobs, executor, scheduler, workers, out_dir, cache_dir, no_cache)
    base = lab.variant(base_file) if base_file else BASE
    decks = {d.id for d in lab.game.decks}
    for d in deck_ids:
        if d not in decks:
            raise UserError(f"--deck: {lab.game.title} has no deck '{d}'; decks: {', '.join(sorted(decks))}")
    cards = [c for c in lab.game.cards if not deck_ids or c.deck in deck_ids]
    cards = [c for c in cards if c.id not in base.remove]
    if change != "remove" and change[0] != "copies":
        fields = {f.name for d in lab.game.decks for f in d.fields}
        if change[0] not in fields:
            raise UserError(f"--change: no card field '{change[0]}'; numeric fields: "
                            f"{', '.join(sorted(f.name for d in lab.game.decks for f in d.fields if f.type == 'int'))}")
    variants, skipped, refused = [], [], []
    for card in cards:
        v = _ablation(card, change, base, lab.game.deck_of(card))
        if v is None:
            skipped.append(card.id)
            continue
        reasons = refusals(v, lab.game, lab.engine, lab.players)     # the checks of a variant file
        if reasons:
            refused.append({"card": card.id, "name": v.name, "reason": reasons[0]})
        else:
            variants.append((card, v))
    if not variants and refused:
        raise UserError(f"--change {change_text}: the rules engine refuses every variant at {lab.players} players "
                        f"({len(refused)}), e.g. {refused[0]['name']}: {refused[0]['reason']}")
    if not variants:
        raise UserError(f"--change {change_text}: no card has that value to change")
    sweep = lab.sweep()
    arms = [sweep.arm(base)] + [sweep.arm(v) for _, v in variants]
    rows = lab.play(sweep, arms)
    catalog = lab.catalog(arms[0].rules, *rows)
    shown = lab.metrics(metric_names, catalog, arms[0].rules)
    base_rows = rows[0]
    out = []
    for (card, variant), variant_rows in zip(variants, rows[1:]):
        path = lab.write_variant(variant, _slug(variant.name))
        linked = analysis.linked_games(base_rows, variant_rows, shown[0])
        for g in linked.values():
            g["replay"] = lab.replay_command(g, path)
        out.append({"card": card.id, "name": card.name, "changes": variant.describe(), "file": path,
                    "effects": analysis.effects(base_rows, variant_rows, shown), "games": linked})
    analysis.adjust([r["effects"] for r in out], shown)
    first = shown[0]
    out.sort(key=lambda r: (-r["effects"][first]["paired"]["diff"], r["card"]))
    family = len(out) * len(shown)
    for r in out:
        r["verdicts"] = [analysis.verdict(catalog[m], r["effects"][m]["paired"], family) for m in shown]
    report = lab.header("ablate")
    report.update({"metrics": {m: catalog[m] for m in shown}, "shown": shown, "comparisons": family,
                   "change": change_text, "each": each,
                   "base": {"name": base.name, "changes": base.describe(),
                            "means": analysis.means(base_rows, {m: catalog[m] for m in shown})},
                   "rows": out, "skipped": skipped, "refused": refused})
    lab.write(report, ablate_html(report, lab.game.title))
    info = catalog[first]
    click.echo(f"{lab.game.title}: {len(out)} cards, {change_text} each, {games} games per variant on the same seeds; "
               f"sorted by {info['label']}, Holm over {family} comparisons")
    for r in out:
        click.echo(f"  {r['name']}: {r['verdicts'][0]}")
    if skipped:
        click.echo(f"Not changed (no such value, or it would leave its range): {', '.join(skipped)}")
    for r in refused:
        click.echo(f"Refused by the rules engine, not played: {r['name']}: {r['reason']}")
    lab.wrote()


# ---------------------------------------------------------------------------------------------- tune

#: ``NAME=LO..HI``: each bound a plain decimal number of at most 15 digits before and after its point (a
#: percentage for a rate), so ``1.2.3..5`` or a thousand-digit bound is refused, not converted.
_NUMBER = r"(-?(?:\d{1,15}(?:\.\d{0,15})?|\.\d{1,15})%?)"
_RANGE = re.compile(rf"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*{_NUMBER}\s*\.\.\s*{_NUMBER}\s*$")


def _number(text: str, rate: bool) -> float:
    value = float(text.rstrip("%"))
    return value / 100 if text.endswith("%") or (rate and value > 1) else value


def _grid(low: int, high: int, points: int) -> list[int]:
    if high - low + 1 <= points:
        return list(range(low, high + 1))
    return sorted({round(low + (high - low) * i / (points - 1)) for i in range(points)})


@command.command("tune")
@click.option("--param", "param_texts", multiple=True, required=True, metavar="NAME=LO..HI",
              help="An engine parameter and the range searched (repeatable: a grid of every combination).")
@click.option("--target", "target_texts", multiple=True, required=True, metavar="METRIC=LO..HI",
              help="The band a metric must reach (rates as 0.45..0.55 or 45%..55%; repeatable: all must hold).")
@click.option("--grid", "points", type=click.IntRange(min=2, max=50), default=5, show_default=True,
              help="Values tried first in each range.")
@click.option("--rounds", type=click.IntRange(min=0, max=10), default=3, show_default=True,
              help="Refinements between neighbouring values where a metric crosses its band (one parameter).")
@click.option("--base", "base_file", default=None, help="A variant file the parameters are set on.")
@common
@click.pass_obj
def tune(game, param_texts, target_texts, points, rounds, base_file, players_text, bots, games, seed, out_dir,
         cache_dir, no_cache, jobs, executor, scheduler, workers):
    """Search engine parameters for values that bring metrics into a target band: a small grid, refined
    where a metric crosses the band, every value played on the same seeds; reports the values that meet
    the target with their intervals, or that none does."""
    from itertools import product

    from pnp.lab import analysis
    from pnp.lab.report import tune_html
    from pnp.loading.variants import BASE, check_parameters, table_refusal

    lab = _lab(game, players_text, bots, games, seed, jobs, executor, scheduler, workers, out_dir, cache_dir, no_cache)
    base = lab.variant(base_file) if base_file else BASE
    options = getattr(lab.engine, "OPTIONS", {})
    params = []
    for text in param_texts:
        m = _RANGE.match(text)
        if not m:
            raise UserError(f"--param: expected NAME=LO..HI (e.g. goal=10..20), got {excerpt(text)}")
        name = m.group(1)
        spec = options.get(name)
        if spec is None:
            from pnp.suggest import closest
            close = closest(name, options)
            raise UserError(f"--param: {lab.game.title} has no parameter '{name}'"
                            f"{f' (did you mean {close!r}?)' if close else ''}; parameters: "
                            f"{', '.join(options) or 'none'}")
        if spec.type != "int":
            raise UserError(f"--param {name}: only whole-number parameters are tuned ({name} is {spec.type}); "
                            f"compare its values with variant files")
        if any(p["name"] == name for p in params):
            raise UserError(f"--param {name}: given twice; give each parameter once")
        values = [float(t.rstrip("%")) for t in m.group(2, 3)]
        if any(v != int(v) or t.endswith("%") for v, t in zip(values, m.group(2, 3))):
            raise UserError(f"--param {name}: {name} takes whole numbers, got {m.group(2)}..{m.group(3)}")
        low, high = (int(v) for v in values)
        if low > high:
            raise UserError(f"--param {name}: the range {low}..{high} is empty; write the smaller value first")
        from pnp.errors import DataError, Problems
        problems = Problems()
        check_parameters({name: low}, options, problems, None, lambda k: None, where="--param")
        check_parameters({name: high}, options, problems, None, lambda k: None, where="--param")
        if problems:
            raise UserError(str(problems[0]).lstrip(": "))
        params.append({"name": name, "low": low, "high": high})
    sweep = lab.sweep()
    base_arm = sweep.arm(base)
    targets = []
    catalog0 = lab.catalog(base_arm.rules)
    for text in target_texts:
        m = _RANGE.match(text)
        if not m:
            raise UserError(f"--target: expected METRIC=LO..HI (e.g. win_seat_1=0.45..0.55), got {excerpt(text)}")
        targets.append({"metric": m.group(1), "text": text})
    names = [p["name"] for p in params]

    def variant_for(values):
        label = ", ".join(f"{k}={v}" for k, v in zip(names, values))
        return base.with_parameters(name=label, **dict(zip(names, values)))

    points_done = {}
    grids = [_grid(p["low"], p["high"], points) for p in params]
    size = math.prod(len(g) for g in grids)
    if size > MAX_TUNE_VALUES:
        raise UserError(f"--param: a grid of {size:,} values ({' x '.join(str(len(g)) for g in grids)}) is more "
                        f"than a tuning run tries ({MAX_TUNE_VALUES:,}); tune fewer parameters at once or give a "
                        f"smaller --grid")
    todo = list(product(*grids))
    catalog = None
    refused = {}                       # values -> why the engine refuses them (reported, not played)
    for round_ in range(rounds + 1):
        todo = [v for v in todo if v not in points_done and v not in refused]
        for values in todo:
            why = table_refusal(lab.engine, base_arm.rules, lab.players, variant_for(values).parameters,
                                lab.game.engine)
            if why:
                refused[values] = why
        todo = [v for v in todo if v not in refused]
        if not todo:
            break
        arms = [sweep.arm(variant_for(v)) for v in todo]
        results = lab.play(sweep, arms)
        catalog = lab.catalog(base_arm.rules, *results, *[points_done[k]["rows"] for k in points_done])
        if round_ == 0:
            for t in targets:
                if t["metric"] not in catalog:
                    from pnp.suggest import closest
                    close = closest(t["metric"], catalog)
                    raise UserError(f"--target: no metric '{t['metric']}'"
                                    f"{f' (did you mean {close!r}?)' if close else ''}; metrics: "
                                    f"{', '.join(catalog)}")
                m = _RANGE.match(t["text"])
                rate = catalog[t["metric"]]["kind"] == "rate"
                t["low"], t["high"] = _number(m.group(2), rate), _number(m.group(3), rate)
                if t["low"] > t["high"]:
                    raise UserError(f"--target {t['metric']}: the band is empty; write the smaller value first")
        for values, rows in zip(todo, results):
            means = analysis.means(rows, {t["metric"]: catalog[t["metric"]] for t in targets})
            points_done[values] = {"rows": rows, "means": means, "meets": _meets(means, targets)}
        if len(params) != 1:
            break
        todo = _refine(sorted(points_done), points_done, targets)
    if catalog is None:
        values, why = next(iter(refused.items()))
        raise UserError(f"--param: the rules engine refuses every value tried at {lab.players} players, e.g. "
                        f"{', '.join(f'{k}={v}' for k, v in zip(names, values))}: {why}")
    catalog = {t["metric"]: catalog[t["metric"]] for t in targets}
    points_out = []
    for values in sorted(points_done):
        p = points_done[values]
        points_out.append({"values": dict(zip(names, values)), "means": p["means"], "meets": p["meets"]})
    report = lab.header("tune")
    report.update({"parameters": params, "targets": [{k: t[k] for k in ("metric", "low", "high")} for t in targets],
                   "base": {"name": base.name, "changes": base.describe()}, "metrics": catalog,
                   "points": points_out,
                   "refused": [{"values": dict(zip(names, v)), "reason": why} for v, why in sorted(refused.items())]})
    report["verdicts"] = _tune_verdicts(points_out, targets, catalog, names)
    lab.write(report, tune_html(report, lab.game.title))
    ranges = ", ".join(f"{p['name']} in {p['low']}..{p['high']}" for p in params)
    click.echo(f"{lab.game.title}: {ranges}, {len(points_out)} values, {games} games each on the same seeds")
    for line in report["verdicts"]:
        click.echo(line)
    for r in report["refused"]:
        click.echo(f"Refused by the rules engine, not played: {', '.join(f'{k}={v}' for k, v in r['values'].items())}: "
                   f"{r['reason']}")
    lab.wrote()


def _meets(means, targets) -> str:
    """``sure`` (every interval inside its band), ``likely`` (every estimate inside) or ``no``."""
    inside = [t["low"] <= means[t["metric"]]["mean"] <= t["high"] for t in targets]
    sure = [t["low"] <= means[t["metric"]]["ci_low"] and means[t["metric"]]["ci_high"] <= t["high"] for t in targets]
    return "sure" if all(sure) else "likely" if all(inside) else "no"


def _side(value, t) -> int:
    return -1 if value < t["low"] else 1 if value > t["high"] else 0


def _refine(values, points, targets) -> list:
    """Midpoints between neighbouring values where the verdict or a metric's side of its band changes."""
    new = []
    for a, b in zip(values, values[1:]):
        if b[0] - a[0] < 2:
            continue
        changes = points[a]["meets"] != points[b]["meets"] or any(
            _side(points[a]["means"][t["metric"]]["mean"], t) != _side(points[b]["means"][t["metric"]]["mean"], t)
            for t in targets)
        if changes:
            new.append(((a[0] + b[0]) // 2,))
    return new


def _tune_verdicts(points, targets, catalog, names) -> list[str]:
    from pnp.lab.analysis import mean_text

    def where(p):
        return ", ".join(f"{k}={p['values'][k]}" for k in names)

    def figures(p):
        return "; ".join(f"{catalog[t['metric']]['label']} {mean_text(catalog[t['metric']], p['means'][t['metric']])}"
                         for t in targets)

    band = " and ".join(f"{catalog[t['metric']]['label']} in {_band(t, catalog)}" for t in targets)
    sure = [p for p in points if p["meets"] == "sure"]
    likely = [p for p in points if p["meets"] == "likely"]
    lines = [f"Target: {band}."]
    if sure:
        lines += [f"Meets the target (whole interval inside): {where(p)}: {figures(p)}" for p in sure]
    if likely:
        lines += [f"Meets the target by its estimate (the interval reaches outside): {where(p)}: {figures(p)}"
                  for p in likely]
    if not sure and not likely:
        def distance(p):
            return sum(max(t["low"] - p["means"][t["metric"]]["mean"], p["means"][t["metric"]]["mean"] - t["high"], 0)
                       for t in targets)
        best = min(points, key=lambda p: (distance(p), where(p)))
        lines.append(f"No value tried meets the target; the closest: {where(best)}: {figures(best)}")
    return lines


def _band(t, catalog) -> str:
    if catalog[t["metric"]]["kind"] == "rate":
        return f"{100 * t['low']:g}%-{100 * t['high']:g}%"
    return f"{t['low']:g}-{t['high']:g}"


# ---------------------------------------------------------------------------------------------- ladder

def default_rungs(engine) -> list[str]:
    own = [b for b in engine.BOTS if b not in ("random", "search")]
    return ["random"] + own + ["search:25", "search:100", "search:400", "search:1600"]


@command.command("ladder")
@click.option("--rungs", default=None, help="Bots from weakest to strongest, comma-separated. [default: random, "
                                            "the game's own bots, search:25, search:100, search:400, search:1600]")
@click.option("--players", "players_text", default=None, metavar="N",
              help="Players per game. [default: 4, within the game's player range]")
@click.option("--games", type=click.IntRange(min=2, max=MAX_GAMES), default=100, show_default=True,
              help="Games per rung.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the games.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="output/lab", show_default=True,
              help="Folder report.json and report.html are written to.")
@click.option("--cache", "cache_dir", type=click.Path(file_okay=False), default=None,
              help="Folder of the games already played. [default: OUT/cache]")
@click.option("--no-cache", is_flag=True, help="Play every game again and store nothing.")
@executor_options
@click.pass_obj
def ladder(game, rungs, players_text, games, seed, out_dir, cache_dir, no_cache, jobs, executor, scheduler, workers):
    """The skill ladder: each bot plays the one below it at a two-bot table; the report gives each rung's
    win rate against the rung below and how often the stronger bot wins (skill against luck)."""
    import time

    from pnp.lab.report import ladder_html
    from pnp.loading.variants import BASE
    from rules_engine.core.metrics import value
    from rules_engine.core.stats import mean_interval

    lab = _lab(game, players_text, None, games, seed, jobs, executor, scheduler, workers, out_dir, cache_dir, no_cache)
    names = bot_list(rungs, lab.engine.BOTS) if rungs else default_rungs(lab.engine)
    if len(names) < 2:
        raise UserError("--rungs: a ladder needs at least two bots")
    pairs, timings = [], []
    for weaker, stronger in zip(names, names[1:]):
        bots = [stronger, weaker]
        sweep = lab.sweep(bots)
        arm = sweep.arm(BASE)
        start = time.perf_counter()
        rows = lab.play(sweep, [arm])[0]
        elapsed = time.perf_counter() - start
        timings.append((stronger, weaker, sweep.played, elapsed))
        seats = [sum(1 for b in r["bots"] if b == stronger) for r in rows]
        won = [sum(value(r["metrics"], f"win_seat_{s + 1}") for s, b in enumerate(r["bots"]) if b == stronger)
               for r in rows]
        luck = sum(s / lab.players for s in seats) / len(rows) * (sum(value(r["metrics"], "decided") for r in rows)
                                                                   / len(rows))
        pairs.append({"stronger": stronger, "weaker": weaker,
                      "stronger_rate": mean_interval([value(r["metrics"], f"win_{stronger}") for r in rows], True),
                      "weaker_rate": mean_interval([value(r["metrics"], f"win_{weaker}") for r in rows], True),
                      "stronger_wins": mean_interval(won, True), "luck": round(luck, 6)})
    verdicts = []
    for p in pairs:
        s = p["stronger_wins"]
        if s["ci_low"] > p["luck"]:
            word = "skill shows"
        elif s["ci_high"] < p["luck"]:
            word = "the supposedly stronger bot is weaker"
        else:
            word = "no clear difference from luck"
        verdicts.append(f"{p['stronger']} against {p['weaker']}: its seats win {100 * s['mean']:.1f}% of the games "
                        f"[{100 * s['ci_low']:.1f}%, {100 * s['ci_high']:.1f}%], {100 * p['luck']:.1f}% by luck "
                        f"alone: {word}")
    report = lab.header("ladder")
    report.update({"bots": names, "rungs": names, "pairs": pairs, "verdicts": verdicts})
    lab.write(report, ladder_html(report, lab.game.title))
    click.echo(f"{lab.game.title}: skill ladder {' < '.join(names)}, {games} games per rung, {lab.players} players")
    for line in verdicts:
        click.echo(f"  {line}")
    for stronger, weaker, played, elapsed in timings:
        if played:
            click.echo(f"  {stronger} vs {weaker}: {played} games in {elapsed:.1f} s ({elapsed / played:.3f} s a game)")
    lab.wrote()
