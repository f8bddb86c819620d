"""docs/architecture.md is true: every package and module it names exists, every file it links to exists, its
table of layers is the order the import contract enforces (pyproject.toml), and every package of pnp is in it.
A newcomer's way in is linked: README -> docs/architecture.md -> each package's ``__init__.py``, whose
docstring says what the package holds and what it may import. pnp/ itself keeps at most six modules."""

from __future__ import annotations

import ast
import re
import tomllib

from pnp import PROJECT_ROOT

DOC = PROJECT_ROOT / "docs" / "architecture.md"
TEXT = DOC.read_text(encoding="utf-8")


def _exists(dotted: str) -> bool:
    path = PROJECT_ROOT.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _packages() -> list[str]:
    """pnp's subpackages and the modules directly in pnp/ (but ``__init__``), as dotted names."""
    root = PROJECT_ROOT / "pnp"
    found = [f"pnp.{p.name}" for p in root.iterdir() if (p / "__init__.py").is_file()]
    found += [f"pnp.{p.stem}" for p in root.glob("*.py") if p.stem != "__init__"]
    return sorted(found)


def _layer_rows() -> list[list[str]]:
    """The packages of each row of the doc's table of layers, top to bottom."""
    section = TEXT.split("## The layers", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[1].startswith("`pnp."):
            rows.append(re.findall(r"`(pnp\.[\w.]+)`", cells[1]))
    return rows


def test_every_package_and_module_the_page_names_exists():
    named = set(re.findall(r"`((?:pnp|rules_engine)(?:\.\w+)*)`", TEXT)) | set(
        re.findall(r"\[`((?:pnp|rules_engine)(?:\.\w+)*)`\]", TEXT))
    assert named, "the page names packages"
    missing = sorted(n for n in named if not _exists(n) and not _exists(n.rpartition(".")[0]))
    assert missing == []


def test_every_file_the_page_links_to_exists():
    links = re.findall(r"\]\((?!https?:)([^)#]+)(?:#[^)]*)?\)", TEXT)
    assert any(link.endswith("__init__.py") for link in links)
    assert [link for link in links if not (DOC.parent / link).resolve().exists()] == []


def test_the_table_of_layers_is_the_contracts_order_and_names_every_package():
    contracts = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    layers = next(c for c in contracts if c["type"] == "layers" and c.get("containers") == ["pnp"])
    enforced = [sorted(f"pnp.{name.strip()}" for name in re.split(r"[|:]", layer)) for layer in layers["layers"]]
    assert [sorted(row) for row in _layer_rows()] == enforced
    assert layers.get("exhaustive") is True
    assert sorted(n for row in _layer_rows() for n in row) == _packages()


def test_a_newcomer_finds_the_way_in():
    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    assert "(docs/architecture.md)" in readme
    linked = set(re.findall(r"\]\(\.\./(pnp/\w+)/__init__\.py\)", TEXT))
    assert linked == {p.replace(".", "/") for p in _packages() if (PROJECT_ROOT / p.replace(".", "/")).is_dir()}


def test_each_package_says_what_it_holds_and_what_it_may_import():
    for folder in sorted(p for p in (PROJECT_ROOT / "pnp").iterdir() if (p / "__init__.py").is_file()):
        doc = ast.get_docstring(ast.parse((folder / "__init__.py").read_text(encoding="utf-8"))) or ""
        assert re.search(r"\bimport", doc.split("\n\n")[0]), f"pnp/{folder.name}/__init__.py"


def test_pnp_keeps_at_most_six_modules_of_its_own():
    assert len([p for p in (PROJECT_ROOT / "pnp").glob("*.py") if p.name != "__init__.py"]) <= 6
