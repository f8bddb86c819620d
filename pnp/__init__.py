"""pnp: print-and-play kits from YAML game descriptions."""

import os
from pathlib import Path

__version__ = "0.1.0"

#: The project checkout: bundled games, templates and fonts live beside the package.
PROJECT_ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = PROJECT_ROOT / "data"
TEMPLATES_DIR = PROJECT_ROOT / "templates"
FONTS_DIR = PROJECT_ROOT / "fonts"


def default_game() -> str:
    """The game commands use when none is named: $PNP_GAME, else pyproject.toml's [tool.pnp] default-game."""
    if os.environ.get("PNP_GAME"):
        return os.environ["PNP_GAME"]
    import tomllib      # only here: most commands name their game

    try:
        with open(PROJECT_ROOT / "pyproject.toml", "rb") as f:
            name = tomllib.load(f).get("tool", {}).get("pnp", {}).get("default-game")
    except OSError:
        name = None
    if name:
        return name
    games = sorted(p.name for p in DATA_DIR.iterdir() if (p / "game.yaml").is_file()) if DATA_DIR.is_dir() else []
    return games[0] if games else ""
