"""One job per module: no library file over 600 lines (numba kernels aside), issue 20."""

from __future__ import annotations

from pathlib import Path

NAVMESH = Path(__file__).resolve().parents[2] / "navmesh"
LIMIT = 600


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def _library_files() -> list[str]:
    return sorted(str(p.relative_to(NAVMESH)) for p in NAVMESH.rglob("*.py") if "_kernels" not in p.parts)


def test_the_library_has_files_to_measure():
    assert len(_library_files()) > 50


def test_no_library_file_is_over_the_limit():
    long = {f: _lines(NAVMESH / f) for f in _library_files() if _lines(NAVMESH / f) > LIMIT}
    assert long == {}
