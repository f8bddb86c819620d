"""``pnp lab``'s report.html: the verdicts as tables and matplotlib figures (forest plots of paired
differences, tuning curves against the target band, the skill ladder), offline and reproducible like
the balance report (:mod:`pnp.lab.balance`: same drawing settings, every data string escaped)."""

from __future__ import annotations

import html

from pnp.lab.balance import AVERAGE, BAR, CSS, HIGH, LOW, _img, _png, _table
from pnp.lab.analysis import effect_text, mean_text

import matplotlib.ticker  # noqa: E402  (pnp.lab.balance chose the Agg backend)
from matplotlib.figure import Figure  # noqa: E402

e = html.escape


def _scale(info) -> tuple[float, str]:
    return (100.0, "points") if info["kind"] == "rate" else (1.0, info.get("unit") or "")


def forest(labels, effects, info, title) -> str:
    """Each row's paired difference with its 95 % interval; zero as a line; clear effects coloured
    (above zero red, below green)."""
    k, unit = _scale(info)
    n = len(labels)
    fig = Figure(figsize=(7.5, max(1.8, 0.3 * n + 1.1)))
    ax = fig.add_subplot()
    ys = list(range(n))[::-1]
    for y, eff in zip(ys, effects):
        colour = (HIGH if eff["diff"] > 0 else LOW) if eff.get("clear") else BAR
        ax.plot([k * eff["ci_low"], k * eff["ci_high"]], [y, y], color=colour, linewidth=1.6)
        ax.plot([k * eff["diff"]], [y], marker="o", color=colour, markersize=4)
    ax.axvline(0, color=AVERAGE, linestyle="--", linewidth=1)
    ax.set_yticks(ys)
    ax.set_yticklabels(labels, fontsize=8)
    ax.set_ylim(-0.8, n - 0.2)
    ax.set_xlabel(f"difference from the base ({unit})" if unit else "difference from the base")
    ax.set_title(title, fontsize=10)
    return _png(fig)


def tuning_chart(points, param, info, band, title, series=None) -> str:
    """A metric against a parameter with 95 % intervals, the target band shaded."""
    k, unit = _scale(info)
    fig = Figure(figsize=(7.5, 3.0))
    ax = fig.add_subplot()
    groups = series or {"": points}
    for name, pts in groups.items():
        pts = sorted(pts, key=lambda p: p[0])
        xs = [p[0] for p in pts]
        ys = [k * p[1]["mean"] for p in pts]
        lows = [k * (p[1]["mean"] - p[1]["ci_low"]) for p in pts]
        highs = [k * (p[1]["ci_high"] - p[1]["mean"]) for p in pts]
        ax.errorbar(xs, ys, yerr=[lows, highs], marker="o", markersize=3, capsize=3, linewidth=1, label=name or None)
    if band is not None:
        ax.axhspan(k * band[0], k * band[1], color=LOW, alpha=0.15, label="target")
    ax.set_xlabel(param)
    ax.set_ylabel(f"{info['label']}" + (" (%)" if info["kind"] == "rate" else ""))
    ax.set_title(title, fontsize=10)
    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    if series or band is not None:
        ax.legend(fontsize=7)
    return _png(fig)


def ladder_chart(pairs) -> str:
    """Skill against luck: how often the stronger bot of each two-bot table wins, with the share its
    seats would win if skill did not matter."""
    fig = Figure(figsize=(7.5, max(2.0, 0.36 * len(pairs) + 1.2)))
    ax = fig.add_subplot()
    ys = list(range(len(pairs)))[::-1]
    for y, p in zip(ys, pairs):
        s = p["stronger_wins"]
        ax.barh([y], [s["mean"]], color=BAR, height=0.6)
        ax.errorbar([s["mean"]], [y], xerr=[[s["mean"] - s["ci_low"]], [s["ci_high"] - s["mean"]]], fmt="none",
                    ecolor="black", capsize=3, elinewidth=1)
        ax.plot([p["luck"], p["luck"]], [y - 0.35, y + 0.35], color=HIGH, linewidth=2)
    ax.set_yticks(ys)
    ax.set_yticklabels([f"{p['stronger']} vs {p['weaker']}" for p in pairs], fontsize=8)
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=0))
    ax.set_xlabel("games won by the stronger bot's seats (red: their share by luck alone)")
    ax.set_title("Skill against luck", fontsize=10)
    return _png(fig)


def _head(title: str, kind: str) -> list[str]:
    return [f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{e(title)}: {e(kind)}</title>"
            f"<style>{CSS}</style></head><body>", f"<h1>{e(title)}: {e(kind)}</h1>"]


def _run_line(report) -> str:
    return (f"<p>{report['games']} games per variant on the same seeds (seed {report['seed']}; game i of every "
            f"variant starts alike), {report['players']} players, bots {e(', '.join(report['bots']))}. "
            f"Differences are paired, game by game, with 95% intervals; a verdict is clear when the interval "
            f"excludes 0 after Holm's correction for the {report['comparisons']} comparisons.</p>")


def _games_cell(row) -> str:
    games = row.get("games") or {}
    return "; ".join(f"{which} game {g['game']} (seed {g['seed']})" for which, g in games.items())


def compare_html(report, title) -> str:
    metrics = report["metrics"]
    shown = report["shown"]
    parts = _head(title, "variants compared")
    parts.append(_run_line(report))
    parts.append(f"<p>Base: {e(report['base']['name'])} ({e(report['base']['changes'])}).</p>")
    for row in report["variants"]:
        parts.append(f"<h2>{e(row['name'])}</h2><p class=\"note\">{e(row['changes'])}</p>")
        parts.append("<ul>" + "".join(f"<li>{e(v)}</li>" for v in row["verdicts"]) + "</ul>")
        if row.get("games"):
            parts.append(f"<p class=\"note\">Replay: {e(_games_cell(row))}: " + "; ".join(
                f"<code>{e(g['replay'])}</code>" for g in row["games"].values()) + "</p>")
    for m in shown:
        labels = [r["name"] for r in report["variants"]]
        effs = [r["effects"][m]["paired"] for r in report["variants"]]
        parts.append(_img(forest(labels, effs, metrics[m], f"{metrics[m]['label']}: difference from the base"),
                          f"forest plot of {metrics[m]['label']}"))
    parts.append("<h2>Every metric</h2>")
    head = ["metric", "base"] + [r["name"] for r in report["variants"]]
    rows = []
    for m, info in metrics.items():
        rows.append([info["label"], mean_text(info, report["base"]["means"][m])]
                    + [effect_text(info, r["effects"][m]["paired"]).replace(info["label"] + " ", "")
                       for r in report["variants"]])
    parts.append(_table(head, rows))
    parts.append("<p class=\"note\">Base column: the mean with its 95% interval; variant columns: the paired "
                 "difference from the base with its 95% interval.</p>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


def ablate_html(report, title) -> str:
    metrics = report["metrics"]
    parts = _head(title, "ablation")
    parts.append(_run_line(report))
    parts.append(f"<p>Each row changes one card ({e(report['change'])}) from the base "
                 f"({e(report['base']['name'])}); rows are sorted by the effect on "
                 f"{e(metrics[report['shown'][0]]['label'])}.</p>")
    for m in report["shown"]:
        rows = report["rows"]
        parts.append(_img(forest([r["name"] for r in rows], [r["effects"][m]["paired"] for r in rows], metrics[m],
                                 f"{metrics[m]['label']}: effect of each change"),
                          f"forest plot of {metrics[m]['label']}"))
    head = ["card", "change"] + [metrics[m]["label"] for m in report["shown"]] + ["Holm p", "games to replay"]
    table = []
    for r in report["rows"]:
        first = r["effects"][report["shown"][0]]["paired"]
        table.append([r["name"], r["changes"]]
                     + [effect_text(metrics[m], r["effects"][m]["paired"]).replace(metrics[m]["label"] + " ", "")
                        for m in report["shown"]]
                     + [f"{first['holm_p']:.3g}", _games_cell(r)])
    parts.append(_table(head, table))
    if report.get("skipped"):
        parts.append(f"<p class=\"note\">Not changed: {e(', '.join(report['skipped']))} (no such value, or it "
                     f"would leave its range).</p>")
    if report.get("refused"):
        items = "".join(f"<li>{e(r['name'])}: {e(r['reason'])}</li>" for r in report["refused"])
        parts.append(f"<p class=\"note\">Refused by the rules engine, not played:</p><ul class=\"note\">{items}</ul>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


def tune_html(report, title) -> str:
    metrics = report["metrics"]
    params = [p["name"] for p in report["parameters"]]
    parts = _head(title, "tuning")
    parts.append(f"<p>{report['games']} games per value on the same seeds (seed {report['seed']}), "
                 f"{report['players']} players, bots {e(', '.join(report['bots']))}. Means with 95% intervals.</p>")
    parts.append("<ul>" + "".join(f"<li>{e(line)}</li>" for line in report["verdicts"]) + "</ul>")
    for t in report["targets"]:
        m = t["metric"]
        if len(params) == 1:
            pts = [(p["values"][params[0]], p["means"][m]) for p in report["points"]]
            series = None
        else:
            series = {}
            for p in report["points"]:
                label = ", ".join(f"{k}={p['values'][k]}" for k in params[1:])
                series.setdefault(label, []).append((p["values"][params[0]], p["means"][m]))
            pts = []
        parts.append(_img(tuning_chart(pts, params[0], metrics[m], (t["low"], t["high"]),
                                       f"{metrics[m]['label']} against {params[0]}", series),
                          f"{metrics[m]['label']} against {params[0]}"))
    head = params + [metrics[t["metric"]]["label"] for t in report["targets"]] + ["meets the target"]
    table = [[p["values"][k] for k in params] + [mean_text(metrics[t["metric"]], p["means"][t["metric"]])
                                                  for t in report["targets"]]
             + [{"sure": "yes (whole interval)", "likely": "yes (estimate)", "no": "no"}[p["meets"]]]
             for p in report["points"]]
    parts.append(_table(head, table))
    if report.get("refused"):
        items = "".join(f"<li>{e(', '.join(f'{k}={v}' for k, v in r['values'].items()))}: {e(r['reason'])}</li>"
                        for r in report["refused"])
        parts.append(f"<p class=\"note\">Refused by the rules engine, not played:</p><ul class=\"note\">{items}</ul>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


def ladder_html(report, title) -> str:
    parts = _head(title, "skill ladder")
    parts.append(f"<p>Each rung plays {report['games']} games against the rung below, the two bots alternating "
                 f"around a table of {report['players']} (seed {report['seed']}). Intervals are 95%.</p>")
    parts.append(_img(ladder_chart(report["pairs"]), "skill against luck"))
    parts.append("<ul>" + "".join(f"<li>{e(line)}</li>" for line in report["verdicts"]) + "</ul>")
    table = [[p["stronger"], p["weaker"], mean_text({"kind": "rate"}, p["stronger_rate"]),
              mean_text({"kind": "rate"}, p["stronger_wins"]), f"{100 * p['luck']:.1f}%"] for p in report["pairs"]]
    parts.append(_table(["rung", "against", "win rate per seat", "games won by its seats", "by luck alone"], table))
    parts.append("</body></html>\n")
    return "\n".join(parts)
