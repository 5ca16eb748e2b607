"""Model 2 — corner lines (Zero Dark FEAR): all-pairs LOS of a whole board at once.

:func:`corner_table` gives the same answers as
:func:`~fogofwar.core.sight.corner_report.corner_sees` for every pair of squares,
vectorised with numpy.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from .common import BoolArray, IntArray, VisibilityTable, _cyl_value, _int_grid
from .corner_trace import (
    _EV_CROSS_H,
    _EV_CROSS_V,
    _EV_END,
    _EV_PT,
    _EV_SQ,
    _check_walls,
    _halfedge,
    _obstacle_heights,
    _trace,
)

# --------------------------------------------------------------- whole-board table
# The squares, edges and points that a line from a viewer's centre to a corner of a
# target at offset (dr, dc) meets do not depend on where the viewer stands, so each line
# is traced once per offset ("template") and evaluated for every viewer position at once.
# Every thing a template can meet is reduced to one bit of one feature layer at a position
# relative to the viewer:
#   0 SQ   the square blocks                 (never the viewer's or the target's square)
#   1 WH   wall on an h-edge                 2 WV   wall on a v-edge
#   3 PTB  a "\" line (NW-SE) through the lattice point is stopped there: a pinch of the
#          NE and SW squares, or walls on both of its sides
#   4 PTS  the same for a "/" line (NE-SW)
# A line into the target corner coming from the opposite quadrant is a straight pass (PTB
# or PTS); from a neighbouring quadrant it only needs the half-edge between the two free
# of walls; from the target's own square it needs nothing. The pinch squares of a through
# pass are never the viewer's or target's square (a line cannot pass a corner of its end
# squares without entering them), so the features need no per-pair masking.
# Viewer positions are packed as bits: a layer shifted by a column offset is stored as one
# uint64 word (or more) per row, so one template evaluates for all viewers with a gather of
# h words per element and an OR.

_N_LAYERS: Final = 5
_BUCKET: Final = 8  # templates are padded to a multiple of this many elements


@dataclass(frozen=True, slots=True)
class _Plan:
    """Everything about the corner table that depends only on the board size."""

    nr: int  # padded rows per (layer, shift) block
    nshift: int
    # Per bucket: the offset indices it holds and their element rows, shape (n, 4, L).
    buckets: tuple[tuple[IntArray, IntArray], ...]


def _template_elements(dr: int, dc: int, kx: int, ky: int) -> list[tuple[int, int, int]]:
    """The (layer, i, j) features whose OR says the line from the viewer's centre to
    corner (kx, ky) of the square at offset (dr, dc) is blocked."""
    tx, ty = 2 * dc + 2 * kx, 2 * dr + 2 * ky
    # The target square, seen from its corner T, lies in this quadrant.
    q = {(0, 0): 3, (1, 0): 5, (0, 1): 1, (1, 1): 7}[(kx, ky)]
    out: list[tuple[int, int, int]] = []
    for ev in _trace(1, 1, tx, ty):
        code = ev[0]
        if code == _EV_SQ:
            if (ev[1], ev[2]) != (0, 0) and (ev[1], ev[2]) != (dr, dc):
                out.append((0, ev[1], ev[2]))
        elif code == _EV_CROSS_H:
            out.append((1, ev[1], ev[2]))
        elif code == _EV_CROSS_V:
            out.append((2, ev[1], ev[2]))
        elif code == _EV_PT:
            out.append((3 if ev[3] in (3, 7) else 4, ev[1], ev[2]))
        elif code == _EV_END:
            a = ev[3]
            if a == q:
                continue
            if (a - q) % 8 == 4:
                out.append((3 if a in (3, 7) else 4, ev[1], ev[2]))
            else:
                d = (a + 1) % 8 if (q - a) % 8 == 2 else (a - 1) % 8
                kind, er, ec = _halfedge(ev[1], ev[2], d)
                out.append((1 if kind == "h" else 2, er, ec))
    return out


# A plan for 32x32 holds about 10 MB of indices; a game uses one or two board sizes.
@functools.lru_cache(maxsize=4)
def _corner_plan(h: int, w: int) -> _Plan:
    """Trace every (offset, corner) line once and lay the templates out for gathering.

    Only lines going south-east (x and y both increasing) are traced; the other three
    quarters are their mirror images, mapped feature by feature (mirroring x sends
    square column j to -j, v-edge column j to 1-j, lattice column J to 1-J, and swaps the
    two diagonal point layers; mirroring y likewise for rows).
    """
    pad = h + 1
    nr = 3 * (h + 1)
    nshift = 2 * w + 1
    layer_l: list[int] = []
    i_l: list[int] = []
    j_l: list[int] = []
    key_l: list[tuple[int, int, int, int]] = []
    counts: list[int] = []
    for dr in range(h):
        for ky in (0, 1):
            if dr == 0 and ky == 0:
                continue
            for dc in range(w):
                for kx in (0, 1):
                    if dc == 0 and kx == 0:
                        continue
                    els = _template_elements(dr, dc, kx, ky)
                    key_l.append((dr, dc, kx, ky))
                    counts.append(len(els))
                    for el_layer, el_i, el_j in els:
                        layer_l.append(el_layer)
                        i_l.append(el_i)
                        j_l.append(el_j)
    layer0 = np.asarray(layer_l, dtype=np.int64)
    i0 = np.asarray(i_l, dtype=np.int64)
    j0 = np.asarray(j_l, dtype=np.int64)
    keys = np.asarray(key_l, dtype=np.int64).reshape(-1, 4)
    cnt = np.asarray(counts, dtype=np.int64)
    base_of = np.repeat(np.arange(len(cnt)), cnt)
    pos0 = np.arange(len(layer0)) - np.repeat(np.cumsum(cnt) - cnt, cnt)

    n_off = (2 * h - 1) * (2 * w - 1)
    lmax = int(cnt.max(initial=0)) + 1
    dummy = (0 * nshift + w) * nr + 0  # rows 0..h-1 of this block are padding: all zero
    idx = np.full((n_off * 4, lmax), dummy, dtype=np.int64)
    length = np.zeros(n_off * 4, dtype=np.int64)
    for fx in (False, True):
        for fy in (False, True):
            lay, ii, jj = layer0, i0, j0
            mdr, mdc, mkx, mky = keys[:, 0], keys[:, 1], keys[:, 2], keys[:, 3]
            if fx:
                jj = np.where(lay <= 1, -jj, 1 - jj)
                mdc, mkx = -mdc, 1 - mkx
            if fy:
                ii = np.where((lay == 0) | (lay == 2), -ii, 1 - ii)
                mdr, mky = -mdr, 1 - mky
            if fx != fy:
                lay = np.where(lay == 3, 4, np.where(lay == 4, 3, lay))
            tid = ((mdr + h - 1) * (2 * w - 1) + (mdc + w - 1)) * 4 + mky * 2 + mkx
            rows = (lay * nshift + (jj + w)) * nr + (ii + pad)
            idx[tid[base_of], pos0] = rows
            length[tid] = cnt
    per_off = length.reshape(n_off, 4).max(axis=1)
    per_off[n_off // 2] = 0  # offset (0, 0): the viewer's own square, set true later
    padded = (per_off + _BUCKET - 1) // _BUCKET * _BUCKET
    padded = np.maximum(padded, 1)
    idx3 = idx.reshape(n_off, 4, lmax)
    buckets: list[tuple[IntArray, IntArray]] = []
    for size in np.unique(padded):
        offs = np.flatnonzero(padded == size)
        block = np.full((len(offs), 4, int(size)), dummy, dtype=np.int64)
        take = min(int(size), lmax)
        block[:, :, :take] = idx3[offs, :, :take]
        offs.setflags(write=False)
        block.setflags(write=False)
        buckets.append((offs, block))
    return _Plan(nr=nr, nshift=nshift, buckets=tuple(buckets))


def _feature_layers(blocking: BoolArray, wh: BoolArray, wv: BoolArray) -> BoolArray:
    h, w = blocking.shape
    layers = np.zeros((_N_LAYERS, h + 1, w + 1), dtype=np.bool_)
    layers[0, :h, :w] = blocking
    layers[1, : h + 1, :w] = wh
    layers[2, :h, : w + 1] = wv
    bp = np.zeros((h + 2, w + 2), dtype=np.bool_)
    bp[1 : h + 1, 1 : w + 1] = blocking
    # Around lattice point (R, C): NE = (R-1, C), SE = (R, C), SW = (R, C-1), NW = (R-1, C-1).
    ne, se = bp[0 : h + 1, 1 : w + 2], bp[1 : h + 2, 1 : w + 2]
    sw, nw = bp[1 : h + 2, 0 : w + 1], bp[0 : h + 1, 0 : w + 1]
    vp = np.zeros((h + 2, w + 1), dtype=np.bool_)
    vp[1 : h + 1, :] = wv
    hp = np.zeros((h + 1, w + 2), dtype=np.bool_)
    hp[:, 1 : w + 1] = wh
    n, s = vp[0 : h + 1, :], vp[1 : h + 2, :]
    e, west = hp[:, 1 : w + 2], hp[:, 0 : w + 1]
    # The through-pass rule of _PASS for the two diagonal directions: a pinch of the two
    # squares off the line, or walls on both sides of it.
    layers[3] = (ne & sw) | ((n | e) & (s | west))
    layers[4] = (nw & se) | ((e | s) & (west | n))
    return layers


def _packed_shifts(layers: BoolArray, h: int, w: int, plan: _Plan) -> npt.NDArray[np.uint64]:
    """``out[word, (layer * nshift + j + w) * nr + pad + row]``: bit vc = layer[row, vc + j]."""
    nwords = (w + 63) // 64
    pad = h + 1
    out = np.zeros((_N_LAYERS, plan.nshift, plan.nr, nwords), dtype=np.uint64)
    shifted = np.zeros((_N_LAYERS, h + 1, nwords * 64), dtype=np.bool_)
    for si, j in enumerate(range(-w, w + 1)):
        shifted[:] = False
        lo, hi = max(0, -j), min(w, w + 1 - j)
        if lo < hi:
            shifted[:, :, lo:hi] = layers[:, :, lo + j : hi + j]
        packed = np.packbits(shifted, axis=-1, bitorder="little")
        out[:, si, pad : pad + h + 1, :] = packed.view(np.uint64)
    return np.ascontiguousarray(out.reshape(-1, nwords).T)


def _corner_visibility(blocking: BoolArray, wh: BoolArray, wv: BoolArray) -> BoolArray:
    h, w = blocking.shape
    nwords = (w + 63) // 64
    plan = _corner_plan(h, w)
    words = _packed_shifts(_feature_layers(blocking, wh, wv), h, w, plan)
    n_off = (2 * h - 1) * (2 * w - 1)
    vis_words = np.zeros((n_off, h, nwords), dtype=np.uint64)
    for wd in range(nwords):
        # windows[k] = the h consecutive rows starting at k: one element's rows for every
        # viewer row at once (a strided view, so the gather copies contiguous runs).
        windows = np.lib.stride_tricks.sliding_window_view(words[wd], h)
        for offs, block in plan.buckets:
            per = block.shape[1] * block.shape[2] * h
            step = max(1, 1_000_000 // per)  # keep each gather around 8 MB
            for s0 in range(0, len(offs), step):
                sel = block[s0 : s0 + step]
                got = windows[sel.reshape(-1)].reshape(*sel.shape, h)
                blocked = np.bitwise_or.reduce(got, axis=2)  # each corner line
                # LOS when at least one of the four corner lines is unblocked.
                vis_words[offs[s0 : s0 + step], :, wd] = ~np.bitwise_and.reduce(blocked, axis=1)
    rel = np.unpackbits(vis_words.view(np.uint8), axis=-1, bitorder="little")[..., :w]
    vr = np.arange(h)[:, None, None, None]
    vc = np.arange(w)[None, :, None, None]
    tr = np.arange(h)[None, None, :, None]
    tc = np.arange(w)[None, None, None, :]
    off = (tr - vr + h - 1) * (2 * w - 1) + (tc - vc + w - 1)
    vis: BoolArray = rel[off, vr, vc].astype(np.bool_)
    d = np.arange(h * w)
    vis.reshape(h * w, h * w)[d, d] = True
    return vis


@dataclass(frozen=True, slots=True, eq=False)
class CornerTable(VisibilityTable):
    """All-pairs corner-line LOS: ``visible[vr, vc, tr, tc]`` (read-only).

    Centre origin, no facing, one-square viewer and target, terrain (and any occupants
    passed) and walls; built by :func:`corner_table`.
    """

    viewer_cyl: int


def corner_table(
    cyl: Any,
    walls_h: Any,
    walls_v: Any,
    *,
    viewer_cyl: int,
    occupants: Mapping[Any, int] | None = None,
) -> CornerTable:
    """All-pairs FR-L1 LOS (centre origin, no facing) for a viewer of ``viewer_cyl``.

    Gives the same answers as :func:`corner_sees` for every pair, vectorised with numpy;
    the per-board-size line templates are cached.
    """
    cy = _int_grid("cyl", cyl)
    h, w = cy.shape
    wh, wv = _check_walls(walls_h, walls_v, h, w)
    vcyl = _cyl_value("viewer_cyl", viewer_cyl)
    heights = _obstacle_heights(cy, occupants)
    vis = _corner_visibility(heights >= vcyl, wh, wv)
    vis.setflags(write=False)
    return CornerTable(vis, vcyl)
