"""What the studio does on demand: the engine's quick figures, and builds offered for download.

The figures are the engine's own seeded report (``pnp simulate``'s, through the engine protocol) of
1,000 games with its default bots and player count. Builds are ``pnp build``, ``pnp export cards``
and ``pnp export tts`` into the output folder; exports are also offered as one zip each.
"""

from __future__ import annotations

import io
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

from pnp.errors import UserError

#: The engine's quick figures: a seeded summary of this many games.
ENGINE_GAMES = 1000
ENGINE_SEED = 0
#: What the page can build, and the folder under the output folder each goes to.
BUILDS = {"kit": "", "cards": "cards", "tts": "tts"}


def engine_status(game, games: int = ENGINE_GAMES) -> dict:
    """Whether the quick figures can be played for ``game``, and if not why."""
    if not game.engine:
        return {"available": False, "reason": f"{game.title} has no rules engine."}
    try:
        from rules_engine import engine_module

        engine = engine_module(game.engine)
    except ImportError:
        return {"available": False, "reason": f"There is no rules engine named {game.engine!r}."}
    if not all(hasattr(engine, name) for name in ("simulate", "report_lines", "rules_for", "PLAYERS", "DEFAULT_BOTS")):
        return {"available": False, "reason": f"The {game.engine} engine does not play whole games yet."}
    return {"available": True, "reason": None, "games": games, "seed": ENGINE_SEED}


def engine_figures(game, version: int, games: int = ENGINE_GAMES) -> dict:
    """Play the seeded summary of ``games`` games for ``game`` (checked data) and return it with the
    lines of its report."""
    from pnp.commands.simulate import player_counts
    from rules_engine import engine_module

    status = engine_status(game)
    if not status["available"]:
        raise UserError(status["reason"])
    engine = engine_module(game.engine)
    players = player_counts(None, game.players, engine.PLAYERS, game.title)[0]
    bots = list(engine.DEFAULT_BOTS)
    started = time.perf_counter()
    report = engine.simulate(engine.rules_for(game), games=games, seed=ENGINE_SEED, players=players, bots=bots)
    lines = engine.report_lines(report, title=game.title, cards=game.cards, factions=game.factions)
    return {"version": version, "games": games, "seed": ENGINE_SEED, "players": players, "bots": bots,
            "lines": list(lines), "seconds": round(time.perf_counter() - started, 2)}


@dataclass
class Download:
    """A file the studio built: on disk (``path``) or made in memory (``data``, a zip)."""

    name: str
    what: str            # kit, cards or tts
    version: int
    path: Path | None = None
    data: bytes | None = None

    @property
    def size(self) -> int:
        if self.data is not None:
            return len(self.data)
        try:
            return self.path.stat().st_size
        except OSError:
            return 0


def build(what: str, root: Path, out_dir: Path, build_options, version: int) -> list[Download]:
    """Build ``what`` (kit, cards or tts) of the game at ``root`` into ``out_dir`` (DataError with every
    problem when the data has any; nothing is written then)."""
    if what == "kit":
        from pnp.kit import build_kit

        result = build_kit(root, out_dir, build_options)
        return [Download(p.name, what, version, path=p) for p in result.files]
    folder = out_dir / BUILDS.get(what, "")
    if what == "cards":
        from pnp.exports.cards import export_cards

        files = export_cards(root, folder, dpi=300, bleed=build_options.bleed, lang=build_options.lang).files
    elif what == "tts":
        from pnp.exports.tts import export_tts

        files = export_tts(root, folder, lang=build_options.lang).files
    else:
        raise UserError(f"nothing to build called {what!r}: {', '.join(BUILDS)}")
    return [Download(f"{what}.zip", what, version, data=zip_files(folder, files))]


def zip_files(folder: Path, files) -> bytes:
    """The files (paths under ``folder``) in one zip, named relative to it, in a fixed order and date."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(Path(f) for f in files):
            info = zipfile.ZipInfo(path.relative_to(folder).as_posix(), date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    return buf.getvalue()
