/* Progressive alignment (seed 003, ClustalW stage 3): weighted profile-profile alignment with
 * affine, position-specific gap scores, traceback and the merged profile, all on the device.
 *
 * A profile column is STRIDE floats in the pool: slots 0..A-1 the weighted residue frequencies
 * (normalised over all of the profile's sequences, so they sum to the column's occupancy), slot
 * A the weighted gap fraction g, slot A+1 the gap-open factor h = 2 - g(c) - g(c+1) (the share
 * of sequences for which a gap placed after column c is a new gap, counted on both sides of
 * it; MUSCLE's "gap open/close" profile terms folded into one number), other slots zero.
 *
 * Score (maximised; gap scores are negative, Biopython's convention):
 *   s(i, j)  = sum_a sum_b x_i(a) S(a, b) y_j(b)       column score: profile x matrix x profile
 *   a run of X columns i0..i1 against a gap placed between Y columns j and j+1 scores
 *       OPEN_HALF * hY(j) * occX(i0) + sum_i EXT * occX(i)     (interior: 0 < j < LY)
 *       END_OPEN * occX(i0) + sum_i END_EXT * occX(i)          (j == 0 or j == LY)
 *   and symmetrically for Y columns against a gap in X. occ = 1 - g: in sum-of-pairs terms a
 *   gap opens and extends only for the sequences with a residue in the run (an X column that
 *   is mostly gap must be cheap to leave unmatched, or it drags real columns out of place). OPEN_HALF = (open - extend) / 2 and
 *   END_OPEN = end_open - end_extend, so two single sequences score exactly as Biopython's
 *   global aligner with the same open/extend and end-gap scores.
 * Gotoh's three states: M (both columns), IX (X column, gap in Y), IY (Y column, gap in X);
 * IX <-> IY switches pay a new open, as in Biopython.
 *
 * align_nodes: one work-group per node (a pair of profiles). Work-item t owns row i = b*WG+t+1
 * of row block b and sweeps j = 0..LY one step behind its neighbour t-1 (a skewed wavefront;
 * one barrier a step); the values of row i-1 arrive through local memory, the last row of a
 * block goes to the next block through a ping-pong pair of rows in global memory. Direction
 * bytes are stored step-major (coalesced). Then work-item 0 traces back and every work-item
 * builds the merged profile in parallel.
 *
 * Defines: A (alphabet size), STRIDE (floats per column, a multiple of 4), WG (work-group).
 */

#define NEG (-1.0e30f)
#define S4 (STRIDE / 4)

typedef struct { float m, x, y, pad; } cell_t;

__kernel void leaf_profiles(__global float *pool,
                            __global const uchar *codes,
                            __global const long *column,
                            const long n)
{
    const long r = get_global_id(0);
    if (r >= n) return;
    __global float *col = pool + column[r] * STRIDE;
    col[codes[r]] = 1.0f;
    col[A + 1] = 2.0f;
}

/* node (long8): s0 X column offset, s1 Y column offset, s2 output column offset (LX+LY
 * reserved), s3 direction-byte offset, s4 move/scratch column offset (LX+LY reserved), s5 LX,
 * s6 LY, s7 boundary-row offset (2*(LY+1) cells). weight (float2): total weight of X, of Y. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void align_nodes(__global const long8 *node,
                 __global const float2 *weight,
                 __global float *pool,
                 __constant float *matrix,
                 __global uchar *dirs,
                 __global uchar *moves,
                 __global int2 *src,
                 __global float4 *rows,
                 __global int *length,
                 const float open_half, const float ext,
                 const float end_open, const float end_ext)
{
    const int g = get_group_id(0);
    const int t = get_local_id(0);
    const long8 nd = node[g];
    const int LX = (int)nd.s5, LY = (int)nd.s6;
    __global const float4 *X = (__global const float4 *)(pool + nd.s0 * STRIDE);
    __global const float4 *Y = (__global const float4 *)(pool + nd.s1 * STRIDE);
    __global uchar *dr = dirs + nd.s3;
    __global float4 *rb = rows + nd.s7;          /* two rows of LY+1 cells */
    __local float4 xch[2][WG];

    /* row 0: only IY (Y columns against a leading gap in X) */
    if (t == 0) {
        rb[0] = (float4)(0.0f, NEG, NEG, 0.0f);
        float run = 0.0f;
        for (int j = 1; j <= LY; ++j) {
            const float occ = 1.0f - ((__global const float *)(Y + (long)(j - 1) * S4))[A];
            run += (j == 1 ? end_open * occ : 0.0f) + end_ext * occ;
            rb[j] = (float4)(NEG, NEG, run, 0.0f);
        }
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);

    const int nblocks = (LX + WG - 1) / WG;
    const int steps = LY + WG;
    for (int b = 0; b < nblocks; ++b) {
        __global const float4 *rin = rb + (b & 1) * (LY + 1);
        __global float4 *rout = rb + ((b + 1) & 1) * (LY + 1);
        const int i = b * WG + t + 1;
        const bool live = i <= LX;
        const int last = min(WG, LX - b * WG) - 1;   /* work-item of the block's last row */
        float4 psx[S4];
        float occx = 0.0f, openx = 0.0f, extx = 0.0f, end_extx = 0.0f;
        if (live) {
            __global const float *xc = (__global const float *)(X + (long)(i - 1) * S4);
            for (int q = 0; q < S4; ++q) psx[q] = (float4)(0.0f);
            for (int a = 0; a < A; ++a) {
                const float f = xc[a];
                if (f != 0.0f) {
                    __constant float *row = matrix + a * STRIDE;
                    for (int q = 0; q < S4; ++q)
                        psx[q] += f * (float4)(row[4 * q], row[4 * q + 1], row[4 * q + 2],
                                               row[4 * q + 3]);
                }
            }
            occx = 1.0f - xc[A];
            openx = (i == LX) ? end_open : open_half * xc[A + 1];
            extx = ext * occx;
            end_extx = end_ext * occx;
        }
        float4 prev_up = (float4)(NEG), left = (float4)(NEG);
        for (int s = 0; s < steps; ++s) {
            const int j = s - t;
            float4 out = (float4)(NEG);
            if (live && j >= 0 && j <= LY) {
                const float4 up = (t == 0) ? rin[j] : xch[(s - 1) & 1][t - 1];
                if (j == 0) {
                    /* column 0: only IX (X columns against a leading gap in Y) */
                    const float from = fmax(up.x + end_open * occx, up.y);
                    out = (float4)(NEG, from + end_extx, NEG, 0.0f);
                } else {
                    const float4 diag = prev_up;
                    __global const float4 *yc = Y + (long)(j - 1) * S4;
                    float sc = 0.0f;
                    for (int q = 0; q < S4; ++q) sc += dot(psx[q], yc[q]);
                    const float gy = ((__global const float *)yc)[A];
                    const float hy = ((__global const float *)yc)[A + 1];
                    const bool yend = (j == LY);
                    uchar d = 0;
                    /* M from the diagonal: ties prefer M, then IX, then IY */
                    float bm = diag.x;
                    if (diag.y > bm) { bm = diag.y; d = 1; }
                    if (diag.z > bm) { bm = diag.z; d = 2; }
                    out.x = bm + sc;
                    /* IX: gap in Y between columns j and j+1 */
                    const float oy = (yend ? end_open : open_half * hy) * occx;
                    float bx = up.x + oy; uchar dx = 0;
                    if (up.y > bx) { bx = up.y; dx = 1; }
                    if (up.z + oy > bx) { bx = up.z + oy; dx = 2; }
                    out.y = bx + (yend ? end_extx : extx);
                    /* IY: gap in X between rows i and i+1 */
                    const float occy = 1.0f - gy;
                    const float ey = ((i == LX) ? end_ext : ext) * occy;
                    const float ox = openx * occy;
                    float by = left.x + ox; uchar dy = 0;
                    if (left.y + ox > by) { by = left.y + ox; dy = 1; }
                    if (left.z > by) { by = left.z; dy = 2; }
                    out.z = by + ey;
                    out.w = 0.0f;
                    dr[((long)b * steps + s) * WG + t] = d | (dx << 2) | (dy << 4);
                }
                prev_up = up;
                left = out;
                if (t == last) rout[j] = out;
            }
            xch[s & 1][t] = out;
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    }

    /* traceback by one work-item; moves and sources are written from the end of the node's
     * LX+LY reserved columns backwards */
    __global uchar *mv = moves + nd.s4;
    __global int2 *sr = src + nd.s4;
    __local int count;
    if (t == 0) {
        const float4 fin = (LX == 0) ? rb[LY] : (rb + (nblocks & 1) * (LY + 1))[LY];
        int state = 0;
        float best = fin.x;
        if (fin.y > best) { best = fin.y; state = 1; }
        if (fin.z > best) { best = fin.z; state = 2; }
        int i = LX, j = LY, pos = LX + LY;
        while (i > 0 || j > 0) {
            --pos;
            if (i == 0) state = 2;
            else if (j == 0) state = 1;
            int next = state;
            if (i > 0 && j > 0) {
                const int b = (i - 1) / WG, tt = (i - 1) % WG;
                const uchar d = dr[((long)b * (LY + WG) + j + tt) * WG + tt];
                next = (state == 0) ? (d & 3) : (state == 1) ? ((d >> 2) & 3) : ((d >> 4) & 3);
            }
            if (state == 0) { mv[pos] = 0; sr[pos] = (int2)(i - 1, j - 1); --i; --j; }
            else if (state == 1) { mv[pos] = 1; sr[pos] = (int2)(i - 1, -1); --i; }
            else { mv[pos] = 2; sr[pos] = (int2)(-1, j - 1); --j; }
            state = next;
        }
        count = LX + LY - pos;
        length[g] = count;
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);

    /* merged profile: weighted average of the two source columns (a gap counts as a gap) */
    const int n = count;
    const int first = LX + LY - n;
    const float wx = weight[g].x, wy = weight[g].y;
    const float inv = 1.0f / (wx + wy);
    __global float4 *O = (__global float4 *)(pool + nd.s2 * STRIDE);
    for (int c = first + t; c < LX + LY; c += WG) {
        const int2 st = sr[c];
        for (int q = 0; q < S4; ++q) {
            float4 v = (float4)(0.0f);
            if (st.x >= 0) v += wx * X[(long)st.x * S4 + q];
            if (st.y >= 0) v += wy * Y[(long)st.y * S4 + q];
            O[(long)c * S4 + q] = v * inv;
        }
        __global float *oc = (__global float *)(O + (long)c * S4);
        const float gx = (st.x >= 0) ? ((__global const float *)(X + (long)st.x * S4))[A] : 1.0f;
        const float gy = (st.y >= 0) ? ((__global const float *)(Y + (long)st.y * S4))[A] : 1.0f;
        oc[A] = (wx * gx + wy * gy) * inv;
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (int c = first + t; c < LX + LY; c += WG) {
        __global float *oc = (__global float *)(O + (long)c * S4);
        const float gnext = (c + 1 < LX + LY) ? oc[STRIDE + A] : 0.0f;
        oc[A + 1] = 2.0f - oc[A] - gnext;
    }
}
