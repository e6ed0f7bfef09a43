"""numba kernel of the crowd update: steering along shared routes, shortcuts, separation and
wall sliding for every unit in one call (:func:`crowd_step`; the arrays are those of
:class:`navmesh.steering.Crowd`, the walls those of :class:`navmesh.steering.Walls`).

Kernels trust their inputs and also run as plain Python with ``NUMBA_DISABLE_JIT=1``.
"""

from __future__ import annotations

import math

import numpy as np

from navmesh._kernels.buckets import hash_points, near_buckets
from navmesh._kernels.signatures import njit, plain_arguments
from navmesh._kernels.walls import safe_move, target_visible


@njit(cache=True)
def crowd_step(
    dt, frame, pos, vel, heading, radius, speed, cls, active, moving, arrived, cur, lost, stuck, stall, best,
    settled, tries, slot, slot_mult, min_mult, route_xy, route_next, route_rest, route_mult, sep_weight, settle, barrier,
    edges, grid, cell_ptr, cell_items, ref, eps,
):
    """Advance every active unit by ``dt`` seconds.

    Per unit with an order (``moving``): steer toward its current route point (``route_xy[cur]``;
    ``cur = -1`` means its own slot; units keep holding their slot after arriving). A route
    point counts as reached within a tenth of a radius (or one step), or within one radius when
    the point after it (or the slot) is in sight from where the unit stands, so a unit never
    turns toward a point it cannot walk to (a door corner). It skips to the following point, or
    straight to the slot, when the straight walk there is free, crosses no terrain boundary
    (class ``barrier``) and does not raise the unit's cost (checked on one frame in four,
    staggered; a unit that cannot see its current target and has made no progress toward it
    for a fifth of ``settle`` is flagged ``lost`` so the caller can route it again: a unit that
    slides round a wall toward a point it cannot see yet keeps going). It slows down within two radii of the slot and stops on it (``arrived``
    once within a tenth of a radius). ``best`` holds the closest the unit came to its current
    target and ``stall`` the seconds since it last came closer by a fiftieth of a radius: after
    ``settle`` seconds without progress, on an even count of ``tries``, a unit is flagged
    ``stuck`` (the caller trades its slot with a groupmate's or plans it a path of its own from
    where it stands, and counts the attempt in ``tries``); on an odd count, a unit on its route
    skips to the point after its current one (and counts that), and a unit heading for its
    slot in sight counts as arrived where it stands (others hold it off its slot: the group
    still finishes; ``settled``, it then stands wherever separation leaves it). A unit on its way
    that has made no progress for a fifth of ``settle``, touches another on its way with a
    lower id and heads toward it stops driving for that frame (gives way): the lowest id of a jam always moves on, so two units never push each
    other to a standstill in a gap that only one fits through. A shortcut lies in one terrain class, so its cost is its length times the
    multiplier at its end (``route_mult`` of the row, ``slot_mult`` for the slot); the route it
    replaces costs at least the distance to the current point times the unit type's smallest
    multiplier (``min_mult``) plus the route cost between the rows (``route_rest``: cost from a row
    to the route's end). A zero multiplier (grids) skips the cost test; add
    separation from neighbours closer than the sum of radii (found by a spatial hash); move with
    :func:`safe_move`, so a unit centre never ends inside a wall. Then one relaxation pass pushes
    overlapping pairs apart, again only by safe moves.
    """
    n = pos.shape[0]
    buf = np.empty(4096, np.int64)
    rmax = 0.0
    for i in range(n):
        if active[i]:
            rmax = max(rmax, radius[i])
    hcs = max(2.0 * rmax, 1e-9)
    start, order, mask = hash_points(pos, active, hcs)
    near = np.empty(9, np.int64)
    newpos = pos.copy()
    crowded = np.zeros(n, np.bool_)
    for i in range(n):
        if not active[i]:
            continue
        px, py = pos[i, 0], pos[i, 1]
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
                reach = max(0.1 * radius[i], speed[i] * dt)
                nxt = route_next[c]
                d2 = (tx - px) ** 2 + (ty - py) ** 2
                if d2 <= reach * reach:
                    c = nxt
                    continue
                if d2 <= radius[i] * radius[i]:
                    if nxt >= 0:
                        ax_, ay_ = route_xy[nxt, 0], route_xy[nxt, 1]
                    else:
                        ax_, ay_ = slot[i, 0], slot[i, 1]
                    if target_visible(px, py, ax_, ay_, cls[i], -1, edges, grid, cell_ptr, cell_items, ref, eps, buf):
                        c = nxt
                        continue
                    if nxt < 0:  # at the route's end and the slot out of sight: route it anew
                        lost[i] = True
                if (i + frame) % 4 == 0:
                    # a lower bound of the route's cost from here to its end / to the next row
                    here = math.sqrt((tx - px) ** 2 + (ty - py) ** 2) * min_mult[i]
                    sx_, sy_ = slot[i, 0], slot[i, 1]
                    to_slot = math.sqrt((sx_ - px) ** 2 + (sy_ - py) ** 2) * slot_mult[i]
                    if to_slot <= (here + route_rest[c]) * (1.0 + 1e-9) and target_visible(
                        px, py, sx_, sy_, cls[i], barrier, edges, grid, cell_ptr, cell_items, ref, eps, buf
                    ):
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
                    if short <= along * (1.0 + 1e-9) and target_visible(
                        px, py, ax_, ay_, cls[i], barrier, edges, grid, cell_ptr, cell_items, ref, eps, buf
                    ):
                        c = nxt
                        continue
                    if stall[i] > 0.2 * settle and not target_visible(
                        px, py, tx, ty, cls[i], -1, edges, grid, cell_ptr, cell_items, ref, eps, buf
                    ):
                        lost[i] = True
                break
            if (
                c < 0
                and (i + frame) % 4 == 0
                and not arrived[i]
                and stall[i] > 0.2 * settle
                and not target_visible(px, py, slot[i, 0], slot[i, 1], cls[i], -1, edges, grid, cell_ptr, cell_items, ref, eps, buf)
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
            if c < 0 and d <= 0.1 * radius[i] + eps * 8.0:
                arrived[i] = True
            if c != c0:
                best[i] = math.inf
                stall[i] = 0.0
            if arrived[i]:
                stall[i] = 0.0
            elif d < best[i] - 0.02 * radius[i]:
                best[i] = d
                stall[i] = 0.0
            else:
                stall[i] += dt
                if stall[i] > settle:
                    stall[i] = 0.0
                    best[i] = d
                    if tries[i] % 2 == 0 or (
                        c < 0
                        and not target_visible(px, py, tx, ty, cls[i], -1, edges, grid, cell_ptr, cell_items, ref, eps, buf)
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
            if d > eps * 8.0:
                v = speed[i]
                if slow == 0.0:
                    brake = 2.0 * radius[i]
                    if d < brake:
                        v = speed[i] * max(d / brake, 0.2)
                    v = min(v, d / dt)
                dvx, dvy = dx / d * v, dy / d * v
        # separation; a unit on its way that has made no progress for a fifth of ``settle`` and
        # touches one with a lower id, also on its way, and heads toward it gives way (stops
        # driving), so two never push each other to a standstill in a gap only one fits through
        going = moving[i] and not arrived[i] and stall[i] > 0.2 * settle
        give_way = False
        sx, sy = 0.0, 0.0
        for q in range(near_buckets(px, py, hcs, mask, near)):
            cc = near[q]
            for k in range(start[cc], start[cc + 1]):
                j = order[k]
                if j == i:
                    continue
                ddx, ddy = px - pos[j, 0], py - pos[j, 1]
                rr = radius[i] + radius[j]
                d2 = ddx * ddx + ddy * ddy
                if d2 >= rr * rr:
                    continue
                crowded[i] = True
                if j < i and going and moving[j] and not arrived[j] and dvx * -ddx + dvy * -ddy > 0.0:
                    give_way = True
                if d2 > 0.0:
                    dd = math.sqrt(d2)
                    w = (rr - dd) / rr
                    sx += ddx / dd * w
                    sy += ddy / dd * w
                else:
                    # same point: split by index so the pair separates deterministically
                    ang = 2.399963 * (i - j)
                    sx += math.cos(ang)
                    sy += math.sin(ang)
        if give_way:
            dvx, dvy = 0.0, 0.0
        vx = dvx + sx * sep_weight * speed[i]
        vy = dvy + sy * sep_weight * speed[i]
        vmax = speed[i] * 1.5
        vv = math.sqrt(vx * vx + vy * vy)
        if vv > vmax:
            vx, vy = vx / vv * vmax, vy / vv * vmax
            vv = vmax
        qx, qy = px, py
        if vx != 0.0 or vy != 0.0:  # (most of a crowd stands still on its slots)
            qx, qy = safe_move(px, py, px + vx * dt, py + vy * dt, cls[i], edges, grid, cell_ptr, cell_items, ref, eps, buf)
        newpos[i, 0], newpos[i, 1] = qx, qy
        vel[i, 0], vel[i, 1] = (qx - px) / dt, (qy - py) / dt
        if moving[i] and not arrived[i] and (dvx != 0.0 or dvy != 0.0):
            heading[i] = math.atan2(dvy, dvx)
    # one relaxation pass over the units that overlapped someone: overlapping pairs move apart by
    # half their overlap each (safe moves); the units hashed again where they stand now
    start, order, mask = hash_points(newpos, active, hcs)
    for i in range(n):
        if not active[i]:
            continue
        px, py = newpos[i, 0], newpos[i, 1]
        if not crowded[i]:
            pos[i, 0], pos[i, 1] = px, py
            continue
        cx_, cy_ = 0.0, 0.0
        for q in range(near_buckets(px, py, hcs, mask, near)):
            cc = near[q]
            for k in range(start[cc], start[cc + 1]):
                j = order[k]
                if j == i:
                    continue
                ddx, ddy = px - newpos[j, 0], py - newpos[j, 1]
                rr = radius[i] + radius[j]
                d2 = ddx * ddx + ddy * ddy
                if d2 >= rr * rr or d2 == 0.0:
                    continue
                dd = math.sqrt(d2)
                push = 0.25 * (rr - dd)
                cx_ += ddx / dd * push
                cy_ += ddy / dd * push
        if cx_ != 0.0 or cy_ != 0.0:
            lim = radius[i] * 0.5
            cl = math.sqrt(cx_ * cx_ + cy_ * cy_)
            if cl > lim:
                cx_, cy_ = cx_ / cl * lim, cy_ / cl * lim
            qx, qy = safe_move(px, py, px + cx_, py + cy_, cls[i], edges, grid, cell_ptr, cell_items, ref, eps, buf)
            pos[i, 0], pos[i, 1] = qx, qy
        else:
            pos[i, 0], pos[i, 1] = px, py


plain_arguments(globals())
