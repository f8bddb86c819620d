"""pnp: print-and-play kits from YAML game descriptions."""

from pathlib import Path

__version__ = "0.1.0"

#: The project checkout: bundled games, templates and fonts live beside the package.
PROJECT_ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = PROJECT_ROOT / "data"
TEMPLATES_DIR = PROJECT_ROOT / "templates"
FONTS_DIR = PROJECT_ROOT / "fonts"
