/* Progressive alignment (seed 003, ClustalW stage 3): weighted profile-profile alignment with
 * affine, position-specific gap scores, traceback and the merged profile, all on the device.
 *
 * A profile column is STRIDE floats in the pool; with weights normalised over the profile's
 * sequences ("fraction" = weighted share of sequences):
 *   0..A-1  residue frequencies (they sum to the occupancy occ = 1 - g)
 *   G   = A     gap fraction g
 *   HI  = A+1   internal gap-open factor of the boundary after this column,
 *               (occ(c) - last(c)) + (occ(c+1) - first(c+1)): sequences with a residue next
 *               to the boundary on one side and more residues on the other, for which a gap
 *               placed there is a new internal gap (counted per side, so 2 for one sequence)
 *   ST  = A+2   segment starts: a residue here and a gap (or the start) in the column before
 *   HE  = A+3   end gap-open factor of the boundary, last(c) + first(c+1): sequences for
 *               which a gap placed there is a new terminal gap
 *   SP  = A+4   span: sequences with residues on both sides of the boundary
 *   FI  = A+5   first: the sequence's first residue is here
 *   LA  = A+6   last: the sequence's last residue is here
 *
 * Score (maximised; gap scores are negative, Biopython's convention):
 *   s(i, j) = sum_a sum_b x_i(a) S(a, b) y_j(b)          column score: profile x matrix x profile
 *   a run of X columns i0..i1 against a gap placed after Y column j scores
 *       OPEN(j) * (occX(i0) + sum_{i>i0} stX(i)) + sum_i occX(i) * EXT(j)
 *       OPEN(j) = OPEN_HALF * hiY(j) + END_OPEN / 2 * heY(j),
 *       EXT(j)  = EXTEND * spY(j) + END_EXTEND * (1 - spY(j)),
 *   where j == 0 and j == LY are ends for every sequence (hi = 0, he = 2, sp = 0); and the same
 *   with X and Y swapped. OPEN_HALF = (open - extend) / 2, END_OPEN = end_open - end_extend.
 *   In sum-of-pairs terms: a gap opens once for every sequence with a residue segment in the
 *   run (a residue in its first column, or a segment starting inside it), scaled by how many
 *   sequences on the other side it is new for, as an internal or as a terminal gap; it extends
 *   for every residue in it. A mostly-gap column is cheap to leave unmatched, a gap cannot slip
 *   through one into dense columns for free, and a Pfam-style ragged end pays end-gap scores.
 *   For two single sequences this is exactly Biopython's global score with the same open,
 *   extend and end-gap scores.
 * Gotoh's three states: M (both columns), IX (X column, gap in Y), IY (Y column, gap in X);
 * IX <-> IY switches pay a new open, as in Biopython.
 *
 * align_nodes: one work-group per node (a pair of profiles). Work-item t owns row i = b*WG+t+1
 * of row block b and sweeps j = 0..LY one step behind its neighbour t-1 (a skewed wavefront;
 * one barrier a step); the values of row i-1 arrive through local memory, the last row of a
 * block goes to the next block through a ping-pong pair of rows in global memory. Direction
 * bytes are stored step-major (coalesced). Then work-item 0 traces back and every work-item
 * merge_nodes (a second launch, once the host has placed the results) builds the merged
 * profiles, every work-item a column.
 *
 * Residue-specific gap opening (define RESGAP = 1; ClustalW's, Thompson, Higgins & Gibson 1994,
 * Nucleic Acids Res. 22:4673, "position-specific gap penalties" (a)-(d)): two more slots,
 *   HY  = A+7   hydrophilic stretch: sequences whose residue here lies in a run of at least
 *               five hydrophilic residues (set for the leaves by the host; averaged on merging)
 *   MU  = A+8   open multiplier of the boundary after this column (kernel open_factors)
 * and OPEN(j) above takes OPEN_HALF * MU(j) * hi(j). MU is the mean of the two neighbouring
 * columns' factors, each the residues' mean Pascarella & Argos factor (the paper's table 1,
 * host) with the hydrophilic share taking HYD instead, times ClustalW's gap separation raise
 * 1 + SEP * (1 + 2 (D - d) / D) where the boundary's columns have no gap but a column d <= D
 * away has one. With RESGAP = 0 (default) the slots do not exist and MU is 1.
 *
 * Defines: A (alphabet size), STRIDE (floats per column, a multiple of 4, >= A + 7, or A + 9
 * with RESGAP), WG, RESGAP (0 or 1).
 */

#ifndef RESGAP
#define RESGAP 0
#endif

#define NEG (-1.0e30f)
#define S4 (STRIDE / 4)

#define G  (A)
#define HI (A + 1)
#define ST (A + 2)
#define HE (A + 3)
#define SP (A + 4)
#define FI (A + 5)
#define LA (A + 6)
#define HY (A + 7)
#define MU (A + 8)

#if RESGAP
#define OPEN_FACTOR(c) ((c)[MU])
#else
#define OPEN_FACTOR(c) 1.0f
#endif

inline __global const float *column(__global const float4 *P, int c)
{
    return (__global const float *)(P + (long)c * S4);
}

/* Source columns in the traceback's `src`: c >= 0 a column; c < 0 a gap column inserted after
 * source column -c - 2 (-1: before the first). */
inline float value_of(__global const float4 *P, int c, int slot)
{
    return (c >= 0) ? column(P, c)[slot] : (slot == G ? 1.0f : 0.0f);
}

/* segment starts of source column c in the merged profile, whose previous column holds
 * source `prev` of the same profile: unchanged when the two stay adjacent, otherwise (a gap
 * column was inserted before it, or it is the first) every residue starts a segment */
inline float start_of(__global const float4 *P, int c, int prev)
{
    if (c < 0) return 0.0f;
    return (c > 0 && prev == c - 1) ? column(P, c)[ST] : 1.0f - column(P, c)[G];
}

/* span of the merged boundary after a column whose source is c: a gap column spans what the
 * boundary after the source column before it spans */
inline float span_of(__global const float4 *P, int c)
{
    const int at = (c >= 0) ? c : -c - 2;
    return (at >= 0) ? column(P, at)[SP] : 0.0f;
}

/* This work-group's node (see align_nodes) and its two profiles in the pool. */
#define NODE_PROFILES \
    const int g = get_group_id(0); \
    const int t = get_local_id(0); \
    const long8 nd = node[g]; \
    const int LX = (int)nd.s5, LY = (int)nd.s6; \
    __global const float4 *X = (__global const float4 *)(pool + nd.s0 * STRIDE); \
    __global const float4 *Y = (__global const float4 *)(pool + nd.s1 * STRIDE)

/* one column per residue: flags bit 0 = first residue of its sequence, bit 1 = last */
__kernel void leaf_profiles(__global float *pool,
                            __global const uchar *codes,
                            __global const uchar *flags,
                            __global const long *columns,
                            const long n)
{
    const long r = get_global_id(0);
    if (r >= n) return;
    __global float *col = pool + columns[r] * STRIDE;
    const bool first = flags[r] & 1, last = flags[r] & 2;
    col[codes[r]] = 1.0f;
    col[ST] = first ? 1.0f : 0.0f;
    col[HI] = last ? 0.0f : 2.0f;
    col[HE] = last ? 1.0f : 0.0f;
    col[SP] = last ? 0.0f : 1.0f;
    col[FI] = first ? 1.0f : 0.0f;
    col[LA] = last ? 1.0f : 0.0f;
#if RESGAP
    col[HY] = (flags[r] & 4) ? 1.0f : 0.0f;
#endif
}

/* node (long8): s0 X column offset, s1 Y column offset, s3 direction-byte offset, s4
 * move/source offset (LX+LY reserved), s5 LX, s6 LY, s7 boundary-row offset (2*(LY+1) cells).
 * weight (float2): total weight of X, of Y. */
/* weighted_profiles: F profiles of one alignment's rows, each under its own row weights
 * (adding fragments: each fragment's profile leans on the rows most like it). Work-item
 * (c, f) writes column c of profile f at pool column base + f * L + c: each slot the
 * weighted share of rows (weights of a profile sum to 1), HI and HE from this column and the
 * next as ProfileEngine.add_profiles lays them out on the host; MU, with RESGAP, is left to
 * open_factors. cells: (n, L) letter codes, 255 at gaps; bits: 1 segment start, 2 first,
 * 4 last, 8 span, 16 hydrophilic stretch (pipeline.cell_bits). */
__kernel void weighted_profiles(__global float *pool,
                                __global const uchar *cells,
                                __global const uchar *bits,
                                __global const float *weights,
                                const int n, const int L, const int F, const long base)
{
    const int c = get_global_id(0), f = get_global_id(1);
    if (c >= L || f >= F) return;
    float acc[A];
    for (int a = 0; a < A; a++) acc[a] = 0.0f;
    float g = 0.0f, st = 0.0f, fi = 0.0f, la = 0.0f, sp = 0.0f, hy = 0.0f;
    float occ_next = 0.0f, fi_next = 0.0f;
    __global const float *w = weights + (long)f * n;
    for (int r = 0; r < n; r++) {
        const float wr = w[r];
        const long at = (long)r * L + c;
        const uchar code = cells[at], b = bits[at];
        if (code == 255) g += wr; else acc[code] += wr;
        st += (b & 1) ? wr : 0.0f;
        fi += (b & 2) ? wr : 0.0f;
        la += (b & 4) ? wr : 0.0f;
        sp += (b & 8) ? wr : 0.0f;
        hy += (b & 16) ? wr : 0.0f;
        if (c + 1 < L) {
            occ_next += (cells[at + 1] != 255) ? wr : 0.0f;
            fi_next += (bits[at + 1] & 2) ? wr : 0.0f;
        }
    }
    __global float *col = pool + (base + (long)f * L + c) * STRIDE;
    for (int s = 0; s < STRIDE; s++) col[s] = 0.0f;
    for (int a = 0; a < A; a++) col[a] = acc[a];
    col[G] = g;
    col[ST] = st;
    col[FI] = fi;
    col[LA] = la;
    col[SP] = sp;
    col[HI] = (1.0f - g - la) + (occ_next - fi_next);
    col[HE] = la + fi_next;
#if RESGAP
    col[HY] = hy;
#endif
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void align_nodes(__global const long8 *node,
                 __global const float *pool,
                 __constant float *matrix,
                 __global uchar *dirs,
                 __global uchar *moves,
                 __global int2 *src,
                 __global float4 *rows,
                 __global int *length,
                 const float open_half, const float ext,
                 const float end_open, const float end_ext)
{
    NODE_PROFILES;
    __global uchar *dr = dirs + nd.s3;
    __global float4 *rb = rows + nd.s7;          /* two rows of LY+1 cells */
    __local float4 xch[2][WG];

    /* row 0: only IY (Y columns against a leading gap in X) */
    if (t == 0) {
        rb[0] = (float4)(0.0f, NEG, NEG, 0.0f);
        float run = 0.0f;
        for (int j = 1; j <= LY; ++j) {
            __global const float *yc = column(Y, j - 1);
            const float occ = 1.0f - yc[G];
            run += end_open * (j == 1 ? occ : yc[ST]) + end_ext * occ;
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
        /* this row's terms: occupancy, segment starts, and the open / extension scores of a
         * gap placed in X after this row (IY runs) */
        float occx = 0.0f, stx = 0.0f, openx = 0.0f, extfx = 0.0f, end_extx = 0.0f;
        if (live) {
            __global const float *xc = column(X, i - 1);
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
            occx = 1.0f - xc[G];
            stx = xc[ST];
            openx = (i == LX) ? end_open
                              : open_half * OPEN_FACTOR(xc) * xc[HI] + 0.5f * end_open * xc[HE];
            extfx = (i == LX) ? end_ext : ext * xc[SP] + end_ext * (1.0f - xc[SP]);
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
                    const float from = fmax(up.x + end_open * occx, up.y + end_open * stx);
                    out = (float4)(NEG, from + end_extx, NEG, 0.0f);
                } else {
                    const float4 diag = prev_up;
                    __global const float4 *yc = Y + (long)(j - 1) * S4;
                    float sc = 0.0f;
                    for (int q = 0; q < S4; ++q) sc += dot(psx[q], yc[q]);
                    __global const float *yf = (__global const float *)yc;
                    const float occy = 1.0f - yf[G], sty = yf[ST];
                    const bool yend = (j == LY);
                    uchar d = 0;
                    /* M from the diagonal: ties prefer M, then IX, then IY */
                    float bm = diag.x;
                    if (diag.y > bm) { bm = diag.y; d = 1; }
                    if (diag.z > bm) { bm = diag.z; d = 2; }
                    out.x = bm + sc;
                    /* IX: gap in Y between columns j and j+1 */
                    const float oyb = yend ? end_open
                                           : open_half * OPEN_FACTOR(yf) * yf[HI]
                                             + 0.5f * end_open * yf[HE];
                    const float oy = oyb * occx;
                    float bx = up.x + oy; uchar dx = 0;
                    if (up.y + oyb * stx > bx) { bx = up.y + oyb * stx; dx = 1; }
                    if (up.z + oy > bx) { bx = up.z + oy; dx = 2; }
                    out.y = bx + (yend ? end_extx
                                       : (ext * yf[SP] + end_ext * (1.0f - yf[SP])) * occx);
                    /* IY: gap in X between rows i and i+1 */
                    const float ey = extfx * occy;
                    const float ox = openx * occy;
                    float by = left.x + ox; uchar dy = 0;
                    if (left.y + ox > by) { by = left.y + ox; dy = 1; }
                    if (left.z + openx * sty > by) { by = left.z + openx * sty; dy = 2; }
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
            else if (state == 1) { mv[pos] = 1; sr[pos] = (int2)(i - 1, -j - 1); --i; }
            else { mv[pos] = 2; sr[pos] = (int2)(-i - 1, j - 1); --j; }
            state = next;
        }
        length[g] = LX + LY - pos;
    }
}

/* The merged profiles of a launch's nodes, once their lengths are known (the host places them
 * back to back in the pool: no space reserved for the worst case LX + LY). One work-group per
 * node; its traceback left the source columns of its n new columns at src[s4 + LX+LY-n ...]. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void merge_nodes(__global const long8 *node,
                 __global const float2 *weight,
                 __global float *pool,
                 __global const int2 *src,
                 __global const int *length,
                 __global const long *out)
{
    NODE_PROFILES;
    __global const int2 *sr = src + nd.s4;
    const int n = length[g];
    const int first = LX + LY - n;
    const float wx = weight[g].x, wy = weight[g].y;
    const float inv = 1.0f / (wx + wy);
    __global float4 *O = (__global float4 *)(pool + out[g] * STRIDE);
    for (int c = first + t; c < LX + LY; c += WG) {
        const int2 at = sr[c];
        __global float4 *o4 = O + (long)(c - first) * S4;
        for (int q = 0; q < S4; ++q) {
            float4 v = (float4)(0.0f);
            if (at.x >= 0) v += wx * X[(long)at.x * S4 + q];
            if (at.y >= 0) v += wy * Y[(long)at.y * S4 + q];
            o4[q] = v * inv;                     /* residues, first and last are averages */
        }
        __global float *oc = (__global float *)o4;
        const int2 before = (c > first) ? sr[c - 1] : (int2)(-1, -1);
        oc[G] = (wx * value_of(X, at.x, G) + wy * value_of(Y, at.y, G)) * inv;
        oc[ST] = (wx * start_of(X, at.x, before.x) + wy * start_of(Y, at.y, before.y)) * inv;
        oc[SP] = (wx * span_of(X, at.x) + wy * span_of(Y, at.y)) * inv;
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (int c = first + t; c < LX + LY; c += WG) {
        __global float *oc = (__global float *)(O + (long)(c - first) * S4);
        const bool more = c + 1 < LX + LY;
        const float occ_next = more ? 1.0f - oc[STRIDE + G] : 0.0f;
        const float first_next = more ? oc[STRIDE + FI] : 0.0f;
        oc[HI] = (1.0f - oc[G] - oc[LA]) + (occ_next - first_next);
        oc[HE] = oc[LA] + first_next;
    }
}

#if RESGAP
/* factor of one column: the residues' mean gap-open factor, with the share in hydrophilic
 * stretches taking `hyd` instead; 1 for a column without residues */
inline float column_factor(__global const float *c, __constant float *factor, const float hyd)
{
    const float occ = 1.0f - c[G];
    if (occ <= 1.0e-6f) return 1.0f;
    float sum = 0.0f;
    for (int a = 0; a < A; ++a) sum += c[a] * factor[a];
    const float h = fmin(c[HY] / occ, 1.0f);
    return (1.0f - h) * (sum / occ) + h * hyd;
}

/* MU of every column of the given profiles (node: s0 column offset, s1 length), one
 * work-group a profile; run after the profiles' other slots are final (leaves, host
 * profiles, merges). The boundary after the last column is an end: its MU is never read. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void open_factors(__global const long2 *node,
                  __global float *pool,
                  __constant float *factor,
                  const float hyd, const int dist, const float sep)
{
    const long2 nd = node[get_group_id(0)];
    const int L = (int)nd.s1;
    __global float *P = pool + nd.s0 * STRIDE;
    for (int c = get_local_id(0); c < L; c += WG) {
        const float r0 = column_factor(P + (long)c * STRIDE, factor, hyd);
        const float r1 = (c + 1 < L) ? column_factor(P + (long)(c + 1) * STRIDE, factor, hyd)
                                     : r0;
        float mu = 0.5f * (r0 + r1);
        const bool clear = P[(long)c * STRIDE + G] <= 0.0f
                           && (c + 1 >= L || P[(long)(c + 1) * STRIDE + G] <= 0.0f);
        if (clear) {    /* ClustalW raises gap opening near an existing gap, nearest first */
            for (int d = 1; d <= dist; ++d) {
                const bool left = c - d >= 0 && P[(long)(c - d) * STRIDE + G] > 0.0f;
                const bool right = c + 1 + d < L && P[(long)(c + 1 + d) * STRIDE + G] > 0.0f;
                if (left || right) {
                    mu *= 1.0f + sep * (1.0f + 2.0f * (float)(dist - d) / (float)dist);
                    break;
                }
            }
        }
        P[(long)c * STRIDE + MU] = mu;
    }
}
#endif
