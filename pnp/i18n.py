"""Printed words per language: pnp's own labels (templates/strings/<lang>.yaml) overlaid by the game's
(data/<game>/i18n/<lang>.yaml)."""

from __future__ import annotations

from pnp import TEMPLATES_DIR
from pnp.yamlsrc import load_yaml


def strings(game, lang: str | None = None) -> dict:
    lang = lang or game.language
    merged = {}
    for path in (TEMPLATES_DIR / "strings" / f"{lang}.yaml", game.root / "i18n" / f"{lang}.yaml"):
        if path.is_file():
            data = load_yaml(path) or {}
            merged.update({k: v for k, v in data.items() if isinstance(v, str)})
    return merged
