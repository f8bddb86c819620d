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


@pytest.fixture(autouse=True)
def _validate_cache(tmp_path_factory, monkeypatch):
    """``pnp validate`` keeps its checks in output/.pnp-cache of the working directory by default: in the tests,
    a folder of each test's own, so a check a test changes (a monkeypatched function) is never read back by
    another test."""
    import pnp.commands.validate

    monkeypatch.setattr(pnp.commands.validate, "DEFAULT_OUT", str(tmp_path_factory.mktemp("validate-out")))
