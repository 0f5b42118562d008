/* Optimal score of three sequences (seed 004): the LAYERED partitioning, linear gaps.
 *
 * The seed's first algorithm, kept to compare with SLOPED (three_sloped.cl, which the
 * alignment uses). Tiles are cuboids of T x T x D cells (i, j, k); a tile is computed layer by
 * layer (fixed k), each layer by anti-diagonals of (i, j) with one barrier each: 2T - 1 steps
 * a layer, work-item r owning row I0 + r. Two layers live in local memory (the seed keeps the
 * current and the previous one, round robin). As in three_sloped.cl, one launch per tile
 * diagonal ci + cj + ck (no tile waits for another inside a launch), and neighbours hand over
 * faces through global memory, indexed by k:
 *   iface[ci][j][k]   row I0 + T - 1 of tile row ci,
 *   jface[cj][i][k]   column J0 + T - 1 of tile column cj,
 *   kface[ci][cj][..] the last layer of the tile column's latest tile (overwritten).
 * Recurrence: the seed's 7 cases; G2 = 2 * gap for a column with one or two residues.
 *
 * Defines: T (side of a layer, work-items), D (layers a tile).
 */
#include "common.h"

#define ALPHA 32
#define W (T + 1)          /* a layer with its row and column before the tile */

__kernel __attribute__((reqd_work_group_size(T, 1, 1)))
void three_layered(const int n1, const int n2, const int n3, const int nj, const int g2,
                   __global const uchar *sa, __global const uchar *sb,
                   __global const uchar *sc, __global const int *sub,
                   __global const int4 *tiles, const int first,
                   __global int *iface, __global int *jface, __global int *kface,
                   __global int *result)
{
    __local int subl[ALPHA * ALPHA];
    __local int lay[2 * W * W];
    __local int il[W * (D + 1)];      /* row I0-1, columns J0-1.., layers K0-1.. */
    __local int jl[T * (D + 1)];      /* column J0-1, rows I0.., layers K0-1.. */
    __local int ccode[D];
    __local int bcodes[T];
    const int4 t = tiles[first + get_group_id(0)];
    const int ci = t.x, cj = t.y, ck = t.z;
    const int I0 = ci * T, J0 = cj * T, K0 = ck * D;
    const int r = get_local_id(0);
    const int i = I0 + r;

    for (int x = r; x < ALPHA * ALPHA; x += T) subl[x] = sub[x];
    for (int x = r; x < W * (D + 1); x += T) {
        const int col = x / (D + 1), k = K0 - 1 + x % (D + 1), j = J0 - 1 + col;
        il[x] = (I0 > 0 && j >= 0 && j <= n2 && k >= 0 && k <= n3)
                    ? iface[((long)(ci - 1) * (n2 + 1) + j) * (n3 + 1) + k] : NEG_INF;
    }
    for (int x = r; x < T * (D + 1); x += T) {
        const int row = x / (D + 1), k = K0 - 1 + x % (D + 1), ii = I0 + row;
        jl[x] = (J0 > 0 && ii <= n1 && k >= 0 && k <= n3)
                    ? jface[((long)(cj - 1) * (n1 + 1) + ii) * (n3 + 1) + k] : NEG_INF;
    }
    bcodes[r] = (J0 + r >= 1 && J0 + r <= n2) ? sb[J0 + r - 1] : 0;
    for (int x = r; x < D; x += T) {
        const int k = K0 + x;
        ccode[x] = (k >= 1 && k <= n3) ? sc[k - 1] : 0;
    }
    /* layer K0 - 1: the tile column's last layer, or nothing (k < 0) */
    const long kbase = ((long)ci * nj + cj) * T * T;
    {
        const int p = (K0 - 1) & 1;
        for (int c = 0; c < T; c++)
            lay[(p * W + r + 1) * W + c + 1] = (ck > 0) ? kface[kbase + r * T + c] : NEG_INF;
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    const int acode = (i >= 1 && i <= n1) ? sa[i - 1] : 0;
    const int arow = acode * ALPHA;

    for (int kk = 0; kk < D; kk++) {
        const int k = K0 + kk, p = k & 1, o = p ^ 1;
        /* the row and column before the tile, for this layer and the one before */
        lay[(o * W + 0) * W + r + 1] = il[(r + 1) * (D + 1) + kk];
        lay[(o * W + r + 1) * W + 0] = jl[r * (D + 1) + kk];
        lay[(p * W + 0) * W + r + 1] = il[(r + 1) * (D + 1) + kk + 1];
        lay[(p * W + r + 1) * W + 0] = jl[r * (D + 1) + kk + 1];
        if (r == 0) {
            lay[(o * W + 0) * W + 0] = il[kk];
            lay[(p * W + 0) * W + 0] = il[kk + 1];
        }
        const int cc = ccode[kk];
        const int sac = subl[arow + cc];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int a = 0; a < 2 * T - 1; a++) {
            const int c = a - r;
            if (c >= 0 && c < T) {
                const int j = J0 + c;
                const int bcode = bcodes[c];
                const int sab = subl[arow + bcode];
                const int sbc = subl[bcode * ALPHA + cc];
                __local const int *cur = lay + p * W * W;
                __local const int *prv = lay + o * W * W;
                const int x = (r + 1) * W + c + 1;
                const int c7 = prv[x - W - 1] + sab + sac + sbc;
                const int c3 = cur[x - W - 1] + sab + g2;
                const int c5 = prv[x - W] + sac + g2;
                const int c6 = prv[x - 1] + sbc + g2;
                const int c1 = cur[x - W] + g2;
                const int c2 = cur[x - 1] + g2;
                const int c4 = prv[x] + g2;
                int h = max(max(max(c7, c3), max(c5, c6)), max(max(c1, c2), c4));
                if (k > n3) h = NEG_INF;
                if (i == 0 && j == 0 && k == 0) h = 0;
                lay[p * W * W + x] = h;
                const int inside = (i <= n1 && j <= n2 && k <= n3);
                if (inside && r == T - 1 && i < n1)
                    iface[((long)ci * (n2 + 1) + j) * (n3 + 1) + k] = h;
                if (inside && c == T - 1 && cj + 1 < nj)
                    jface[((long)cj * (n1 + 1) + i) * (n3 + 1) + k] = h;
                if (inside && i == n1 && j == n2 && k == n3) result[0] = h;
                if (kk == D - 1) kface[kbase + r * T + c] = h;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
}
