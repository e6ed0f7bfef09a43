"""tools/call_type_compare.compare: the one loop that compares two numba caches file by file."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import call_type_compare  # noqa: E402  (a tool, not a package)


def test_compare_sorts_files_into_one_side_only_same_and_different() -> None:
    a = {"k.nbi": b"index", "f.nbc": b"<function f at 0x7f0011223344>", "g.nbc": b"code 1", "x.nbc": b""}
    b = {"k.nbi": b"index", "f.nbc": b"<function f at 0x7fabcdef0011>", "g.nbc": b"code 2", "y.nbc": b""}
    only, same, differ = call_type_compare.compare(a, b)
    assert only == ["x.nbc", "y.nbc"]
    assert same == ["f.nbc", "k.nbi"]  # f differs only in an object address
    assert differ == ["g.nbc"]
    assert call_type_compare.compare(a, a) == ([], sorted(a), [])
