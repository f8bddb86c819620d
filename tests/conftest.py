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
