"""Every PDF of the kit, checked with the tools printers use: qpdf --check, pdffonts, page sizes.

CI installs poppler-utils and qpdf (.ci/run); on a developer machine without them these tests skip.
"""

import shutil
import subprocess

import pytest

PAPER_PT = {"letter": (612.0, 792.0), "a4": (595.28, 841.89)}
needs = pytest.mark.skipif(not (shutil.which("qpdf") and shutil.which("pdffonts") and shutil.which("pdfinfo")),
                           reason="qpdf / poppler-utils not installed (CI installs them)")


@pytest.fixture(scope="module", params=["letter", "a4"])
def kit(request, built_kit):
    """(paper, the kits' folders): Shadow Throne's and Behind the Throne's, shared with other modules."""
    return request.param, [built_kit(game, "en", request.param) for game in ("shadow_throne", "behind_the_throne")]


def pdfs(folders):
    return sorted(pdf for folder in folders for pdf in folder.glob("*.pdf"))


@needs
def test_qpdf_finds_no_problem(kit):
    _, out = kit
    for pdf in pdfs(out):
        result = subprocess.run(["qpdf", "--check", str(pdf)], capture_output=True, text=True)
        assert result.returncode == 0, (pdf.name, result.stdout, result.stderr)
        assert "No syntax or stream encoding errors found" in result.stdout


@needs
def test_every_font_is_embedded(kit):
    _, out = kit
    for pdf in pdfs(out):
        lines = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout.splitlines()
        rows = lines[2:]
        assert rows, pdf.name
        for row in rows:
            # columns: name type encoding emb sub uni object ID; "emb" must be yes
            fields = row.split()
            assert fields[-5] == "yes", (pdf.name, row)


@needs
def test_page_sizes_are_the_paper_asked_for(kit):
    paper, out = kit
    w, h = PAPER_PT[paper]
    half = (round(h / 2, 2), round(w, 2))
    for pdf in pdfs(out):
        info = subprocess.run(["pdfinfo", "-f", "1", "-l", "999", str(pdf)], capture_output=True, text=True,
                              check=True).stdout
        sizes = [line.split("size:")[1].split("pts")[0].split("x") for line in info.splitlines()
                 if line.startswith("Page") and "size:" in line]
        assert sizes, pdf.name
        for sw, sh in sizes:
            got = (round(float(sw), 2), round(float(sh), 2))
            allowed = {(round(w, 2), round(h, 2)), (round(h, 2), round(w, 2))}
            if pdf.name == "rulebook.pdf":
                allowed = {half}
            assert got in allowed, (pdf.name, got)
