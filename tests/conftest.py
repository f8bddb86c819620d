import shutil
from pathlib import Path

import pytest

from pnp import DATA_DIR


@pytest.fixture
def game_copy(tmp_path) -> Path:
    """A writable copy of the bundled Shadow Throne data, to break in tests."""
    dest = tmp_path / "shadow_throne"
    shutil.copytree(DATA_DIR / "shadow_throne", dest)
    return dest


@pytest.fixture
def starfall(tmp_path) -> Path:
    """A writable copy of tests/games/starfall (a designer's game without an engine), to break in tests."""
    dest = tmp_path / "starfall"
    shutil.copytree(Path(__file__).parent / "games" / "starfall", dest)
    return dest
