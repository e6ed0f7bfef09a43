"""Compile navmesh's kernels in several processes at once, each kernel once (used by
:mod:`navmesh.warmup`).

A parallel warm-up shares a temporary folder between its processes (:class:`Session`): the steps
still to compile, who claimed which step, which steps are finished (their kernels are then in
numba's on-disk cache), the compile locks of :mod:`navmesh.warmup_lock` and each helper's error
output. Every worker (a helper process, and the calling process in :func:`navmesh.warm_up`) takes
the next unclaimed step in one shared order (:func:`priority_order`): the parts wanted first
first, and among them the longest chain of measured compile cost first, so that no long step
starts last; a step whose kernels reuse another step's goes after it when another step is ready.
A kernel needed by two workers is compiled by the first and loaded from the cache by the other
(the compile locks).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

__all__ = ["Session", "Helper", "cores", "priority_order"]

logger = logging.getLogger("navmesh")

MAX_WORKERS = 4  # compiling processes at most (also never more than cores)

#: What a helper process runs (``serve(parts, folder, worker)``).
HELPER_CODE = "import sys, navmesh.warmup as w; w.serve(*sys.argv[1:])"


def cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def priority_order(steps: list[int], needs: dict[int, list[int]], costs: list[float],
                   ranks: list[int]) -> list[int]:
    """``steps`` in the order workers take them: by urgency (the smallest ``ranks`` entry of the
    step and of every step that needs it, directly or not), then longest chain first (the step's
    cost plus the costliest chain of steps that need it: a long chain started late finishes
    last), then plan order. ``needs`` never forms a cycle."""
    dependents: dict[int, list[int]] = {i: [j for j in steps if i in needs.get(j, ())] for i in steps}
    chain: dict[int, float] = {}
    urgency: dict[int, int] = {}

    def visit(i: int) -> None:
        if i not in chain:
            for j in dependents[i]:
                visit(j)
            chain[i] = costs[i] + max((chain[j] for j in dependents[i]), default=0.0)
            urgency[i] = min([ranks[i]] + [urgency[j] for j in dependents[i]])

    for i in steps:
        visit(i)
    return sorted(steps, key=lambda i: (urgency[i], -chain[i], i))


class Session:
    """The shared folder of one parallel warm-up (see the module notes).

    Parameters
    ----------
    folder : path
        The folder (made by :meth:`create`).
    """

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)
        data = json.loads((self.folder / "plan.json").read_text())
        self.steps: list[int] = data["steps"]  # plan indices to compile
        self.needs: dict[int, list[int]] = {int(k): v for k, v in data["needs"].items()}
        self.order: list[int] = data["order"]  # the steps in the order workers take them
        self.locks = self.folder / "locks"

    @classmethod
    def create(cls, steps: list[int], needs: dict[int, list[int]], costs: list[float],
               ranks: list[int]) -> Session:
        """A new session folder for ``steps`` (plan indices); ``needs``, ``costs`` and ``ranks``
        (how soon each plan step's part is wanted, 0 first) set their order (:func:`priority_order`)."""
        folder = Path(tempfile.mkdtemp(prefix="navmesh-warm-up-"))
        order = priority_order(steps, needs, costs, ranks)
        (folder / "plan.json").write_text(json.dumps({"steps": steps, "needs": needs, "order": order}))
        return cls(folder)

    def claim(self, step: int, worker: int) -> bool:
        """Claim ``step`` for ``worker``; False when another worker has it."""
        try:
            fd = os.open(self.folder / f"claim-{step}", os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except FileExistsError:
            return False
        with os.fdopen(fd, "w") as f:
            f.write(str(worker))
        return True

    def claimed_by(self, step: int) -> int | None:
        """The worker that claimed ``step`` (None if none yet)."""
        try:
            return int((self.folder / f"claim-{step}").read_text())
        except (OSError, ValueError):  # not claimed, or the claim is being written
            return None

    def finish(self, step: int) -> None:
        """Mark ``step`` done: its kernels are in numba's on-disk cache."""
        (self.folder / f"done-{step}").touch()

    def is_done(self, step: int) -> bool:
        return (self.folder / f"done-{step}").exists()

    def next_step(self, worker: int) -> int | None:
        """Claim and return the next step for ``worker``: the first unclaimed one of ``order`` whose
        needed steps are done, else the first unclaimed one (its kernels then wait for those being
        compiled); None when every step is claimed."""
        while True:
            free = [i for i in self.order if not (self.folder / f"claim-{i}").exists()]
            if not free:
                return None
            ready = [i for i in free if all(self.is_done(j) for j in self.needs.get(i, ()))]
            step = (ready or free)[0]
            if self.claim(step, worker):
                return step

    def error_of(self, worker: int) -> str:
        """The last lines a helper wrote on its stderr."""
        try:
            lines = (self.folder / f"helper-{worker}.err").read_text(errors="replace").strip().splitlines()
        except OSError:
            return ""
        return "\n".join(lines[-6:])

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


class Helper:
    """A fresh interpreter working as ``worker`` in a :class:`Session` (``serve``)."""

    def __init__(self, parts: list[str], session: Session, worker: int) -> None:
        self.worker = worker
        self.session = session
        self.process: subprocess.Popen[bytes] | None = None
        self.reported = False
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        from numba.core import config

        if config.CACHE_DIR:
            env["NUMBA_CACHE_DIR"] = config.CACHE_DIR
        try:
            with open(session.folder / f"helper-{worker}.err", "wb") as err:
                self.process = subprocess.Popen(
                    [sys.executable, "-c", HELPER_CODE, ",".join(parts), str(session.folder), str(worker)],
                    env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                )
        except OSError as exc:
            self._report(f"could not start: {exc}")

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def failed(self) -> bool:
        """Whether the helper could not start or stopped with an error (reported once on the
        ``navmesh`` logger; the calling process then compiles that helper's steps itself)."""
        if self.process is None:
            return True
        code = self.process.poll()
        if code is None or code == 0:
            return False
        self._report(f"exit status {code}: {self.session.error_of(self.worker)}")
        return True

    def _report(self, why: str) -> None:
        if not self.reported:
            self.reported = True
            logger.warning("navmesh warm-up: helper process %d failed (%s); compiling its kernels here instead",
                           self.worker, why)

    def stop(self) -> None:
        if self.running():
            assert self.process is not None
            self.process.kill()
        if self.process is not None:
            self.process.wait()
