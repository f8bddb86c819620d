"""Tracks: a page of numbered spaces per ``track`` entry of ``components`` (any range, grid, strips or
round the edge, a title and an optional start area). Shadow Throne's power track is one of them
(``power_track``, its settings in game.yaml's ``power_track:``)."""

from __future__ import annotations

import math

from pnp.components import record
from pnp.components import BuildOptions, Component, Output, Part
from pnp.draw.icons import with_game_icons
from pnp.errors import DataError
from pnp.loading.i18n import strings, word
from pnp.layout.track import SHAPES, TrackSpec, around_problem, track_page
from pnp.text.markup import escape
from pnp.loading.schema import Field
from pnp.loading.tokendata import load_tokens

#: Room around a token on a track space, in mm, so it can be picked up.
TOKEN_CLEARANCE = 4.0

#: Settings of a ``{kind: track, ...}`` entry of game.yaml's ``components``.
SCHEMA = {
    "from": Field("int", default=1, min=-99, max=999, doc="the number of the first space"),
    "to": Field("int", nullable=True, min=-99, max=999, doc="the number of the last space"),
    "spaces": Field("int", nullable=True, min=1, max=200, doc="how many spaces (instead of 'to')"),
    "shape": Field("str", default="grid", choices=SHAPES, doc="grid, strip or around (the page's edge)"),
    "columns": Field("int", default=5, min=0, max=20, doc="spaces per row (grid) or per strip (0: as many as fit)"),
    "title": Field("str", nullable=True, doc="printed title (default: the printed word 'track' or the id)"),
    "start_area": Field("bool", default=True, doc="a start area with a spot for each faction's token"),
    "start_label": Field("str", nullable=True, doc="the start area's label"),
    "highlight_every": Field("int", default=5, min=0, max=100, doc="tint every n-th space (0: none)"),
    "token_diameter": Field("length", nullable=True, min=5, max=60,
                            doc="tokens moved on it (default: the largest on_track token, else 20 mm)"),
}


def token_diameter(game, config: dict | None = None) -> float:
    """The largest token that moves on the track: from tokens.yaml when the game has one."""
    config = config or {}
    if config.get("token_diameter"):
        return config["token_diameter"]
    tokens = load_tokens(game) if (game.root / "tokens.yaml").is_file() else None
    sizes = [t.size for t in tokens.tokens if t.on_track] if tokens else []
    return max(sizes) if sizes else game.power_track.get("token_diameter", 20.0)


def settings(game, spec) -> dict:
    """The track's settings: its entry's, or (``power_track``) those of game.yaml's ``power_track:``."""
    if spec is None or spec.kind != "track" or spec.id == "power_track" and not spec.config:
        p = game.power_track
        return {"from": 1, "spaces": p.get("spaces", 25), "columns": p.get("columns", 5), "shape": "grid",
                "start_area": True, "highlight_every": 5, "title_key": "power_track",
                "token_diameter": p.get("token_diameter") if not (game.root / "tokens.yaml").is_file() else None}
    return dict(spec.config)


def track_spec(game, config: dict) -> TrackSpec:
    first = config.get("from", 1)
    spaces = config.get("spaces") or ((config["to"] - first + 1) if config.get("to") is not None else 25)
    return TrackSpec(spaces=spaces, columns=config.get("columns", 5), token_diameter=token_diameter(game, config),
                     first=first, shape=config.get("shape", "grid"), highlight_every=config.get("highlight_every", 5),
                     start_area=config.get("start_area", True))


def titles(game, config: dict, spec_id: str, lang) -> tuple[str, str]:
    """(title, start area's label) as printed: the data's, translated (``components.<id>.title`` and
    ``.start_label``), or pnp's words."""
    words = strings(game, lang)
    key = config.get("title_key")
    if key:
        title = words.get(key, "Power Track")
    else:
        title = escape(word(game, f"components.{spec_id}.title", default_title(config, spec_id), lang))
    start = escape(word(game, f"components.{spec_id}.start_label", config["start_label"], lang)) \
        if config.get("start_label") else words.get("track_start", "Start")
    return title, start


def default_title(config: dict, spec_id: str) -> str:
    return config.get("title") or spec_id.replace("_", " ").title()


def words(game, spec=None) -> list:
    """The track's title and start label, when the data gives them (or the title comes from the id)."""
    from pnp.loading.i18n.catalogue import Source

    config = settings(game, spec)
    if config.get("title_key") or spec is None:
        return []
    where = (game.root / "game.yaml", spec.line, f"track '{spec.id}'")
    out = [Source(f"components.{spec.id}.title", default_title(config, spec.id), *where, "title")]
    if config.get("start_label"):
        out.append(Source(f"components.{spec.id}.start_label", config["start_label"], *where, "start_label"))
    return out


def layout(game, options: BuildOptions, spec=None):
    config = settings(game, spec)
    title, start = titles(game, config, spec.id if spec else "power_track", options.lang)
    w, h = options.page_size
    stack = strings(game, options.lang).get("track_stack", "") if config.get("title_key") else ""
    return track_page(track_spec(game, config), game.factions, title, start, w, h, label=title, stack_note=stack)


def file_name(spec) -> str:
    return f"{(spec.id if spec else 'power_track').replace('_', '-')}.pdf"


@with_game_icons
def build(game, options: BuildOptions, spec=None) -> list[Output]:
    config = settings(game, spec)
    title, _ = titles(game, config, spec.id if spec else "power_track", options.lang)
    part = Part("board", spec.id if spec else "power_track", 1, title)
    out = Output(file_name(spec), title, [layout(game, options, spec).page], parts=(part,))
    out.record = record.fragment(game, "track", *printed(game, options, spec))
    return [out]


def printed(game, options: BuildOptions, spec=None) -> tuple[str, list]:
    """(title, the track's page as drawn for the kit's paper, with its settings), for :mod:`pnp.reprint.changes`."""
    config = settings(game, spec)
    title, _ = titles(game, config, spec.id if spec else "power_track", options.lang)
    key = spec.id if spec else "power_track"
    page = layout(game, options, spec).page
    return title, [record.Printed(key, f"{key}#1", title, tuple(page.elements), (), record.item_values(config))]


@with_game_icons
def reprinted(game, options: BuildOptions, labels: set, first: int, spec=None) -> record.Reprinted:
    """The track's page again."""
    return record.Reprinted([(layout(game, options, spec).page, None)])


@with_game_icons
def check(game, problems, options: BuildOptions | None = None, spec=None) -> None:
    if (game.root / "tokens.yaml").is_file():
        try:
            load_tokens(game)
        except DataError:  # reported by the tokens component's own check
            return
    config = settings(game, spec)
    where = game.where("power_track") if config.get("title_key") else (game.root / "game.yaml", spec.line)
    subject = "power_track" if config.get("title_key") else f"track '{spec.id}'"
    if config.get("to") is not None and config.get("spaces") is not None:
        problems.error(*where, subject, "give 'to' or 'spaces', not both")
        return
    if config.get("to") is not None and config["to"] < config.get("from", 1):
        problems.error(*where, subject, f"to: {config['to']} is below from: {config.get('from', 1)}")
        return
    track = track_spec(game, config)
    if track.shape == "around":
        why = around_problem(track.spaces, edge="page's edge", first=track.first)
        if why:
            problems.error(*where, subject, f"shape: around: {why}")
            return
    for paper in ("letter", "a4"):
        try:
            result = layout(game, BuildOptions(paper=paper), spec)
        except ValueError as exc:
            problems.error(*where, subject, f"{exc} on {paper}")
            continue
        need = track.token_diameter + TOKEN_CLEARANCE
        if result.space_size < need:
            size = round(result.space_size, 1)
            if size >= need:                     # 11.96 mm is not "12.0 mm" when 12 mm are needed
                size = math.floor(result.space_size * 10) / 10
            problems.error(*where, subject, f"spaces are {size:.1f} mm on {paper}, too small for "
                                            f"{track.token_diameter:g} mm tokens (need {need:g} mm)")


COMPONENT = Component("track", build, check, words=words, printed=printed, reprint=reprinted)
