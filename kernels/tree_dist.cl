/* All-vs-all distances for tree building: k-tuple sharing and alignment p-distance.
 *
 * Both kernels tile the N x N pair matrix like a matrix product: a work-group of LS x LS
 * items computes a T x T tile of pairs (T = LS * RB, each item RB x RB pairs held in
 * registers), staging TK columns of the two row blocks in local memory per step. Only tiles
 * on or above the diagonal run; each writes d(i, j) and d(j, i).
 *
 *   ktuple_dist : rows are k-tuple count vectors (ushort); shared = sum_t min(cx[t], cy[t]);
 *                 p = 1 - shared / min(total_x, total_y).
 *   msa_pdist   : rows are aligned sequences (uchar codes, GAP = 255); over columns where
 *                 both have a residue, p = 1 - identical / compared.
 *   msa_pdist_resampled : msa_pdist of a batch of bootstrap replicates (group id 2), each a
 *                 list of column indices into the alignment; writes each replicate's packed
 *                 strict lower triangle (the NJ loop's layout) at out + b * stride.
 * The distance is CORRECT(p): 0 none, 1 Kimura protein (-ln(1 - p - p^2/5)), 2 Jukes-Cantor
 * (-3/4 ln(1 - 4p/3)); each capped at MAX_DISTANCE where undefined.  p = 1 when nothing
 * can be compared.
 *
 * Defines: REAL_IS_DOUBLE, LS (local side), RB (register block), TK (columns per step),
 *          CORRECTION, MAX_DISTANCE.
 */
#include "common.h"
#include "real.h"

#define T (LS * RB)
#define GAP 255

inline real correct(real p) {
#if CORRECTION == 1
    real x = (real)1 - p - (real)0.2 * p * p;
    return x > exp(-(real)MAX_DISTANCE) ? -log(x) : (real)MAX_DISTANCE;
#elif CORRECTION == 2
    real x = (real)1 - (real)4 * p / (real)3;
    return x > exp(-(real)MAX_DISTANCE / (real)0.75) ? -(real)0.75 * log(x) : (real)MAX_DISTANCE;
#else
    return p;
#endif
}

__kernel __attribute__((reqd_work_group_size(LS, LS, 1)))
void ktuple_dist(__global const ushort *C, uint n, uint width, __global const uint *totals,
                 __global real *out) {
    uint bi = get_group_id(1), bj = get_group_id(0);
    if (bi > bj) return; /* whole group leaves together: no barrier reached */
    uint tx = get_local_id(0), ty = get_local_id(1);
    uint lid = ty * LS + tx;
    __local ushort As[T][TK + 1];
    __local ushort Bs[T][TK + 1];
    uint acc[RB][RB];
    for (uint r = 0; r < RB; r++)
        for (uint c = 0; c < RB; c++) acc[r][c] = 0;
    uint row0 = bi * T, col0 = bj * T;
    for (uint k0 = 0; k0 < width; k0 += TK) {
        for (uint e = lid; e < T * TK; e += LS * LS) {
            uint rr = e / TK, kk = e % TK;
            uint ra = row0 + rr, rb = col0 + rr;
            As[rr][kk] = ra < n ? C[(ulong)ra * width + k0 + kk] : 0;
            Bs[rr][kk] = rb < n ? C[(ulong)rb * width + k0 + kk] : 0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint kk = 0; kk < TK; kk++) {
            uint a[RB], b[RB];
            for (uint r = 0; r < RB; r++) a[r] = As[ty + r * LS][kk];
            for (uint c = 0; c < RB; c++) b[c] = Bs[tx + c * LS][kk];
            for (uint r = 0; r < RB; r++)
                for (uint c = 0; c < RB; c++) acc[r][c] += min(a[r], b[c]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (uint r = 0; r < RB; r++) {
        uint i = row0 + ty + r * LS;
        if (i >= n) continue;
        for (uint c = 0; c < RB; c++) {
            uint j = col0 + tx + c * LS;
            if (j >= n || j < i) continue;
            uint m = min(totals[i], totals[j]);
            real p = m ? (real)1 - (real)acc[r][c] / (real)m : (real)1;
            real d = i == j ? (real)0 : correct(p);
            out[(ulong)i * n + j] = d;
            out[(ulong)j * n + i] = d;
        }
    }
}

/* One staged slab of TK columns into each item's RB x RB counts of residue pairs (both)
 * and identical pairs (same): shared by the plain and the resampled (bootstrap) kernels. */
inline void count_slab(__local const uchar (*As)[TK + 1], __local const uchar (*Bs)[TK + 1],
                       uint tx, uint ty, uint same[RB][RB], uint both[RB][RB]) {
    for (uint kk = 0; kk < TK; kk++) {
        uint a[RB], b[RB];
        for (uint r = 0; r < RB; r++) a[r] = As[ty + r * LS][kk];
        for (uint c = 0; c < RB; c++) b[c] = Bs[tx + c * LS][kk];
        for (uint r = 0; r < RB; r++)
            for (uint c = 0; c < RB; c++) {
                uint ok = (a[r] != GAP) & (b[c] != GAP);
                both[r][c] += ok;
                same[r][c] += ok & (a[r] == b[c]);
            }
    }
}

__kernel __attribute__((reqd_work_group_size(LS, LS, 1)))
void msa_pdist(__global const uchar *S, uint n, uint width, __global real *out) {
    uint bi = get_group_id(1), bj = get_group_id(0);
    if (bi > bj) return;
    uint tx = get_local_id(0), ty = get_local_id(1);
    uint lid = ty * LS + tx;
    __local uchar As[T][TK + 1];
    __local uchar Bs[T][TK + 1];
    uint same[RB][RB], both[RB][RB];
    for (uint r = 0; r < RB; r++)
        for (uint c = 0; c < RB; c++) same[r][c] = both[r][c] = 0;
    uint row0 = bi * T, col0 = bj * T;
    for (uint k0 = 0; k0 < width; k0 += TK) {
        for (uint e = lid; e < T * TK; e += LS * LS) {
            uint rr = e / TK, kk = e % TK;
            uint ra = row0 + rr, rb = col0 + rr;
            As[rr][kk] = ra < n ? S[(ulong)ra * width + k0 + kk] : GAP;
            Bs[rr][kk] = rb < n ? S[(ulong)rb * width + k0 + kk] : GAP;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        count_slab(As, Bs, tx, ty, same, both);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (uint r = 0; r < RB; r++) {
        uint i = row0 + ty + r * LS;
        if (i >= n) continue;
        for (uint c = 0; c < RB; c++) {
            uint j = col0 + tx + c * LS;
            if (j >= n || j < i) continue;
            uint m = both[r][c];
            real p = m ? (real)1 - (real)same[r][c] / (real)m : (real)1;
            real d = i == j ? (real)0 : correct(p);
            out[(ulong)i * n + j] = d;
            out[(ulong)j * n + i] = d;
        }
    }
}

__kernel __attribute__((reqd_work_group_size(LS, LS, 1)))
void msa_pdist_resampled(__global const uchar *S, uint n, uint width,
                         __global const uint *cols, uint ncols, ulong stride,
                         __global real *out) {
    uint bi = get_group_id(1), bj = get_group_id(0);
    if (bi > bj) return;
    uint b = get_group_id(2);
    __global const uint *pick = cols + (ulong)b * ncols;
    __global real *tri = out + (ulong)b * stride;
    uint tx = get_local_id(0), ty = get_local_id(1);
    uint lid = ty * LS + tx;
    __local uchar As[T][TK + 1];
    __local uchar Bs[T][TK + 1];
    uint same[RB][RB], both[RB][RB];
    for (uint r = 0; r < RB; r++)
        for (uint c = 0; c < RB; c++) same[r][c] = both[r][c] = 0;
    uint row0 = bi * T, col0 = bj * T;
    /* ncols is a multiple of TK: the padding indices name an all-gap column */
    for (uint k0 = 0; k0 < ncols; k0 += TK) {
        for (uint e = lid; e < T * TK; e += LS * LS) {
            uint rr = e / TK, kk = e % TK;
            uint ra = row0 + rr, rb = col0 + rr;
            ulong col = pick[k0 + kk];
            As[rr][kk] = ra < n ? S[(ulong)ra * width + col] : GAP;
            Bs[rr][kk] = rb < n ? S[(ulong)rb * width + col] : GAP;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        count_slab(As, Bs, tx, ty, same, both);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (uint r = 0; r < RB; r++) {
        uint i = row0 + ty + r * LS;
        if (i >= n) continue;
        for (uint c = 0; c < RB; c++) {
            uint j = col0 + tx + c * LS;
            if (j >= n || j <= i) continue;
            uint m = both[r][c];
            real p = m ? (real)1 - (real)same[r][c] / (real)m : (real)1;
            tri[(ulong)j * (j - 1) / 2 + i] = correct(p);
        }
    }
}

/* Identical residues in aligned segments (both sequences advance): one work-item per segment,
 * a_start / b_start are offsets into the concatenated sequence buffer. */
__kernel void segment_identity(__global const uchar *seqs, __global const ulong *a_start,
                               __global const ulong *b_start, __global const uint *len,
                               uint nseg, __global uint *out) {
    uint s = get_global_id(0);
    if (s >= nseg) return;
    __global const uchar *x = seqs + a_start[s];
    __global const uchar *y = seqs + b_start[s];
    uint same = 0;
    for (uint k = 0; k < len[s]; k++) same += x[k] == y[k];
    out[s] = same;
}
