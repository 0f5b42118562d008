/* Blocked Floyd-Warshall (thesis §6.1.3, SPDP class), phases 1 and 2 of a round.
 *
 * D is n x n (n a multiple of BS), row-major, min-plus. Round kb pivots on the nodes
 * p0 .. p0+BS-1 (p0 = kb*BS):
 *   phase 1: the diagonal block (kb, kb) closes itself over those pivots (one work-group);
 *   phase 2: every block of row kb and of column kb relaxes through the same pivots, using
 *            the closed diagonal block (2 (nb - 1) work-groups, group g < nb - 1 a row block);
 *   phase 3: every other block takes min(D, D[:, panel] (x) D[panel, :]), a min-plus
 *            product of the panels (tropical_mm with ACCUM, skipping the panel's tiles).
 * Phases 1 and 2 run the plain recurrence D[i][j] = min(D[i][j], D[i][k] + D[k][j]) for
 * k = p0 .. p0+BS-1 in order. The group's block lives in registers (TB x TB items, RB x RB
 * cells each, rows ty + a*TB and columns tx + b*TB so that global reads are coalesced): a
 * BS x BS block of doubles does not fit local memory, and a global-memory loop pays a cache
 * round trip per cell per pivot. Before pivot k, row k and column k are published to local
 * memory, by their owners when they lie in the block, else read from the diagonal block
 * (which phase 2 only reads). At pivot k, row k and column k do not change unless
 * D[k][k] < 0; with a negative cycle every value is still the length of some walk and the
 * diagonal still turns negative, which the host reports.
 *
 * PRED: P[i][j] (the node before j on the path from i) follows an improvement: P[k][j].
 * Defines: REAL_IS_DOUBLE, TB, RB (BS = TB * RB), PRED.
 */
#include "real.h"

#define BS (TB * RB)

__kernel __attribute__((reqd_work_group_size(TB, TB, 1)))
void fw_panel(__global real *D, __global int *P, uint n, uint kb, uint phase) {
    uint g = get_group_id(0), nb = n / BS;
    uint rb = kb, cb = kb;
    if (phase == 2) {
        uint o = g % (nb - 1);
        uint other = o + (o >= kb ? 1 : 0);
        if (g < nb - 1) cb = other; else rb = other;
    }
    /* Row k of the pivots lies in this block when it is in the pivot row of blocks; column
     * k when it is in the pivot column. Otherwise they come from the diagonal block. */
    int row_own = rb == kb, col_own = cb == kb;
    ulong r0 = (ulong)rb * BS, c0 = (ulong)cb * BS, p0 = (ulong)kb * BS;
    uint tx = get_local_id(0), ty = get_local_id(1), lid = ty * TB + tx;
    __local real rowk[BS], colk[BS];
    __local int prowk[BS];

    real d[RB][RB];
#if PRED
    int p[RB][RB];
#endif
    for (uint a = 0; a < RB; a++)
        for (uint b = 0; b < RB; b++) {
            ulong at = (r0 + ty + a * TB) * n + c0 + tx + b * TB;
            d[a][b] = D[at];
#if PRED
            p[a][b] = P[at];
#endif
        }

    for (uint kk = 0; kk < BS; kk++) {
        uint ka = kk / TB, kt = kk % TB;
        if (row_own) {
            if (ty == kt)
                for (uint b = 0; b < RB; b++) {
                    rowk[tx + b * TB] = d[ka][b];
#if PRED
                    prowk[tx + b * TB] = p[ka][b];
#endif
                }
        } else {
            for (uint e = lid; e < BS; e += TB * TB) {
                ulong at = (p0 + kk) * n + c0 + e;
                rowk[e] = D[at];
#if PRED
                prowk[e] = P[at];
#endif
            }
        }
        if (col_own) {
            if (tx == kt)
                for (uint a = 0; a < RB; a++) colk[ty + a * TB] = d[a][ka];
        } else {
            for (uint e = lid; e < BS; e += TB * TB) colk[e] = D[(r0 + e) * n + p0 + kk];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint a = 0; a < RB; a++) {
            real dik = colk[ty + a * TB];
            for (uint b = 0; b < RB; b++) {
                real v = dik + rowk[tx + b * TB];
                if (v < d[a][b]) {
                    d[a][b] = v;
#if PRED
                    p[a][b] = prowk[tx + b * TB];
#endif
                }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    for (uint a = 0; a < RB; a++)
        for (uint b = 0; b < RB; b++) {
            ulong at = (r0 + ty + a * TB) * n + c0 + tx + b * TB;
            D[at] = d[a][b];
#if PRED
            P[at] = p[a][b];
#endif
        }
}

/* The padded distance matrix D (n x n) and predecessors from the graph's weights W
 * (n_real x n_real, row-major): missing edges (inf; with zero_missing also 0 and NaN, scipy's
 * dense convention) become inf, the diagonal 0, padding nodes are isolated. P[i][j] = i for
 * an edge i -> j, else -9999 (scipy's "no predecessor"). */
__kernel void fw_init(__global const real *W, uint n_real, uint n, uint zero_missing,
                      __global real *D, __global int *P) {
    ulong gid = get_global_id(0);
    if (gid >= (ulong)n * n) return;
    uint i = (uint)(gid / n), j = (uint)(gid % n);
    real v = INFINITY;
    if (i < n_real && j < n_real) {
        v = W[(ulong)i * n_real + j];
        if (isnan(v) || (zero_missing && v == 0)) v = INFINITY;
    }
    int edge = isfinite(v) && i != j;
    D[gid] = i == j ? (real)0 : v;
#if PRED
    P[gid] = edge ? (int)i : -9999;
#endif
}
