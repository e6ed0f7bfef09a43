"""``predicates.orient`` on tile coordinates (multiples of 2^-10 below 2^15) trusts the float
determinant, which is exact there; checked against ``fractions.Fraction`` on nearly collinear
triples, with coordinates on and just off that lattice and near its size limit."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from navmesh.predicates import orient


def _exact(a, b, c) -> list[int]:
    out = []
    for p, q, r in zip(a.tolist(), b.tolist(), c.tolist()):
        (ax, ay), (bx, by), (cx, cy) = ([Fraction(v) for v in t] for t in (p, q, r))
        d = (ax - cx) * (by - cy) - (ay - cy) * (bx - cx)
        out.append((d > 0) - (d < 0))
    return out


@pytest.mark.parametrize("scale, nudge", [(1.0, 0.0), (1 / 1024, 0.0), (2.0**14, 0.0), (1.0, 2.0**-11), (3e-7, 0.0)])
def test_nearly_collinear_triples_match_exact_rationals(scale, nudge):
    rng = np.random.default_rng(17)
    a = rng.integers(-2000, 2000, (3000, 2)) * scale
    b = rng.integers(-2000, 2000, (3000, 2)) * scale
    t = rng.integers(0, 9, (3000, 1)) / 8.0
    c = np.round((a + (b - a) * t) / scale) * scale  # on the line or one lattice step off it
    c[::3] += nudge
    got = orient(a, b, c)
    assert got.tolist() == _exact(a, b, c)
    assert 0 < (got == 0).sum() < len(got)  # collinear and not collinear triples both occur
