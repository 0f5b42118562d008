/* Three-state traceback over the direction bits of pairwise_fill.cl (seed 001, §3.3).
 *
 * The printed pseudocode of the seed is off by one and mixes the states; this follows the
 * Gotoh states exactly. A state is M (0), Ix (1) or Iy (2), or "pending": the cell we moved
 * into decides the state with its own bits - H argmax (3, after a diagonal move),
 * P = max(M, Iy) argmax (4, after opening Ix from it), Q = max(M, Ix) argmax (5, after
 * opening Iy from it). Deciding on arrival lets the walk stop at any row and resume later,
 * which the checkpointed (memory-split) traceback of long pairs needs.
 *
 * Operations are written from the end backwards, four 2-bit codes a byte (low bits first):
 * 0 = A_i aligned with B_j, 1 = A_i against a gap (Ix), 2 = B_j against a gap (Iy).
 *
 * state[t] = (i, j, state, n_ops) on entry (or, with `init`, the start from ends[t]: the end
 * cell in state M for a local maximum, H-pending for a global end) and on exit; the walk
 * stops at row `stop_row` (exclusive, > 0 for a band of a long pair), at the border
 * (global: leading gaps are emitted), or where a local alignment starts (state -1).
 * Local walks with BITS = 4 carry the score still to explain (running[t]): the alignment
 * starts where it reaches 0, which is where the stored hz bit would have said so.
 * With GROUPS (fill_wavefront_groups), task t's directions start at dirs + dir_base[t] with
 * its own column count (tasks[first + t].w) and no interleaving (T = 1).
 */
#include "common.h"

#ifndef LOCAL
#define LOCAL 0
#endif
#ifndef R
#define R 8
#endif
#ifndef BITS
#define BITS 8
#endif
#ifndef GROUPS
#define GROUPS 0
#endif
#define NW ((R * BITS) / 32)

#define ST_M 0
#define ST_X 1
#define ST_Y 2
#define ST_H 3
#define ST_P 4
#define ST_Q 5
#define ST_DONE (-1)

/* Append operation `op` as the n-th 2-bit code (the walk is sequential, so the first code of
 * a byte can assign it and no clearing pass is needed). */
#define EMIT(op)                                                                              \
    {                                                                                         \
        if ((n & 3) == 0) out[n >> 2] = (uchar)(op);                                          \
        else out[n >> 2] |= (uchar)((op) << (2 * (n & 3)));                                   \
        n++;                                                                                  \
    }

/* Bits of cell (i, j) (1-based, i > row0) in the layout of fill_pairs / fill_wavefront. */
inline uint cell_bits(__global const uint *dirs, const int i, const int j, const int row0,
                      const int maxB, const int T, const int t)
{
    const int rr = i - 1 - row0;
    const ulong column = ((ulong)(rr / R) * maxB + (j - 1)) * T + t;
    const int bit = (rr % R) * BITS;
    return (dirs[column * NW + bit / 32] >> (bit % 32)) & ((1u << BITS) - 1u);
}

__kernel void traceback(__global const uint *dirs,
                        const int maxB,
                        const int T,
                        const int row0,
                        const int stop_row,
                        const int ntasks,
                        __global int4 *state,
                        __global const int2 *ends,
                        const int init,
                        __global uchar *ops,
                        __global const ulong *ops_base,
                        __global int *running,
                        __global const int *scores,
                        __global const int4 *tasks,
                        const int first,
                        __global const uchar *seqs,
                        __global const int *matrix,
                        const int K,
                        __global const int *gaps
#if GROUPS
                        , __global const ulong *dir_base
#endif
                        )
{
    const int t = get_global_id(0);
    if (t >= ntasks) return;
    int4 st;
    if (init) {
        const int2 e = ends[t];
        /* A local score of 0 ends nowhere: the empty alignment. */
        st = (int4)(e.x, e.y, LOCAL ? ((e.x == 0 || e.y == 0) ? ST_DONE : ST_M) : ST_H, 0);
    } else {
        st = state[t];
    }
    int i = st.x, j = st.y, s = st.z, n = st.w;
    if (s == ST_DONE) {
        state[t] = st;
        return;
    }
    /* Tasks and path offsets are the batch's, in launch order; this launch has tasks
     * first .. first + ntasks - 1 and its own operations buffer. */
    __global uchar *out = ops + (ops_base[first + t] - ops_base[first]);
#if GROUPS
    /* this task's own matrix: T = 1, its own width */
    dirs += dir_base[t];
    const int width = tasks[first + t].w;
#define DIRS_T 1
#define DIRS_t 0
#else
    const int width = maxB;
#define DIRS_T T
#define DIRS_t t
#endif
#if LOCAL && BITS == 4
    const int4 task = tasks[first + t];
    __global const uchar *seqA = seqs + task.x;
    __global const uchar *seqB = seqs + task.z;
    int left = init ? scores[t] : running[t];
#endif
    while (true) {
        if (i == 0 || j == 0) {
#if !LOCAL
            for (; i > 0; i--) EMIT(1)
            for (; j > 0; j--) EMIT(2)
#endif
            s = ST_DONE;
            break;
        }
        if (i <= stop_row) break;
        const uint b = cell_bits(dirs, i, j, row0, width, DIRS_T, DIRS_t);
        const bool xe = b & 1u, ye = b & 2u, qm = b & 4u, hq = b & 8u;
#if BITS == 4
        const bool pm = hq;  /* see pairwise_fill.cl: a gap never opens from its own gap */
#else
        const bool pm = b & 16u;
#endif
        if (s == ST_H) s = hq ? (qm ? ST_M : ST_X) : ST_Y;
        else if (s == ST_P) s = pm ? ST_M : ST_Y;
        else if (s == ST_Q) s = qm ? ST_M : ST_X;
        if (s == ST_M) {
            EMIT(0)
#if LOCAL && BITS == 4
            left -= matrix[seqA[i - 1] * K + seqB[j - 1]];
            const bool start = (left == 0);
#elif LOCAL
            const bool start = b & 32u;
#endif
            i--;
            j--;
            s = ST_H;
#if LOCAL
            if (start) { s = ST_DONE; break; }
#endif
        } else if (s == ST_X) {
            EMIT(1)
#if LOCAL && BITS == 4
            left -= xe ? gaps[3] : gaps[2];
#endif
            i--;
            s = xe ? ST_X : ST_P;
        } else {
            EMIT(2)
#if LOCAL && BITS == 4
            left -= ye ? gaps[1] : gaps[0];
#endif
            j--;
            s = ye ? ST_Y : ST_Q;
        }
    }
#if LOCAL && BITS == 4
    running[t] = left;
#endif
    state[t] = (int4)(i, j, s, n);
}
