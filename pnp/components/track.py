"""The power track component."""

from __future__ import annotations

from pnp.components import BuildOptions, Component, Output, register
from pnp.errors import DataError
from pnp.i18n import strings
from pnp.layout.track import TrackSpec, track_page
from pnp.tokendata import load_tokens

#: Room around a token on a track space, in mm, so it can be picked up.
TOKEN_CLEARANCE = 4.0


def token_diameter(game) -> float:
    """The largest token that moves on the track: from tokens.yaml when the game has one."""
    tokens = load_tokens(game) if (game.root / "tokens.yaml").is_file() else None
    sizes = [t.size for t in tokens.tokens if t.on_track] if tokens else []
    return max(sizes) if sizes else game.power_track.get("token_diameter", 20.0)


def spec(game) -> TrackSpec:
    p = game.power_track
    return TrackSpec(spaces=p.get("spaces", 25), columns=p.get("columns", 5), token_diameter=token_diameter(game))


def layout(game, options: BuildOptions):
    words = strings(game, options.lang)
    w, h = options.page_size
    return track_page(spec(game), game.factions, words.get("power_track", "Power Track"),
                      words.get("track_start", "Start"), w, h)


def build(game, options: BuildOptions) -> list[Output]:
    words = strings(game, options.lang)
    return [Output("power-track.pdf", words.get("power_track", "Power Track"), [layout(game, options).page])]


def check(game, problems, options: BuildOptions | None = None) -> None:
    if (game.root / "tokens.yaml").is_file():
        try:
            load_tokens(game)
        except DataError:  # reported by the tokens component's own check
            return
    for paper in ("letter", "a4"):
        result = layout(game, BuildOptions(paper=paper))
        need = spec(game).token_diameter + TOKEN_CLEARANCE
        if result.space_size < need:
            problems.error(*game.where("power_track"), "power_track",
                           f"spaces are {result.space_size:.1f} mm on {paper}, too small for "
                           f"{spec(game).token_diameter:g} mm tokens (need {need:g} mm)")


register(Component("power_track", build, check, order=10))
