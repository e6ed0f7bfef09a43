"""RTS-style unit demo built on the public navmesh API (its own issue; not written yet)."""
