"""numba kernels of the crowd update, called in turn by :meth:`navmesh.steering.Crowd.update`:
:func:`crowd_steer` (each unit's drive along its route: reached points, shortcuts, progress
watches) and :func:`crowd_step` (separation, giving way, wall sliding, one relaxation pass). The
arrays are those of :class:`navmesh.steering.Crowd`, the walls those of
:class:`navmesh.steering.Walls`. Two kernels rather than one: each compiles faster than the
whole did, and the motion kernel does not carry the sight tests.

Kernels trust their inputs and also run as plain Python with ``NUMBA_DISABLE_JIT=1``.
"""

from __future__ import annotations

import math

import numpy as np

from navmesh._kernels.buckets import hash_points, near_runs
from navmesh._kernels.signatures import njit, plain_arguments
from navmesh._kernels.walls import safe_move, target_visible

# seconds, in units of ``settle``, a unit may go without lowering its order's least route cost
# left before it gives up and finishes where it stands: alone (walls hold it), or touching others
# (a queue that may still move on)
GIVE_UP_ALONE = 4.0
GIVE_UP_CROWDED = 12.0


@njit(cache=True)
def crowd_steer(
    dt, frame, pos, radius, speed, cls, active, moving, arrived, cur, lost, stuck, stall, best, settled, tries,
    slot, slot_mult, min_mult, goal_best, goal_stall, drive, wit, route_xy, route_next, route_rest, route_mult, settle,
    barrier, edges, grid, cell_ptr, cell_items, ref, eps,
):
    """Each active unit's drive (``drive``, units per second, before separation) for a step of
    ``dt`` seconds.

    Per unit with an order (``moving``): steer toward its current route point (``route_xy[cur]``;
    ``cur = -1`` means its own slot; units keep holding their slot after arriving). A route
    point counts as reached within a tenth of a radius (or one step), or within one radius when
    the point after it (or the slot) is in sight from where the unit stands, so a unit never
    turns toward a point it cannot walk to (a door corner). It skips to the following point, or
    straight to the slot, when the straight walk there is free, crosses no terrain boundary
    (class ``barrier``) and does not raise the unit's cost (checked on one frame in four,
    staggered; each of the two tests first tries the wall edge that last blocked it, kept in
    ``wit``, (n, 2), -1 for none); a unit that cannot see its current target and has made no progress toward it
    for a fifth of ``settle`` is flagged ``lost`` so the caller can route it again: a unit that
    slides round a wall toward a point it cannot see yet keeps going). It slows down within two radii of the slot and stops on it (``arrived``
    once within a tenth of a radius). ``best`` holds the closest the unit came to its current
    target and ``stall`` the seconds since it last came closer by a fiftieth of a radius: after
    ``settle`` seconds without progress, on an even count of ``tries``, a unit is flagged
    ``stuck`` (the caller trades its slot with a groupmate's or plans it a path of its own from
    where it stands, and counts the attempt in ``tries``); on an odd count, a unit on its route
    skips to the point after its current one (and counts that), and a unit heading for its
    slot in sight counts as arrived where it stands (others hold it off its slot: the group
    still finishes; ``settled``, it then stands wherever separation leaves it). Over all that,
    the order's watch ``goal_best`` / ``goal_stall`` (reset only by a new order or slot, never by
    a re-plan) holds the least route cost left the unit reached (distance to its target times
    ``min_mult`` plus ``route_rest``) and the seconds since it lowered it by a quarter radius: past
    ``GIVE_UP_ALONE * settle`` seconds (``GIVE_UP_CROWDED * settle`` while it touches another
    unit) the unit counts as arrived and settled where it stands, so a unit whose re-plans keep
    returning the route it cannot walk (a door its body does not fit) still finishes; the
    watch's least cost only falls, so every unit finishes in bounded time. A unit on its way
    that has made no progress for a fifth of ``settle``, touches another on its way with a
    lower id and heads toward it stops driving for that frame (gives way): the lowest id of a jam always moves on, so two units never push each
    other to a standstill in a gap that only one fits through. A shortcut lies in one terrain class, so its cost is its length times the
    multiplier at its end (``route_mult`` of the row, ``slot_mult`` for the slot); the route it
    replaces costs at least the distance to the current point times the unit type's smallest
    multiplier (``min_mult``) plus the route cost between the rows (``route_rest``: cost from a row
    to the route's end). A zero multiplier (grids) skips the cost test; the
    give-up itself happens in :func:`crowd_step`, which knows whether the unit touches others.
    """
    n = pos.shape[0]
    buf = np.empty(1, np.int64)  # the edge a sight test found crossed
    for i in range(n):
        drive[i, 0], drive[i, 1] = 0.0, 0.0
        if not active[i]:
            continue
        px, py = pos[i, 0], pos[i, 1]
        ri, vi, ci = radius[i], speed[i], cls[i]
        dvx, dvy = 0.0, 0.0
        if moving[i]:
            if settled[i]:  # it stands where the others let it
                slot[i, 0], slot[i, 1] = px, py
            c = cur[i]
            c0 = c
            # reached route points and free shortcuts
            for _ in range(4):
                if c < 0:
                    break
                tx, ty = route_xy[c, 0], route_xy[c, 1]
                reach = max(0.1 * ri, vi * dt)
                nxt = route_next[c]
                d2 = (tx - px) ** 2 + (ty - py) ** 2
                if d2 <= reach * reach:
                    c = nxt
                    continue
                if d2 <= ri * ri:
                    if nxt >= 0:
                        ax_, ay_ = route_xy[nxt, 0], route_xy[nxt, 1]
                    else:
                        ax_, ay_ = slot[i, 0], slot[i, 1]
                    if target_visible(px, py, ax_, ay_, ci, -1, edges, grid, cell_ptr, cell_items, ref, eps, buf, -1):
                        c = nxt
                        continue
                    if nxt < 0:  # at the route's end and the slot out of sight: route it anew
                        lost[i] = True
                if (i + frame) % 4 == 0:
                    # a lower bound of the route's cost from here to its end / to the next row
                    here = math.sqrt((tx - px) ** 2 + (ty - py) ** 2) * min_mult[i]
                    sx_, sy_ = slot[i, 0], slot[i, 1]
                    to_slot = math.sqrt((sx_ - px) ** 2 + (sy_ - py) ** 2) * slot_mult[i]
                    if to_slot <= (here + route_rest[c]) * (1.0 + 1e-9):
                        seen = target_visible(
                            px, py, sx_, sy_, ci, barrier, edges, grid, cell_ptr, cell_items, ref, eps, buf, wit[i, 0]
                        )
                        wit[i, 0] = buf[0]
                        if seen:
                            c = -1
                            break
                    if nxt >= 0:
                        ax_, ay_ = route_xy[nxt, 0], route_xy[nxt, 1]
                        short = math.sqrt((ax_ - px) ** 2 + (ay_ - py) ** 2) * route_mult[nxt]
                        along = here + route_rest[c] - route_rest[nxt]
                    else:
                        ax_, ay_ = sx_, sy_
                        short = to_slot
                        along = here + route_rest[c]
                    if short <= along * (1.0 + 1e-9):
                        seen = target_visible(
                            px, py, ax_, ay_, ci, barrier, edges, grid, cell_ptr, cell_items, ref, eps, buf, wit[i, 1]
                        )
                        wit[i, 1] = buf[0]
                        if seen:
                            c = nxt
                            continue
                    if stall[i] > 0.2 * settle and not target_visible(
                        px, py, tx, ty, ci, -1, edges, grid, cell_ptr, cell_items, ref, eps, buf, -1
                    ):
                        lost[i] = True
                break
            if (
                c < 0
                and (i + frame) % 4 == 0
                and not arrived[i]
                and stall[i] > 0.2 * settle
                and not target_visible(px, py, slot[i, 0], slot[i, 1], ci, -1, edges, grid, cell_ptr, cell_items, ref, eps, buf, -1)
            ):
                lost[i] = True
            cur[i] = c
            if c >= 0:
                tx, ty = route_xy[c, 0], route_xy[c, 1]
                slow = 1.0
            else:
                tx, ty = slot[i, 0], slot[i, 1]
                slow = 0.0
            dx, dy = tx - px, ty - py
            d = math.sqrt(dx * dx + dy * dy)
            if c < 0 and d <= 0.1 * ri + eps * 8.0:
                arrived[i] = True
            if c != c0:
                best[i] = math.inf
                stall[i] = 0.0
            if arrived[i]:
                stall[i] = 0.0
            elif d < best[i] - 0.02 * ri:
                best[i] = d
                stall[i] = 0.0
            else:
                stall[i] += dt
                if stall[i] > settle:
                    stall[i] = 0.0
                    best[i] = d
                    if tries[i] % 2 == 0 or (
                        c < 0
                        and not target_visible(px, py, tx, ty, ci, -1, edges, grid, cell_ptr, cell_items, ref, eps, buf, -1)
                    ):
                        stuck[i] = True
                    elif c < 0:
                        # hold the place reached: the slot is taken or walled off
                        arrived[i] = True
                        settled[i] = True
                        slot[i, 0], slot[i, 1] = px, py
                        d = 0.0
                    else:
                        # slide on toward the point after (round a terrain corner the route
                        # cuts, which the body cannot)
                        tries[i] += 1
                        cur[i] = route_next[c]
                        best[i] = math.inf
            if not arrived[i]:
                # the order's watch: the least route cost left (a lower bound: the distance to
                # the target at the smallest multiplier, plus the route's cost after it)
                left = d * min_mult[i] + (route_rest[c] if c >= 0 else 0.0)
                if left < goal_best[i] - 0.25 * ri:
                    goal_best[i] = left
                    goal_stall[i] = 0.0
                else:
                    goal_stall[i] += dt
            if d > eps * 8.0:
                v = vi
                if slow == 0.0:
                    brake = 2.0 * ri
                    if d < brake:
                        v = vi * max(d / brake, 0.2)
                    v = min(v, d / dt)
                dvx, dvy = dx / d * v, dy / d * v
        drive[i, 0], drive[i, 1] = dvx, dvy


@njit(cache=True)
def crowd_step(
    dt, pos, vel, heading, radius, speed, cls, active, moving, arrived, stall, settled, slot, goal_stall, drive,
    sep_weight, settle, edges, grid, cell_ptr, cell_items, ref, eps,
):
    """Move every active unit by its ``drive`` (from :func:`crowd_steer`) plus separation for
    ``dt`` seconds.

    Separation pushes a unit away from neighbours closer than the sum of radii (a spatial hash
    finds them), ``sep_weight`` times its speed at a full-radius overlap. A unit on its way that
    has made no progress for a fifth of ``settle``, touches another on its way with a lower id
    and heads toward it stops driving for that frame (gives way): the lowest id of a jam always
    moves on, so two units never push each other to a standstill in a gap that only one fits
    through. A unit past its order's watch (``goal_stall`` over ``GIVE_UP_ALONE * settle``, or
    ``GIVE_UP_CROWDED * settle`` while it touches another unit) counts as arrived and
    ``settled`` where it stands. The speed is capped at 1.5 times the unit's; the move is a
    :func:`safe_move`, so a unit centre never ends inside a wall. Then one relaxation pass
    pushes overlapping pairs apart by a quarter of their overlap each (at most half a radius),
    again only by safe moves. ``vel`` gets the velocity over the step, ``heading`` the drive's
    direction of a unit on its way.
    """
    n = pos.shape[0]
    rmax = 0.0
    for i in range(n):
        if active[i]:
            rmax = max(rmax, radius[i])
    hcs = max(2.0 * rmax, 1e-9)
    near = np.empty(18, np.int64)
    newpos = pos.copy()
    crowded = np.empty(n, np.bool_)  # (np.empty only: the one numpy allocation every kernel compiles)
    for i in range(n):
        crowded[i] = False
    for rnd in range(2):
        # round 0: drive and separation; round 1: relaxation of the pairs that overlapped
        now = pos if rnd == 0 else newpos
        start, order, mask = hash_points(now, active, hcs)
        for i in range(n):
            if not active[i]:
                continue
            px, py = now[i, 0], now[i, 1]
            ri, vi, ci = radius[i], speed[i], cls[i]
            if rnd == 1 and not crowded[i]:
                pos[i, 0], pos[i, 1] = px, py
                continue
            dvx, dvy = drive[i, 0], drive[i, 1]
            going = rnd == 0 and moving[i] and not arrived[i] and stall[i] > 0.2 * settle
            # the others closer than the sum of radii: the sums of the directions away from each
            # weighted by the overlap over the radii sum (wx, wy) and by the overlap (ox, oy),
            # whether any overlaps, and whether this unit must give way (it drives toward one with
            # a lower id that is on its way too); units on one point are split by index
            wx, wy, ox, oy = 0.0, 0.0, 0.0, 0.0
            touched, give_way = False, False
            for q in range(near_runs(px, py, hcs, mask, near)):
                for k in range(start[near[2 * q]], start[near[2 * q + 1] + 1]):
                    j = order[k]
                    if j == i:
                        continue
                    ddx, ddy = px - now[j, 0], py - now[j, 1]
                    rr = ri + radius[j]
                    d2 = ddx * ddx + ddy * ddy
                    if d2 >= rr * rr:
                        continue
                    touched = True
                    if j < i and going and moving[j] and not arrived[j] and dvx * -ddx + dvy * -ddy > 0.0:
                        give_way = True
                    if d2 > 0.0:
                        dd = math.sqrt(d2)
                        ux, uy = ddx / dd, ddy / dd
                    else:
                        ang = 2.399963 * (i - j)
                        ux, uy, dd = math.cos(ang), math.sin(ang), 0.0
                    wx += ux * (rr - dd) / rr
                    wy += uy * (rr - dd) / rr
                    ox += ux * (rr - dd)
                    oy += uy * (rr - dd)
            if rnd == 1:
                cx_, cy_ = 0.25 * ox, 0.25 * oy
                cl = math.sqrt(cx_ * cx_ + cy_ * cy_)
                if cl > 0.5 * ri:
                    cx_, cy_ = cx_ / cl * 0.5 * ri, cy_ / cl * 0.5 * ri
            else:
                crowded[i] = touched
                if give_way:
                    dvx, dvy = 0.0, 0.0
                if moving[i] and not arrived[i] and goal_stall[i] > (GIVE_UP_CROWDED if touched else GIVE_UP_ALONE) * settle:
                    # no route cost won for that long, re-plans and slot trades included: it
                    # finishes where it stands ("arrived near": settled)
                    arrived[i] = True
                    settled[i] = True
                    slot[i, 0], slot[i, 1] = px, py
                    dvx, dvy = 0.0, 0.0
                vx = dvx + wx * sep_weight * vi
                vy = dvy + wy * sep_weight * vi
                vmax = vi * 1.5
                vv = math.sqrt(vx * vx + vy * vy)
                if vv > vmax:
                    vx, vy = vx / vv * vmax, vy / vv * vmax
                cx_, cy_ = vx * dt, vy * dt
            qx, qy = px, py
            if cx_ != 0.0 or cy_ != 0.0:  # (most of a crowd stands still on its slots)
                # (one call site for both rounds: the move is compiled once into this kernel)
                qx, qy = safe_move(px, py, px + cx_, py + cy_, ci, edges, grid, cell_ptr, cell_items, ref, eps)
            if rnd == 1:
                pos[i, 0], pos[i, 1] = qx, qy  # (the others still read where the first round left it)
                continue
            newpos[i, 0], newpos[i, 1] = qx, qy
            vel[i, 0], vel[i, 1] = (qx - px) / dt, (qy - py) / dt
            if moving[i] and not arrived[i] and (dvx != 0.0 or dvy != 0.0):
                heading[i] = math.atan2(dvy, dvx)

plain_arguments(globals())
