/* Pairwise alignment fill: Gotoh's three states with Biopython's exact semantics (seed 001).
 *
 * Target A runs down the rows (i = 1..nA), query B along the columns (j = 1..nB):
 *   M [i][j] = max(M, Ix, Iy)[i-1][j-1] + S(A_i, B_j)                (local: clamped at 0)
 *   Ix[i][j] = max(M[i-1][j] + oB, Iy[i-1][j] + oB, Ix[i-1][j] + eB)   gap in the query
 *   Iy[i][j] = max(M[i][j-1] + oA, Ix[i][j-1] + oA, Iy[i][j-1] + eA)   gap in the target
 * Ix <-> Iy transitions are allowed, as in Biopython. The first row / column carry the left
 * end-gap scores; Ix in the last column and Iy in the last row use the right end-gap scores
 * (exactly where Biopython switches), so global, semiglobal and any end-gap mix are one code.
 * Local mode assumes gap scores <= 0, so only M can hold the maximum (the host checks).
 *
 * Two values per column cross from one row to the next: P = max(M, Iy) and X = Ix (the
 * diagonal max(M, Ix, Iy) of the row above is max(P, X)). Along a row the registers hold
 * Q = max(M, Ix) and Y = Iy. Each work-item sweeps a strip of R rows left to right
 * (seed 001, Figure 2), so global traffic is one read and one write of (P, X) per R cells.
 *
 * With TRACE, each cell leaves BITS = 4 or 8 bits; a strip column's R cells fill NW = R*BITS/32
 * uints, interleaved by task like the column state:
 *   bit0 xe: Ix came by extension      bit1 ye: Iy came by extension
 *   bit2 qm: in Q = max(M, Ix), M wins bit3 hq: in H = max(Q, Iy), Q wins
 *   bit4 pm: in P = max(M, Iy), M wins bit5 hz: the diagonal predecessor H was 0 (local start)
 * With BITS = 4 (the seed's four flags per cell) pm and hz are not stored: when extending a
 * gap scores no less than opening one, a gap never opens from a cell whose maximum is the
 * same gap, so pm follows from hq/qm; and the local start is found by the traceback's
 * running score reaching 0. The host chooses BITS = 8 for the other gap settings.
 * The 3-state traceback (pairwise_traceback.cl) follows these bits.
 *
 * Defines: LOCAL, TRACE, ENDS, BITS, R (rows per strip), RT (ENDS: rows per strip of the end
 * order, a divisor of R), MAXK (matrix side in local memory), SCORE_FLOAT, PROFILE.
 */
#include "common.h"
#include "pairwise_gaps.h"

#ifndef R
#define R 8
#endif
#ifndef MAXK
#define MAXK 32
#endif
#ifndef LOCAL
#define LOCAL 0
#endif
#ifndef TRACE
#define TRACE 0
#endif
/* ENDS: a score-only fill_pairs that also writes each pair's end cell (as TRACE does). */
#ifndef ENDS
#define ENDS 0
#endif
#define KEEP_END (TRACE || ENDS)

#ifndef BITS
#define BITS 8
#endif
#define NW ((R * BITS) / 32) /* uints of directions per strip column */
#if TRACE && (NW != 1 && NW != 2 && NW != 4 && NW != 8)
#error "directions need R * BITS / 32 in {1, 2, 4, 8}"
#endif
#ifndef SCORE_FLOAT
#define SCORE_FLOAT 0
#endif
#ifndef PROFILE
#define PROFILE 0
#endif

/* Scores are integers. With SCORE_FLOAT they are carried in float, which is exact while every
 * value stays below 2^24 in magnitude (the host checks the bound) and runs on the wider FP32
 * pipes of GPUs. */
#if SCORE_FLOAT
typedef float score_t;
typedef float2 score2_t;
#define NEG ((float)NEG_INF)
#define ZERO 0.0f
#else
typedef int score_t;
typedef int2 score2_t;
#define NEG NEG_INF
#define ZERO 0
#endif

/* With PROFILE, each work-item keeps, per strip, the 8 scores S(A_i0+1..i0+8, c) of every
 * letter c packed as signed bytes in one uint2 of local memory: one 8-byte read per strip
 * column replaces 8 matrix look-ups (integer scores in [-128, 127] only). */
#if PROFILE && (SCORE_FLOAT || R != 8)
#error "PROFILE needs integer scores and R = 8"
#endif
#define PSTRIDE (MAXK + 1) /* odd stride in uint2: neighbouring work-items hit other banks */


/* Substitution matrix into local memory, padded to MAXK x MAXK. All work-items must call. */
inline void load_matrix(__local score_t *lmat, __global const int *matrix, const int K)
{
    for (int q = get_local_id(0); q < MAXK * MAXK; q += get_local_size(0)) {
        const int a = q / MAXK, b = q % MAXK;
        lmat[q] = (score_t)((a < K && b < K) ? matrix[a * K + b] : 0);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* H of the left border at row i (i >= 1): Ix[i][0] carries the left deletion end gap. */
#define LEFT_H(i) ((score_t)(LOCAL ? 0 : (G_LOB + G_LEB * ((i) - 1))))
/* P of the top border at column j (j >= 1): Iy[0][j] carries the left insertion end gap. */
#define TOP_P(j) ((score_t)(LOCAL ? 0 : (G_LOA + G_LEA * ((j) - 1))))

#if LOCAL
#define CLAMP_M(m) m = max(m, ZERO)
#else
#define CLAMP_M(m)
#endif

#define SET_BITS(r, v) bw[((r) * BITS) / 32] |= (v) << (((r) * BITS) % 32);

#if NW == 1
#define STORE_BITS(index) dirs[index] = bw[0];
#elif NW == 2
#define STORE_BITS(index) vstore2((uint2)(bw[0], bw[1]), (index), dirs);
#elif NW == 4
#define STORE_BITS(index) vstore4((uint4)(bw[0], bw[1], bw[2], bw[3]), (index), dirs);
#else
#define STORE_BITS(index)                                                                     \
    vstore8((uint8)(bw[0], bw[1], bw[2], bw[3], bw[4], bw[5], bw[6], bw[7]), (index), dirs);
#endif
#define CLEAR_BITS()                                                                          \
    uint bw[NW];                                                                              \
    _Pragma("unroll") for (int w_ = 0; w_ < NW; w_++) bw[w_] = 0u;

#if TRACE
#if BITS == 4
#define EXTRA_BITS(MV, YV, HZ) 0u
#else
#define EXTRA_BITS(MV, YV, HZ) (((uint)((MV) >= (YV)) << 4) | ((uint)(HZ) << 5))
#endif
#define TRACE_BITS(r, XO, XE, YO, YE, MV, XV, YV, QV, HZ)                                    \
    {                                                                                         \
        const uint b_ = (uint)((XE) >= (XO)) | ((uint)((YE) >= (YO)) << 1)                    \
                      | ((uint)((MV) >= (XV)) << 2) | ((uint)((QV) >= (YV)) << 3)             \
                      | EXTRA_BITS(MV, YV, HZ);                                               \
        SET_BITS(r, b_)                                                                       \
    }
#else
#define TRACE_BITS(r, XO, XE, YO, YE, MV, XV, YV, QV, HZ)
#endif
/* The end cell of a local alignment: the first maximum in (strip, column, row) order, the
 * strips of the traced fill's RT rows (RT = R but for ENDS). The traced fill compares every
 * cell. ENDS (a score-only pass, R a multiple of RT) keeps one running maximum per RT-row
 * part of the strip, one max a cell: where a column raises a part's maximum, the part's
 * first row whose Q = max(M, Ix) holds the new value is the cell. An Ix there that equals
 * it before the M does needs an M at least as large earlier in the order (gap scores are
 * <= 0): then the part does not hold the pair's first maximum, and its cell does not
 * matter. The parts are taken in order at the strip's end. */
#ifndef RT
#define RT R
#endif
#if LOCAL && ENDS && !TRACE
#define NSUB (R / RT)
#define TRACK_BEST(m, r) col_best[(r) / RT] = max(col_best[(r) / RT], (m));
#define SUB_START()                                                                           \
    score_t sub_best[NSUB];                                                                   \
    int sub_i[NSUB], sub_j[NSUB];                                                             \
    _Pragma("unroll") for (int h_ = 0; h_ < NSUB; h_++) {                                     \
        sub_best[h_] = ZERO; sub_i[h_] = 0; sub_j[h_] = 0;                                    \
    }
#define COLUMN_START()                                                                        \
    score_t col_best[NSUB];                                                                   \
    _Pragma("unroll") for (int h_ = 0; h_ < NSUB; h_++) col_best[h_] = ZERO;
#define COLUMN_END()                                                                          \
    _Pragma("unroll") for (int h_ = 0; h_ < NSUB; h_++) {                                     \
        if (col_best[h_] > sub_best[h_]) {                                                    \
            sub_best[h_] = col_best[h_];                                                      \
            sub_j[h_] = j;                                                                    \
            int row_ = 0;                                                                     \
            _Pragma("unroll") for (int q_ = RT - 1; q_ >= 0; q_--) {                          \
                const int r_ = h_ * RT + q_;                                                  \
                if (r_ < nr && Q[r_] == col_best[h_]) row_ = r_;                              \
            }                                                                                 \
            sub_i[h_] = i0 + row_ + 1;                                                        \
        }                                                                                     \
    }
#define SUB_MERGE()                                                                           \
    _Pragma("unroll") for (int h_ = 0; h_ < NSUB; h_++)                                       \
        if (sub_best[h_] > best) { best = sub_best[h_]; best_i = sub_i[h_]; best_j = sub_j[h_]; }
#elif LOCAL && KEEP_END
#define TRACK_BEST(m, r)                                                                      \
    if ((m) > best) { best = (m); best_i = i0 + (r) + 1; best_j = j; }
#elif LOCAL
#define TRACK_BEST(m, r) best = max(best, (m));
#else
#define TRACK_BEST(m, r)
#endif
#ifndef SUB_START
#define SUB_START()
#define SUB_MERGE()
#define COLUMN_START()
#define COLUMN_END()
#endif

#if PROFILE
#define SUBST(r) ((int)(char)((((r) < 4) ? pw.s0 : pw.s1) >> (8 * ((r) & 3))))
#define COLUMN_SUBST() const uint2 pw = prof[bc];
#else
#define SUBST(r) lmat[arow[r] + bc]
#define COLUMN_SUBST()
#endif

/* One cell of row r of the strip at column j. OA/EA: the Iy scores of this row (the last row
 * of the matrix uses the right end-gap scores). */
#define CELL(r, OA, EA)                                                                       \
    {                                                                                         \
        score_t m_ = diag + SUBST(r);                                                         \
        CLAMP_M(m_);                                                                          \
        const score_t xo_ = up_P + oB, xe_ = up_X + eB;                                       \
        const score_t x_ = max(xo_, xe_);                                                     \
        const score_t yo_ = Q[r] + (OA), ye_ = Y[r] + (EA);                                   \
        const score_t y_ = max(yo_, ye_);                                                     \
        const int hz_ = (diag == ZERO);                                                       \
        diag = max(Q[r], Y[r]);                                                               \
        const score_t q_ = max(m_, x_);                                                       \
        TRACE_BITS(r, xo_, xe_, yo_, ye_, m_, x_, y_, q_, hz_)                                \
        Q[r] = q_;                                                                            \
        Y[r] = y_;                                                                            \
        up_P = max(m_, y_);                                                                   \
        up_X = x_;                                                                            \
        TRACK_BEST(m_, r)                                                                     \
    }

/* Row r of the last strip is the matrix's last row, whose Iy uses the right end gaps. */
#if LOCAL
#define RIGHT_ROW(r) 0
#define RIGHT_COLUMN(j) 0
#else
#define RIGHT_ROW(r) ((r) == nr - 1)
#define RIGHT_COLUMN(j) ((j) == nB)
#endif

/* All R rows of a strip at column j: full strips use the internal Iy scores throughout; the
 * last strip guards rows past nA and gives row nA the right end-gap scores. */
#define STRIP_COLUMN()                                                                        \
    COLUMN_SUBST()                                                                            \
    if (!last) {                                                                              \
        _Pragma("unroll") for (int r = 0; r < R; r++) CELL(r, G_OA, G_EA)                     \
    } else {                                                                                  \
        _Pragma("unroll") for (int r = 0; r < R; r++) {                                       \
            if (r < nr) {                                                                     \
                const score_t oa_ = RIGHT_ROW(r) ? G_ROA : G_OA;                              \
                const score_t ea_ = RIGHT_ROW(r) ? G_REA : G_EA;                              \
                CELL(r, oa_, ea_)                                                             \
            }                                                                                 \
        }                                                                                     \
    }

#if PROFILE
#define STRIP_PROFILE()                                                                       \
    for (int c = 0; c < K; c++) {                                                             \
        uint2 w_ = (uint2)(0u, 0u);                                                           \
        _Pragma("unroll") for (int r = 0; r < R; r++) {                                       \
            const uint v_ = (uint)(lmat[arow[r] + c] & 0xff);                                 \
            if (r < 4) w_.s0 |= v_ << (8 * r); else w_.s1 |= v_ << (8 * (r - 4));             \
        }                                                                                     \
        prof[c] = w_;                                                                         \
    }
#else
#define STRIP_PROFILE()
#endif

/* Strip start: residues of rows i0+1..i0+nr, left-border registers. */
#define STRIP_START(seqA)                                                                     \
    _Pragma("unroll") for (int r = 0; r < R; r++) {                                           \
        arow[r] = (r < nr) ? (int)seqA[i0 + r] * MAXK : 0;                                    \
        Q[r] = LEFT_H(i0 + r + 1);                                                            \
        Y[r] = NEG;                                                                           \
    }                                                                                         \
    STRIP_PROFILE()

/* H of the last row at the last column (the global score), from the strip registers. */
#define LAST_ROW_H(out)                                                                       \
    _Pragma("unroll") for (int r = 0; r < R; r++)                                             \
        if (r == nr - 1) out = max(Q[r], Y[r]);

/* ---------------------------------------------------------------------------------------- */
/* Inter-task: one work-item aligns one pair (seed 001, §3.1).                              */
/*   tasks[first + t] = (offset of A, nA, offset of B, nB) in seqs (the batch's tasks are    */
/*   uploaded once, in launch order); work: (maxB + 1) * T int2,                            */
/*   interleaved by task so that neighbouring work-items touch neighbouring words.          */
/*   dirs (TRACE): ceil(maxA / R) * maxB * T uint2, same interleaving.                      */
/* ---------------------------------------------------------------------------------------- */
__kernel void fill_pairs(__global const uchar *seqs,
                         __global const int4 *tasks,
                         const int first,
                         const int ntasks,
                         __global const int *matrix,
                         const int K,
                         __global const int *gaps,
                         __global score2_t *work,
                         __global int *scores,
#if TRACE
                         __global uint *dirs,
                         const int maxB,
#endif
#if KEEP_END
                         __global int2 *ends,
#endif
                         __local score_t *lmat
#if PROFILE
                         , __local uint2 *profiles
#endif
                         )
{
    load_matrix(lmat, matrix, K);
#if PROFILE
    __local uint2 *prof = profiles + get_local_id(0) * PSTRIDE;
#endif
    const int t = get_global_id(0);
    if (t >= ntasks) return;
    const size_t T = get_global_size(0);
    const int4 task = tasks[first + t];
    __global const uchar *seqA = seqs + task.x;
    __global const uchar *seqB = seqs + task.z;
    const int nA = task.y, nB = task.w;

    for (int j = 1; j <= nB; j++) work[(size_t)j * T + t] = (score2_t)(TOP_P(j), NEG);

    int arow[R];
    score_t Q[R], Y[R];
    score_t result = NEG;
#if LOCAL
    score_t best = ZERO;
#if KEEP_END
    int best_i = 0, best_j = 0;
#endif
#endif
    const int nstrips = (nA + R - 1) / R;
    for (int s = 0; s < nstrips; s++) {
        const int i0 = s * R;
        const int nr = min(R, nA - i0);
        const bool last = (s == nstrips - 1);
        STRIP_START(seqA)
        SUB_START()
        score_t diag = (i0 == 0) ? ZERO : LEFT_H(i0);
        score_t oB = G_OB, eB = G_EB;
        for (int j = 1; j <= nB; j++) {
            if (RIGHT_COLUMN(j)) { oB = G_ROB; eB = G_REB; }
            const int bc = seqB[j - 1];
            const score2_t up = work[(size_t)j * T + t];
            score_t up_P = up.x, up_X = up.y;
            const score_t diag_next = max(up_P, up_X);
#if TRACE
            CLEAR_BITS()
#endif
            COLUMN_START()
            STRIP_COLUMN()
            COLUMN_END()
            work[(size_t)j * T + t] = (score2_t)(up_P, up_X);
#if TRACE
            STORE_BITS(((size_t)s * maxB + (j - 1)) * T + t)
#endif
            diag = diag_next;
        }
        SUB_MERGE()
        if (last) { LAST_ROW_H(result) }
    }
#if LOCAL
    scores[t] = (int)best;
#if KEEP_END
    ends[t] = (int2)(best_i, best_j);
#endif
#else
    scores[t] = (int)result;
#if KEEP_END
    ends[t] = (int2)(nA, nB);
#endif
#endif
}

/* ---------------------------------------------------------------------------------------- */
/* Intra-task: one work-group shares one matrix (long pairs, no length cliff).              */
/* Work-item w owns rows band0 + w*R + 1 .. + R of a band of W*R rows and runs one column   */
/* behind w-1 (a systolic anti-diagonal wavefront); (P, X) of its last row passes to w+1    */
/* through double-buffered local memory. Between bands the boundary row lives in `border`.  */
/* Rows row_begin < i <= row_end are filled (row_begin a multiple of R); `border` must hold */
/* row row_begin on entry and holds row row_end on exit, so a long matrix can be recomputed */
/* from checkpoints band by band for a traceback that does not fit in memory.               */
/* ---------------------------------------------------------------------------------------- */
/* The wavefront of one matrix by the calling work-group. With LOCAL && TRACE the end cell
 * is the first maximum in fill_pairs' order (strip, column, row in the strip), whatever the
 * group size: the end, and so the traced path, of a pair is the same on either kernel. */
inline void wavefront(__global const uchar *seqs, const int4 task, __global const int *gaps,
                      __global score2_t *border, const int row_begin, const int row_end,
                      score_t *top_out, int2 *end_out,
#if TRACE
                      __global uint *dirs,
#endif
                      __local const score_t *lmat, __local score2_t *pass
#if PROFILE
                      , __local uint2 *prof, const int K
#endif
                      )
{
    const int w = get_local_id(0);
    const int W = get_local_size(0);
    __global const uchar *seqA = seqs + task.x;
    __global const uchar *seqB = seqs + task.z;
    const int nA = task.y, nB = task.w;

    int arow[R];
    score_t Q[R], Y[R];
    score_t result = NEG;
#if LOCAL
    score_t best = ZERO;
#if KEEP_END
    int best_i = 0, best_j = 0;
#endif
#endif
    const int nstrips_all = (nA + R - 1) / R;
    for (int band0 = row_begin; band0 < row_end; band0 += W * R) {
        const int i0 = band0 + w * R;
        const int s = i0 / R;
        const int active_rows = min(W * R, row_end - band0);
        const int nw = (active_rows + R - 1) / R;      /* work-items with rows in this band */
        const int nr = (w < nw) ? min(R, row_end - i0) : 0;
        const bool last = (s == nstrips_all - 1);
        STRIP_START(seqA)
        SUB_START()
        score_t diag = (i0 == 0) ? ZERO : LEFT_H(i0);
        score_t oB = G_OB, eB = G_EB;
        const int steps = nB + nw - 1;
        for (int k = 0; k < steps; k++) {
            const int j = k - w + 1;
            if (w < nw && j >= 1 && j <= nB) {
                if (RIGHT_COLUMN(j)) { oB = G_ROB; eB = G_REB; }
                const int bc = seqB[j - 1];
                const score2_t up = (w == 0) ? border[j] : pass[((k - 1) & 1) * W + (w - 1)];
                score_t up_P = up.x, up_X = up.y;
                const score_t diag_next = max(up_P, up_X);
#if TRACE
                CLEAR_BITS()
#endif
                COLUMN_START()
                STRIP_COLUMN()
                COLUMN_END()
#if TRACE
                STORE_BITS((size_t)(s - row_begin / R) * nB + (j - 1))
#endif
                pass[(k & 1) * W + w] = (score2_t)(up_P, up_X);
                if (w == nw - 1) border[j] = (score2_t)(up_P, up_X);
                diag = diag_next;
            }
            barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        }
        SUB_MERGE()
        if (last && w < nw) { LAST_ROW_H(result) }
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    }

#if LOCAL
    const score_t mine = best;
#else
    const score_t mine = result;
#endif
    /* (value, work-item) through the pass buffer (indices and rows travel as scores: exact),
     * and with LOCAL && TRACE each item's end cell beside it. */
    pass[w] = (score2_t)(mine, (score_t)w);
#if LOCAL && KEEP_END
    pass[W + w] = (score2_t)((score_t)best_i, (score_t)best_j);
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    if (w == 0) {
        score2_t top = pass[0];
#if LOCAL && KEEP_END
        /* Each item's end is its first maximum in (strip, column, row) order: among the
         * items holding the group's maximum, the first end in that order is fill_pairs'. */
        score2_t end = pass[W];
        for (int q = 1; q < W; q++) {
            const score2_t c = pass[W + q];
            const int ci = (int)c.x - 1, ei = (int)end.x - 1;
            const bool earlier = (ci / R < ei / R)
                || (ci / R == ei / R && ((int)c.y < (int)end.y
                                          || ((int)c.y == (int)end.y && ci % R < ei % R)));
            if (pass[q].x > top.x || (pass[q].x == top.x && earlier)) {
                top = pass[q];
                end = c;
            }
        }
        *end_out = (int2)((int)end.x, (int)end.y);
#else
        for (int q = 1; q < W; q++)
            if (pass[q].x > top.x) top = pass[q];
        *end_out = (int2)(nA, nB);
#endif
        *top_out = top.x;
    }
}

__kernel void fill_wavefront(__global const uchar *seqs,
                             const int4 task,
                             __global const int *matrix,
                             const int K,
                             __global const int *gaps,
                             __global score2_t *border,
                             const int row_begin,
                             const int row_end,
                             __global score_t *result_out,
#if TRACE
                             __global uint *dirs,
#endif
                             __local score_t *lmat,
                             __local score2_t *pass
#if PROFILE
                             , __local uint2 *profiles
#endif
                             )
{
    load_matrix(lmat, matrix, K);
    score_t top;
    int2 end;
    wavefront(seqs, task, gaps, border, row_begin, row_end, &top, &end,
#if TRACE
              dirs,
#endif
              lmat, pass
#if PROFILE
              , profiles + get_local_id(0) * PSTRIDE, K
#endif
              );
    if (get_local_id(0) == 0) {
        result_out[0] = top;
        result_out[1] = (score_t)end.x;
        result_out[2] = (score_t)end.y;
    }
}

/* ---------------------------------------------------------------------------------------- */
/* Many long pairs in one launch: work-group g aligns pair tasks[g] (a whole matrix, one band */
/* per W * R rows), its top border at border + border_base[g] (row 0 on entry), its           */
/* directions (TRACE) at dirs + dir_base[g] uints in fill_wavefront's layout; scores[g] and  */
/* ends[g] as fill_pairs writes them.                                                         */
/* ---------------------------------------------------------------------------------------- */
__kernel void fill_wavefront_groups(__global const uchar *seqs,
                                    __global const int4 *tasks,
                                    __global const int *matrix,
                                    const int K,
                                    __global const int *gaps,
                                    __global score2_t *border,
                                    __global const ulong *border_base,
                                    __global int *scores,
                                    __global int2 *ends,
#if TRACE
                                    __global uint *dirs,
                                    __global const ulong *dir_base,
#endif
                                    __local score_t *lmat,
                                    __local score2_t *pass
#if PROFILE
                                    , __local uint2 *profiles
#endif
                                    )
{
    load_matrix(lmat, matrix, K);
    const int g = get_group_id(0);
    const int4 task = tasks[g];
    score_t top;
    int2 end;
    wavefront(seqs, task, gaps, border + border_base[g], 0, task.y, &top, &end,
#if TRACE
              dirs + dir_base[g],
#endif
              lmat, pass
#if PROFILE
              , profiles + get_local_id(0) * PSTRIDE, K
#endif
              );
    if (get_local_id(0) == 0) {
        scores[g] = (int)top;
        ends[g] = end;
    }
}

/* ---------------------------------------------------------------------------------------- */
/* Where the co-optimal local paths ending at a pair's end cell start (the windowed          */
/* traceback). For pair t of local score V = scores[t] > 0 ending at (ie, je) = ends[t]     */
/* (fill_pairs' end), a path's score read backwards is the same (an affine gap run is       */
/* charged one opening whichever end it is read from), so a DP over the reversed prefixes  */
/* A[ie-1..0], B[je-1..0] anchored at the end (row and column 0 at minus infinity but the   */
/* corner, M not clamped at 0) has in M'(i', j') the best score of a path that starts       */
/* aligned at (ie - i' + 1, je - j' + 1) and ends aligned at (ie, je). Where M' == V a      */
/* co-optimal path starts; with imax, jmax the largest such i' and j', every co-optimal     */
/* path, and so the one the full traceback follows, lies in rows ie - imax + 1 .. ie and    */
/* columns je - jmax + 1 .. je: starts[t] = (ie - imax, je - jmax), the rectangle's corner  */
/* (0-based). Integer scores only; same task table and work layout as fill_pairs.          */
/*                                                                                          */
/* Pruning: along a co-optimal path every value of this DP is the score of a suffix of it,  */
/* V minus a prefix's score, and a prefix scores at most V (the pair's best), so it is      */
/* >= 0; and a value there is never raised by a path through a negative cell (that would    */
/* make a path above V). So values below 0 are dropped to minus infinity without changing  */
/* a value on any co-optimal path or creating an M' == V. Then each strip need only sweep   */
/* the columns from the first live one of the strip above to where both the border above  */
/* and its own rows are dead (live columns only move right from strip to strip), and the    */
/* sweep stops at a strip with no live column: the cost is the live region around the path, */
/* not the prefix.                                                                          */
/* ---------------------------------------------------------------------------------------- */
#define DROP(v) (((v) < 0) ? NEG_INF : (v))

__kernel void fill_reverse_starts(__global const uchar *seqs,
                                  __global const int4 *tasks,
                                  const int first,
                                  const int ntasks,
                                  __global const int *matrix,
                                  const int K,
                                  __global const int *gaps,
                                  __global int2 *work,
                                  __global const int *scores,
                                  __global const int2 *ends,
                                  __global int2 *starts,
                                  __local int *rmat)
{
    local_matrix(rmat, matrix, K, MAXK);
    const int t = get_global_id(0);
    if (t >= ntasks) return;
    const size_t T = get_global_size(0);
    const int4 task = tasks[first + t];
    const int V = scores[t];
    const int2 e = ends[t];
    if (V <= 0 || e.x == 0) {
        starts[t] = (int2)(e.x, e.y);
        return;
    }
    __global const uchar *seqA = seqs + task.x;
    __global const uchar *seqB = seqs + task.z;
    const int nA = e.x, nB = e.y;  /* the reversed prefixes */
    const int oA = G_OA, eA = G_EA, oB = G_OB, eB = G_EB;
    for (int j = 1; j <= nB; j++) work[(size_t)j * T + t] = (int2)(NEG_INF, NEG_INF);
    int arow[R], Q[R], Y[R];
    int imax = 0, jmax = 0;
    /* live columns of the border above: lo .. hi (none: hi < lo); last: columns swept */
    int lo = 1, hi = 0, last = 0;
    const int nstrips = (nA + R - 1) / R;
    for (int s = 0; s < nstrips; s++) {
        const int i0 = s * R;
        const int nr = min(R, nA - i0);
        _Pragma("unroll") for (int r = 0; r < R; r++) {
            arow[r] = (r < nr) ? (int)seqA[nA - 1 - (i0 + r)] * MAXK : 0;
            Q[r] = NEG_INF;
            Y[r] = NEG_INF;
        }
        int diag = (i0 == 0) ? 0 : NEG_INF;   /* only the corner is live on row 0 */
        bool own = (i0 == 0);                 /* this strip's rows hold a live value */
        int next_lo = nB + 1, next_hi = 0;
        int j = (i0 == 0) ? 1 : lo;
        for (; j <= nB && (j <= hi + 1 || own); j++) {  /* hi + 1: its diagonal is live */
            const int bc = seqB[nB - j];
            const int2 up = work[(size_t)j * T + t];
            int up_P = up.x, up_X = up.y;
            const int diag_next = max(up_P, up_X);
            own = false;
            _Pragma("unroll") for (int r = 0; r < R; r++) {
                const int m = DROP(diag + rmat[arow[r] + bc]);
                const int x = DROP(max(up_P + oB, up_X + eB));
                const int y = DROP(max(Q[r] + oA, Y[r] + eA));
                diag = max(Q[r], Y[r]);
                Q[r] = max(m, x);
                Y[r] = y;
                up_P = max(m, y);
                up_X = x;
                const bool valid = r < nr;
                own = own || (valid && max(Q[r], y) >= 0);
                const bool hit = (m == V) && valid;  /* selects, no branch */
                imax = max(imax, hit ? i0 + r + 1 : 0);
                jmax = max(jmax, hit ? j : 0);
            }
            work[(size_t)j * T + t] = (int2)(up_P, up_X);
            if (max(up_P, up_X) >= 0) {
                next_lo = min(next_lo, j);
                next_hi = j;
            }
            diag = diag_next;
        }
        /* columns the strip above swept and this one did not: dead below from here on */
        for (int k = j; k <= last; k++) work[(size_t)k * T + t] = (int2)(NEG_INF, NEG_INF);
        last = j - 1;
        lo = next_lo;
        hi = next_hi;
        if (hi < lo) break;  /* no live column left: nothing below can reach V */
    }
    starts[t] = (int2)(e.x - imax, e.y - jmax);
}
