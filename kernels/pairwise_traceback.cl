/* Three-state traceback over the direction bytes of pairwise_fill.cl (seed 001, §3.3).
 *
 * The printed pseudocode of the seed is off by one and mixes the states; this follows the
 * Gotoh states exactly. A state is M (0), Ix (1) or Iy (2), or "pending": the cell we moved
 * into decides the state with its own bits - H argmax (3, after a diagonal move),
 * P = max(M, Iy) argmax (4, after opening Ix from it), Q = max(M, Ix) argmax (5, after
 * opening Iy from it). Deciding on arrival lets the walk stop at any row and resume later,
 * which the checkpointed (memory-split) traceback of long pairs needs.
 *
 * Operations are written from the end backwards: 0 = A_i aligned with B_j, 1 = A_i against
 * a gap (Ix), 2 = B_j against a gap (Iy).
 *
 * state[t] = (i, j, state, n_ops) on entry (or, with `init`, the start from ends[t]: the end
 * cell in state M for a local maximum, H-pending for a global end) and on exit; the walk
 * stops at row `stop_row`
 * (exclusive, > 0 for a band of a long pair), at the border (global: leading gaps are
 * emitted), or where a local alignment starts (state becomes -1 when finished).
 */

#ifndef LOCAL
#define LOCAL 0
#endif
#ifndef R
#define R 8
#endif

#define ST_M 0
#define ST_X 1
#define ST_Y 2
#define ST_H 3
#define ST_P 4
#define ST_Q 5
#define ST_DONE (-1)

/* Byte of cell (i, j) (1-based, i > row0) in the layout of fill_pairs / fill_wavefront. */
inline uint cell_bits(__global const uchar *dirs, const ulong base, const int i, const int j,
                      const int row0, const int maxB, const int T, const int t)
{
    const int rr = i - 1 - row0;
    const ulong word = ((ulong)(rr / R) * maxB + (j - 1)) * T + t;
    return dirs[base + word * R + (rr % R)];
}

__kernel void traceback(__global const uchar *dirs,
                        __global const ulong *dir_base,
                        const int maxB,
                        const int T,
                        const int row0,
                        const int stop_row,
                        const int ntasks,
                        __global int4 *state,
                        __global const int2 *ends,
                        const int init,
                        __global uchar *ops,
                        __global const ulong *ops_base)
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
    if (s == ST_DONE) return;
    const ulong base = dir_base[t];
    __global uchar *out = ops + ops_base[t];
    while (true) {
        if (i == 0 || j == 0) {
#if !LOCAL
            for (; i > 0; i--) out[n++] = 1;
            for (; j > 0; j--) out[n++] = 2;
#endif
            s = ST_DONE;
            break;
        }
        if (i <= stop_row) break;
        const uint b = cell_bits(dirs, base, i, j, row0, maxB, T, t);
        if (s == ST_H) s = (b & 16u) ? ((b & 8u) ? ST_M : ST_X) : ST_Y;
        else if (s == ST_P) s = (b & 4u) ? ST_M : ST_Y;
        else if (s == ST_Q) s = (b & 8u) ? ST_M : ST_X;
        if (s == ST_M) {
            out[n++] = 0;
            i--;
            j--;
            s = ST_H;
#if LOCAL
            if (b & 32u) { s = ST_DONE; break; }
#endif
        } else if (s == ST_X) {
            out[n++] = 1;
            i--;
            s = (b & 1u) ? ST_X : ST_P;
        } else {
            out[n++] = 2;
            j--;
            s = (b & 2u) ? ST_Y : ST_Q;
        }
    }
    state[t] = (int4)(i, j, s, n);
}
