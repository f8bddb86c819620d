"""The studio's builds run in a process of their own (issue 23): the process is stopped (killed) past
its time limit, past its memory limit, or when the studio stops, with one message each, no process left
and no partial output; a normal build comes back as it would in the studio's own process."""

import os
import threading
import time
from pathlib import Path

import pytest

from pnp.components import BuildOptions
from pnp.errors import DataError, UserError
from pnp.serve.tasks import build_in_process

STARFALL = Path(__file__).parent / "games" / "starfall"
OPTIONS = BuildOptions(thorough=False)


def children() -> list:
    try:
        return Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").read_text().split()
    except OSError:
        return []


def test_a_build_in_its_process_gives_the_files(tmp_path):
    made = build_in_process("cards", STARFALL, tmp_path, OPTIONS, 7)
    assert [(d.name, d.what, d.version) for d in made] == [("cards.zip", "cards", 7)]
    assert made[0].data[:2] == b"PK" and (tmp_path / "cards").is_dir()


def test_a_data_error_comes_back_with_its_problems(tmp_path):
    game = tmp_path / "starfall"
    import shutil

    shutil.copytree(STARFALL, game)
    (game / "stars.yaml").write_text((game / "stars.yaml").read_text().replace("light: 3,", "light: 30,", 1))
    with pytest.raises(DataError) as caught:
        build_in_process("kit", game, tmp_path / "out", OPTIONS, 1)
    assert any("light" in p.message and "30" in p.message for p in caught.value.problems)
    assert not (tmp_path / "out").exists()


def test_a_build_past_its_time_is_stopped_and_leaves_nothing(tmp_path):
    before = children()
    started = time.monotonic()
    with pytest.raises(UserError, match=r"^the build took more than 0.5 s and was stopped"):
        build_in_process("kit", STARFALL, tmp_path / "out", OPTIONS, 1, seconds=0.5)
    assert time.monotonic() - started < 15
    assert children() == before
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_a_build_past_its_memory_is_stopped(tmp_path):
    with pytest.raises(UserError, match=r"^the build (needed more than 0.0625 GB of memory|stopped without finishing)"):
        build_in_process("kit", STARFALL, tmp_path / "out", OPTIONS, 1, memory=64 * 1024 ** 2)
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_a_build_is_stopped_when_the_studio_stops(tmp_path):
    stop = threading.Event()
    threading.Timer(0.3, stop.set).start()
    with pytest.raises(UserError, match="^the studio is stopping: the build was stopped$"):
        build_in_process("kit", STARFALL, tmp_path / "out", OPTIONS, 1, cancel=stop)
