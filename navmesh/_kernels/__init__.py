"""numba kernels over plain arrays: graph search, grid search, line of sight, any-angle refinement.

Kernels trust their inputs (the public functions validate them), keep all search state in arrays
owned by one call, and also run as plain Python with ``NUMBA_DISABLE_JIT=1``. Shared pieces: one
binary heap and trace-back (:mod:`.heap`), one set of status codes (:mod:`.status`).
"""

from navmesh import warmup as _warmup  # noqa: F401  (registers the one-time "compiling" notice)
