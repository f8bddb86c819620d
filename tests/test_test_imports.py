"""The test modules import each other the way pytest's rootdir insertion allows on a clean checkout.

`from tests.x import y` only works when the checkout is on PYTHONPATH; CI runs plain `pytest`, where it
fails at collection (it did: three modules, the whole run refused).
"""
import pathlib
import re

TESTS = pathlib.Path(__file__).parent


def test_no_test_module_imports_through_the_tests_package():
    offenders = [f"{path.name}:{number}" for path in sorted(TESTS.rglob("*.py"))
                 for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                 if re.match(r"\s*(from tests[.\s]|import tests\b)", line)]
    assert offenders == []
