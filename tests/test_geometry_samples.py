"""The sample script keeps working: every sample PDF is written with the pages its plan says."""

from pnp.draw.merge import page_count
from geometry_samples import write_all


def test_every_sample_renders(tmp_path):
    write_all(tmp_path)
    pages = {p.name: page_count(p.read_bytes()) for p in tmp_path.glob("*.pdf")}
    # board: assembly map + 6 tiles; hex maps: map + 4 tiles; 45 dice of stickers on 2 sheets (36 a sheet);
    # 6 nets on one sheet; duplex 2 + 2 pages, folds 1 + 1; 4 standees on one Letter sheet
    assert pages == {"board.pdf": 7, "hexmap-flat.pdf": 5, "hexmap-pointy.pdf": 5, "dice-stickers-letter.pdf": 2,
                     "dice-stickers-a4.pdf": 2, "dice-nets-letter.pdf": 1, "dice-nets-a4.pdf": 1,
                     "double-sided.pdf": 6, "standees.pdf": 1}
