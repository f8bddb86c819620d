"""The balance report as an offline HTML page: tables and matplotlib charts embedded as PNG data.

Everything comes from the report dict (``rules_engine.core.balance``); every string from the game's
data is escaped. The page is reproducible: the charts are drawn with the Agg backend and saved without
a creation date or software stamp, so the same report gives the same bytes.
"""

from __future__ import annotations

import base64
import html
import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.ticker  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402  (after choosing the backend)

BAR = "#4c72b0"
HIGH = "#c44e52"
LOW = "#55a868"
AVERAGE = "#555555"


def _png(fig: Figure) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100, metadata={"Software": None}, bbox_inches="tight")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _rates_chart(labels, rows, title, average=None, xlabel="win rate", counts=True) -> str:
    """Horizontal bars of win rates with 95 % intervals, the average as a line, games at the right."""
    height = max(1.8, 0.32 * len(rows) + 1.0)
    fig = Figure(figsize=(7.5, height))
    ax = fig.add_subplot()
    ys = list(range(len(rows)))[::-1]
    rates = [r["win_rate"] for r in rows]
    lows = [r["win_rate"] - r["ci_low"] for r in rows]
    highs = [r["ci_high"] - r["win_rate"] for r in rows]
    colours = []
    for r in rows:
        if average is not None and r["ci_low"] > average:
            colours.append(HIGH)
        elif average is not None and r["ci_high"] < average:
            colours.append(LOW)
        else:
            colours.append(BAR)
    ax.barh(ys, rates, color=colours, height=0.6)
    ax.errorbar(rates, ys, xerr=[lows, highs], fmt="none", ecolor="black", elinewidth=1, capsize=3)
    if average is not None:
        ax.axvline(average, color=AVERAGE, linestyle="--", linewidth=1)
        title = f"{title} (dashed line: average {100 * average:.1f}%)"
    ax.set_yticks(ys)
    ax.set_yticklabels(labels, fontsize=8)
    top = max([r["ci_high"] for r in rows] + [average or 0, 0.05])
    ax.set_xlim(0, min(1.0, top * 1.25))
    if counts:
        for y, r in zip(ys, rows):
            ax.text(min(1.0, top * 1.25) * 0.995, y, f"n={r.get('games', r.get('seats', 0))}", va="center",
                    ha="right", fontsize=7, color="#333333")
    ax.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=0))
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    return _png(fig)


def _bars_chart(labels, values, title, xlabel) -> str:
    fig = Figure(figsize=(7.5, max(1.8, 0.32 * len(values) + 1.0)))
    ax = fig.add_subplot()
    ys = list(range(len(values)))[::-1]
    ax.barh(ys, values, color=BAR, height=0.6)
    ax.set_yticks(ys)
    ax.set_yticklabels(labels, fontsize=8)
    for y, v in zip(ys, values):
        ax.text(v, y, f" {v:g}", va="center", fontsize=7)
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    return _png(fig)


def _length_chart(length: dict) -> str:
    dist = length["distribution"]
    xs = [int(k) for k in dist]
    fig = Figure(figsize=(7.5, 2.8))
    ax = fig.add_subplot()
    ax.bar(xs, list(dist.values()), color=BAR, width=0.8)
    ax.axvline(length["mean"], color=AVERAGE, linestyle="--", linewidth=1, label=f"mean {length['mean']:.1f}")
    ax.legend(fontsize=8)
    ax.set_xlabel(length["unit"])
    ax.set_ylabel("games")
    ax.set_title(f"Game length ({length['unit']})", fontsize=10)
    return _png(fig)


def _img(data: str, alt: str) -> str:
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'


def _pct(x) -> str:
    return f"{100 * x:.1f}%"


def _replays(outlier: dict) -> str:
    linked = outlier.get("links") or {}
    return "; ".join(f"{which} game {g['game']} ({g['seed']})" for which, g in linked.items())


def _table(headers, rows) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _rates_table(what, rows, unit) -> str:
    return _table([what, unit, "win rate", "95% interval"],
                  [[name, r["games"], _pct(r["win_rate"]), f"{_pct(r['ci_low'])} - {_pct(r['ci_high'])}"]
                   for name, r in rows])


CSS = """body{font-family:sans-serif;max-width:60em;margin:1em auto;padding:0 1em;color:#222}
h1{font-size:1.5em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;font-size:.85em;margin:.5em 0}
td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}
td:first-child,th:first-child{text-align:left}img{max-width:100%}.note{color:#555;font-size:.9em}"""


def _distribution_chart(dist: dict, title: str, xlabel: str) -> str:
    xs = [float(k) for k in dist]
    fig = Figure(figsize=(3.7, 2.4))
    ax = fig.add_subplot()
    width = 0.8 * min([b - a for a, b in zip(xs, xs[1:])] or [1.0])
    ax.bar(xs, list(dist.values()), color=BAR, width=width)
    ax.set_xlabel(xlabel, fontsize=8)
    ax.set_ylabel("games", fontsize=8)
    ax.tick_params(labelsize=7)
    ax.set_title(title, fontsize=9)
    return _png(fig)


def _experience(xp: dict, report: dict) -> list[str]:
    """The experience metrics: their means with 95% intervals, and distributions of the counts."""
    parts = ["<h2>Experience</h2>",
             f"<p class=\"note\">Counted on the engine's progress measure ({html.escape(xp['progress'])}): the lead "
             f"changes hands when another seat becomes the only leader; a comeback is a game whose winner trailed "
             f"at the half; a stall is a {html.escape(report['length']['unit'].rstrip('s'))} in which nobody's "
             f"progress moved.</p>"]
    rows = []
    for key, m in xp["metrics"].items():
        rate = key in ("comeback", "timeout")
        show = _pct if rate else (lambda x: f"{x:.2f}")
        rows.append([m["label"], show(m["mean"]), f"{show(m['ci_low'])} - {show(m['ci_high'])}"])
    for s, m in enumerate(xp["decisions_by_seat"]):
        rows.append([f"decisions of seat {s + 1}", f"{m['mean']:.2f}", f"{m['ci_low']:.2f} - {m['ci_high']:.2f}"])
    parts.append(_table(["metric", "mean", "95% interval"], rows))
    for key in ("lead_changes", "stalls", "decisions"):
        m = xp["metrics"][key]
        parts.append(_img(_distribution_chart(m["distribution"], m["label"], m["label"]), m["label"]))
    return parts


def render_html(report: dict, title: str, side_names: dict | None = None) -> str:
    """The whole page as a string; ``side_names`` maps side ids (factions) to the names shown."""
    e = html.escape
    average = report["average"]
    parts = [f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{e(title)}: balance report"
             f"</title><style>{CSS}</style></head><body>",
             f"<h1>{e(title)}: balance report</h1>",
             f"<p>{report['games']} seeded games, {report['players']} players, seed {report['seed']}, bots "
             f"{e(', '.join(report['bots']))}. Intervals are 95% (Wilson); a shared victory counts 1/k for each of "
             f"the k winners. The average win rate of a seat is {_pct(average)}.</p>"]
    seats = report["seats"]
    parts.append("<h2>Seats (first-player advantage)</h2>")
    parts.append(_img(_rates_chart([f"seat {s['seat']}" for s in seats], seats, "Win rate by seat", average),
                      "win rate by seat"))
    parts.append(_rates_table("seat", [(f"seat {s['seat']}", s) for s in seats], "games"))
    if report["sides"]:
        sides = report["sides"]
        unit = sides[0].get("unit", "games")
        parts.append("<h2>Factions and sides</h2>")
        names = side_names or {}
        labels = [names.get(s["side"], s["side"]) for s in sides]
        parts.append(_img(_rates_chart(labels, sides, f"Wins by side (share of {unit})", xlabel=f"share of {unit}"),
                          "wins by side"))
        parts.append(_rates_table("side", list(zip(labels, sides)), unit))
    ladder = report["bots_ladder"]
    parts.append("<h2>Bots (skill ladder, weakest first)</h2>")
    parts.append(_img(_rates_chart([b["bot"] for b in ladder][::-1], ladder[::-1], "Win rate per seat by bot", average),
                      "win rate by bot"))
    parts.append(_rates_table("bot", [(b["bot"], dict(b, games=b["seats"])) for b in ladder], "seats"))
    cards = report["cards"]
    if cards:
        usage = report["card_usage"]
        parts.append(f"<h2>Cards (win rate of a seat that {e(usage)} the card)</h2>")
        parts.append(f"<p class=\"note\">Red: the interval lies above the average; green: below. n is the number "
                     f"of seat-games in which the card was {e(usage)}.</p>")
        parts.append(_img(_rates_chart([c["name"] for c in cards], cards, f"Win rate when {usage}", average),
                          "win rate by card"))
        parts.append(_table(["card", "seat-games", "win rate", "95% interval", f"win rate when not {usage}"],
                            [[c["name"], c["games"], _pct(c["win_rate"]), f"{_pct(c['ci_low'])} - {_pct(c['ci_high'])}",
                              _pct(c["without"]["win_rate"])] for c in cards]))
    length = report["length"]
    parts.append("<h2>Game length</h2>")
    parts.append(_img(_length_chart(length), "game length"))
    endings = report["endings"]
    parts.append("<h2>How games end</h2>")
    parts.append(_img(_bars_chart(list(endings), list(endings.values()), "How games end", "games"), "how games end"))
    if report.get("experience"):
        parts += _experience(report["experience"], report)
    components = report["components"]
    if components:
        parts.append("<h2>Component demand and the game's own figures</h2>")
        parts.append(_img(_bars_chart(list(components), list(components.values()), "Component demand", "value"),
                          "component demand"))
        parts.append(_table(["figure", "value"], [[k, v] for k, v in components.items()]))
    found = report["outliers"]
    parts.append("<h2>Outliers</h2>")
    if found:
        parts.append(_table(["kind", "name", "win rate", "95% interval", "games", "games to replay (seed)"],
                            [[o["kind"], o["name"], _pct(o["win_rate"]), f"{_pct(o['ci_low'])} - {_pct(o['ci_high'])}",
                              o["games"], _replays(o)] for o in found]))
        parts.append("<p class=\"note\">Replay a game with <code>pnp replay GAME --seed SEED --bots BOTS</code> "
                     "(the seat bots in order, as report.json lists them), or open it in the studio.</p>")
    else:
        parts.append("<p>None: every seat's and card's interval contains the average.</p>")
    parts.append("</body></html>\n")
    return "\n".join(parts)
