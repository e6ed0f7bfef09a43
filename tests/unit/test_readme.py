"""The README's code examples run and print what the README says they print."""

from __future__ import annotations

import doctest
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_examples_run_as_doctests():
    parser = doctest.DocTestParser()
    test = parser.get_doctest(README.read_text(encoding="utf-8"), {}, "README.md", str(README), 0)
    assert test.examples, "the README lost its examples"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0, f"{runner.failures} README example(s) failed; run python -m doctest README.md"
