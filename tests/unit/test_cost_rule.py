"""The one cost rule (navmesh.terrain.CostProfile): access, multipliers, segment and arc weights.

Every expected value is computed by hand from the rule in navmesh/terrain.py's module notes.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse

from navmesh.errors import InvalidCostError
from navmesh.tags import encode_arc_tag
from navmesh.terrain import CostProfile

TANK = CostProfile("tank", {"swamp": 3.0, "road": 0.5, "bridge": 2.0}, forbidden={"water", "lava"},
                   capabilities={"wade"})


@pytest.mark.parametrize(
    ("tag", "requires", "expected"),
    [
        ("", None, True),                 # plain ground
        ("swamp", None, True),            # a costly tag is still allowed
        ("grass", None, True),            # an unlisted tag
        ("water", None, False),           # forbidden
        ("", "wade", True),               # a gate the unit can pass
        ("", "key", False),               # a gate it cannot
        ("bridge", "wade", True),
        ("water", "wade", False),         # the capability does not open a forbidden surface
        ("", ["wade", "key"], False),     # every requirement must be held
        ("", frozenset({"wade"}), True),
    ],
)
def test_allows(tag, requires, expected):
    assert TANK.allows(tag, requires) is expected


def test_tag_multipliers_close_forbidden_tags():
    got = TANK.tag_multipliers(["", "swamp", "road", "water", "grass", "lava"])
    assert got.tolist() == [1.0, 3.0, 0.5, math.inf, 1.0, math.inf]
    assert TANK.tag_multipliers([]).shape == (0,)


def test_segment_weights_by_hand():
    # columns: road, swamp, water
    tl = np.array([
        [0.0, 4.0, 0.0],    # 10 long, 4 in swamp: 6 + 4 * 3 = 18
        [2.0, 4.0, 0.0],    # 2 road, 4 swamp, 4 plain: 4 + 1 + 12 = 17
        [0.0, 0.0, 1.0],    # any real length of water closes it
        [0.0, 0.0, 1e-12],  # rounding noise of the overlay does not
        [0.0, 0.0, 0.0],    # plain ground
    ])
    got = TANK.segment_weights([10, 10, 10, 10, 7], scipy.sparse.csr_array(tl), ("road", "swamp", "water"))
    assert got.tolist() == [18.0, 17.0, math.inf, 10.0, 7.0]


def test_segment_weights_check_their_input():
    with pytest.raises(InvalidCostError, match="lengths"):
        TANK.segment_weights([-1.0], np.zeros((1, 0)), ())
    with pytest.raises(InvalidCostError, match="terrain_lengths has shape"):
        TANK.segment_weights([1.0, 2.0], np.zeros((1, 1)), ("swamp",))


def test_arc_weights_compose_the_rule():
    names = ("", encode_arc_tag("bridge"), encode_arc_tag("water"), encode_arc_tag("", "wade"),
             encode_arc_tag("", "key"), encode_arc_tag("bridge", "key"))
    tl = np.array([[4.0, 0.0], [0.0, 5.0], [0.0, 0.0], [0.0, 3.0], [0.0, 0.0], [0.0, 0.0]])  # swamp, water
    got = TANK.arc_weights([10, 10, 10, 10, 10, 10], tl, ("swamp", "water"), np.arange(6), names)
    assert got.tolist() == [
        18.0,       # untagged: the terrain rule (segment_weights)
        20.0,       # a bridge carries its own surface x2; the water under it is ignored
        math.inf,   # a link whose surface is forbidden
        math.inf,   # a gated link without surface follows the terrain: 3 units of water close it
        math.inf,   # a gate the tank cannot pass
        math.inf,   # a bridge behind a gate it cannot pass
    ]
    plain = TANK.segment_weights([10, 10], tl[[0, 3]], ("swamp", "water"))
    assert got[[0, 3]].tolist() == plain.tolist()


def test_the_editor_and_a_walker_agree_on_closed_arcs():
    """Removing the forbidden tags reopens exactly the arcs closed by forbidden terrain (the
    editor's overlay rule); gated arcs stay closed either way."""
    names = ("", encode_arc_tag("", "key"))
    tl = np.array([[0.0, 2.0], [0.0, 0.0], [1.0, 0.0]])  # swamp, water
    tags = np.array([0, 1, 0])
    closed = np.isinf(TANK.arc_weights([5, 5, 5], tl, ("swamp", "water"), tags, names))
    open_terrain = CostProfile("tank", TANK.multipliers, capabilities=TANK.capabilities)
    reopened = ~np.isinf(open_terrain.arc_weights([5, 5, 5], tl, ("swamp", "water"), tags, names))
    assert (closed & reopened).tolist() == [True, False, False]
