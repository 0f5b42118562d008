"""Plain numpy reference of the progressive profile-profile DP (the oracle of the kernel).

Written from the recurrence in ``kernels/progressive_profile.cl``'s header, cell by cell in
Python (slow, for small profiles only), with the same tie order: M before IX before IY on the
diagonal; for IX: open from M, extend, open from IY; for IY: open from M, open from IX, extend.
"""

from __future__ import annotations

import numpy as np

NEG = -1.0e30


def open_factor(g: np.ndarray) -> np.ndarray:
    """h(c) = 2 - g(c) - g(c+1), with g past the last column taken as 0."""
    return 2.0 - g - np.append(g[1:], 0.0)


def profile_dp(fx, gx, fy, gy, matrix, go, ge, eo, ee):
    """Best score and moves (0 both, 1 X only, 2 Y only) of two profiles.

    fx (LX, A), gx (LX,): residue frequencies and gap fractions; same for Y; scores in
    Biopython's sign convention (go/ge/eo/ee negative).
    """
    f32 = np.float32
    LX, LY = len(gx), len(gy)
    oh, end_open = f32(0.5 * (go - ge)), f32(eo - ee)
    ge, ee = f32(ge), f32(ee)
    hx, hy = open_factor(gx).astype(f32), open_factor(gy).astype(f32)
    S = (fx.astype(np.float64) @ matrix @ fy.T.astype(np.float64)).astype(f32)
    M = np.full((LX + 1, LY + 1), NEG, dtype=np.float64)
    IX = np.full_like(M, NEG)
    IY = np.full_like(M, NEG)
    tb = np.zeros((LX + 1, LY + 1, 3), dtype=np.int8)
    M[0, 0] = 0.0
    run = 0.0
    for j in range(1, LY + 1):
        occ = f32(1) - gy[j - 1]
        run += float((end_open * occ if j == 1 else 0) + ee * occ)
        IY[0, j] = run
    for i in range(1, LX + 1):
        occx = 1 - gx[i - 1]
        IX[i, 0] = max(M[i - 1, 0] + end_open * occx, IX[i - 1, 0]) + ee * occx
        openx = end_open if i == LX else oh * hx[i - 1]
        for j in range(1, LY + 1):
            cands = [M[i - 1, j - 1], IX[i - 1, j - 1], IY[i - 1, j - 1]]
            d = int(np.argmax(cands))
            M[i, j] = cands[d] + S[i - 1, j - 1]
            oy = (end_open if j == LY else oh * hy[j - 1]) * occx
            cands = [M[i - 1, j] + oy, IX[i - 1, j], IY[i - 1, j] + oy]
            dx = int(np.argmax(cands))
            IX[i, j] = cands[dx] + (ee if j == LY else ge) * occx
            ox = openx * (1 - gy[j - 1])
            cands = [M[i, j - 1] + ox, IX[i, j - 1] + ox, IY[i, j - 1]]
            dy = int(np.argmax(cands))
            IY[i, j] = cands[dy] + (ee if i == LX else ge) * (1 - gy[j - 1])
            tb[i, j] = (d, dx, dy)
    fin = [M[LX, LY], IX[LX, LY], IY[LX, LY]]
    state = int(np.argmax(fin))
    best = fin[state]
    moves = []
    i, j = LX, LY
    while i > 0 or j > 0:
        if i == 0:
            state = 2
        elif j == 0:
            state = 1
        nxt = state if (i == 0 or j == 0) else int(tb[i, j, state])
        moves.append(state)
        if state == 0:
            i, j = i - 1, j - 1
        elif state == 1:
            i -= 1
        else:
            j -= 1
        state = nxt
    return best, np.array(moves[::-1], dtype=np.uint8)


def score_of_moves(moves, fx, gx, fy, gy, matrix, go, ge, eo, ee) -> float:
    """Score of a given path under the same model (to compare co-optimal paths)."""
    LX, LY = len(gx), len(gy)
    hx, hy = open_factor(gx), open_factor(gy)
    total, i, j, prev = 0.0, 0, 0, 0
    for mv in moves:
        if mv == 0:
            total += float(fx[i] @ matrix @ fy[j])
            i, j = i + 1, j + 1
        elif mv == 1:
            end = j in (0, LY)
            if prev != 1:
                total += ((eo - ee) if end else 0.5 * (go - ge) * hy[j - 1]) * (1 - gx[i])
            total += (ee if end else ge) * (1 - gx[i])
            i += 1
        else:
            end = i in (0, LX)
            if prev != 2:
                total += ((eo - ee) if end else 0.5 * (go - ge) * hx[i - 1]) * (1 - gy[j])
            total += (ee if end else ge) * (1 - gy[j])
            j += 1
        prev = mv
    return total
