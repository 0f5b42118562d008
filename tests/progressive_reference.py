"""Plain numpy reference of the progressive profile-profile DP (the oracle of the kernel).

Written from the model in ``kernels/progressive_profile.cl``'s header, cell by cell in Python
(slow, for small profiles only), with the same tie order: M before IX before IY on the diagonal;
for IX: open from M, extend, open from IY; for IY: open from M, open from IX, extend.

A profile is the (L, A + 5) array of ``bioplug.progressive.pipeline.profile_columns``: residue
frequencies, then the fractions gap, segment start, first, last and span.
"""

from __future__ import annotations

import numpy as np

NEG = -1.0e30


class Prof:
    """Named columns of a profile array and the derived boundary factors."""

    def __init__(self, p: np.ndarray, A: int):
        p = p.astype(np.float32)
        self.f = p[:, :A]
        self.g, self.st, self.fi, self.la, self.sp = (p[:, A + k] for k in range(5))
        self.occ = np.float32(1) - self.g
        occ_next = np.append(self.occ[1:], np.float32(0))
        fi_next = np.append(self.fi[1:], np.float32(0))
        self.hi = (self.occ - self.la) + (occ_next - fi_next)
        self.he = self.la + fi_next
        self.L = len(self.g)

    def open_after(self, c: int, oh, end_open):
        """Open score base of a gap placed after 1-based column c."""
        if c in (0, self.L):
            return end_open
        return oh * self.hi[c - 1] + np.float32(0.5) * end_open * self.he[c - 1]

    def ext_after(self, c: int, ge, ee):
        if c in (0, self.L):
            return ee
        return ge * self.sp[c - 1] + ee * (np.float32(1) - self.sp[c - 1])


def profile_dp(px, py, A, matrix, go, ge, eo, ee):
    """Best score and moves (0 both, 1 X only, 2 Y only) of two profiles (scores negative)."""
    f32 = np.float32
    X, Y = Prof(px, A), Prof(py, A)
    LX, LY = X.L, Y.L
    oh, end_open, ge, ee = f32(0.5 * (go - ge)), f32(eo - ee), f32(ge), f32(ee)
    S = (X.f.astype(np.float64) @ matrix @ Y.f.T.astype(np.float64)).astype(f32)
    M = np.full((LX + 1, LY + 1), NEG, dtype=np.float64)
    IX = np.full_like(M, NEG)
    IY = np.full_like(M, NEG)
    tb = np.zeros((LX + 1, LY + 1, 3), dtype=np.int8)
    M[0, 0] = 0.0
    run = 0.0
    for j in range(1, LY + 1):
        run += float(end_open * (Y.occ[0] if j == 1 else Y.st[j - 1]) + ee * Y.occ[j - 1])
        IY[0, j] = run
    for i in range(1, LX + 1):
        occx, stx = X.occ[i - 1], X.st[i - 1]
        IX[i, 0] = max(M[i - 1, 0] + end_open * occx, IX[i - 1, 0] + end_open * stx) + ee * occx
        openx, extfx = X.open_after(i, oh, end_open), X.ext_after(i, ge, ee)
        for j in range(1, LY + 1):
            cands = [M[i - 1, j - 1], IX[i - 1, j - 1], IY[i - 1, j - 1]]
            d = int(np.argmax(cands))
            M[i, j] = cands[d] + S[i - 1, j - 1]
            oyb = Y.open_after(j, oh, end_open)
            cands = [M[i - 1, j] + oyb * occx, IX[i - 1, j] + oyb * stx, IY[i - 1, j] + oyb * occx]
            dx = int(np.argmax(cands))
            IX[i, j] = cands[dx] + Y.ext_after(j, ge, ee) * occx
            occy = Y.occ[j - 1]
            cands = [M[i, j - 1] + openx * occy, IX[i, j - 1] + openx * occy,
                     IY[i, j - 1] + openx * Y.st[j - 1]]
            dy = int(np.argmax(cands))
            IY[i, j] = cands[dy] + extfx * occy
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


def score_of_moves(moves, px, py, A, matrix, go, ge, eo, ee) -> float:
    """Score of a given path under the same model (to compare co-optimal paths)."""
    X, Y = Prof(px, A), Prof(py, A)
    oh, end_open = 0.5 * (go - ge), eo - ee
    total, i, j, prev = 0.0, 0, 0, 0
    for mv in moves:
        if mv == 0:
            total += float(X.f[i] @ matrix @ Y.f[j])
            i, j = i + 1, j + 1
        elif mv == 1:
            base = Y.open_after(j, oh, end_open)
            total += base * (X.occ[i] if prev != 1 else X.st[i])
            total += Y.ext_after(j, ge, ee) * X.occ[i]
            i += 1
        else:
            base = X.open_after(i, oh, end_open)
            total += base * (Y.occ[j] if prev != 2 else Y.st[j])
            total += X.ext_after(i, ge, ee) * Y.occ[j]
            j += 1
        prev = mv
    return total
