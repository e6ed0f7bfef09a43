"""Benchmarks: navmesh next to its peers on the same inputs, in the same run (see README)."""
