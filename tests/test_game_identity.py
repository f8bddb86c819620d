"""A game loaded again after its facts or data files changed is another game to every cache keyed by the game.

``Game`` is a frozen dataclass, so caches (``functools.lru_cache``, weak dictionaries) find a result by the
game's hash and equality. Its ``facts`` and ``data`` are dicts (not hashed), and they used to be left out of
equality too: a process that loads a game folder again (the studio's check step after its data step, any
long-running process between two clears of :mod:`pnp.cache.memo`) was handed what the old facts gave, such as the
rulebook's booklet printing a track maximum the data no longer holds.
"""

import shutil
from pathlib import Path

from pnp import DATA_DIR
from pnp.rulebook import component
from pnp.draw.icons import using
from pnp.loading.gamedata import load_game
from rasterize import booklet_text


def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_facts_edit_makes_another_game_and_another_booklet(tmp_path):
    root = shutil.copytree(DATA_DIR / "shadow_kingdoms_of_valeria", tmp_path / "valeria")
    before = load_game(root)
    with using(before.icons, "en"):
        first = component.booklet(before, "letter", "en")
    # the quick reference prints facts.track.max ("... then 20")
    _edit(root / "player_board.yaml", "max: 20  ", "max: 17  ")
    after = load_game(root)
    assert after.facts["track"]["max"] == 17
    assert after != before                       # was equal: only the facts differ
    assert hash(after) == hash(before)           # dicts are not hashed; equality decides
    with using(after.icons, "en"):
        second = component.booklet(after, "letter", "en")    # no pnp.cache.memo.clear() in between
    assert second is not first
    assert "then 17;" in booklet_text(second[0]) and "then 17;" not in booklet_text(first[0])


def test_a_data_file_edit_makes_another_game(tmp_path):
    root = shutil.copytree(Path(__file__).parent / "games" / "tidewardens", tmp_path / "tidewardens")
    before = load_game(root)
    assert load_game(root) == before
    _edit(root / "harbour.yaml", "tide_spaces: 24", "tide_spaces: 25")
    after = load_game(root)
    assert after.data != before.data
    assert after != before
