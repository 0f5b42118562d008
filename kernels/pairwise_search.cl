/* Database search: local (Smith-Waterman) scores of queries against many database sequences.
 *
 * The packing is fill_pairs16's (pairwise_fill16.cl, read its header first): strips of R query
 * rows, two rows per packed 16-bit operation, lane 1 one column behind lane 0. Two kernels:
 *
 * - search16 (inter-task): one work-item scores one (query, subject) pair. Every work-item of
 *   a group aligns the same query, so the query's strip profile (built once per search by
 *   build_profile16) is shared: the group copies SB strips of it into local memory at a time
 *   and walks the strips in lockstep (a barrier per block of SB strips), which costs little
 *   because a group's subjects are neighbours in length order. A group's work is a "group
 *   task" (subject group, query, query slot); the host orders the tasks by cost, heaviest
 *   first, so the longest work starts first and the launch ends on light groups.
 * - search16_long (intra-task): one work-group scores one long pair, so no single work-item
 *   carries it. Work-item w takes strips w, w + W, w + 2W, ... and walks each in chunks of C
 *   columns; chunk c of strip s runs two steps after chunk c of strip s - 1 (one step is not
 *   enough: a strip writes its bottom row one column behind, lane 1's lag), with a barrier
 *   between steps. The strip borders live in one global row per pair.
 *
 * Arithmetic (HFORM): with HFORM 1 a cell is the textbook Gotoh cell on H = max(M, E, F, 0):
 *   h = max(diag + s, E, F, 0);  E' = max(E + eA, h + oA);  F' = max(F + eB, h + oB)
 * where E (per row, along the subject) and F (down the rows) are kept as the values of the
 * next cell, and each update is an add and a max (one VIADDMNMX on sm_90 where ptxas fuses
 * them); CELLH below keeps F's chain to one add and one max. That is fill16's three-state cell
 * (M, X, Y, with gaps of one kind allowed right after the other) whenever opening a gap scores
 * no more than extending one (oA <= eA, oB <= eB): then h + o never exceeds E + e when h = E.
 * The host uses HFORM 0 (fill16's own cell) otherwise. The border row of a strip holds
 * (H, F') per column with HFORM 1 and (P, X) with HFORM 0.
 *
 * Exactness: the values are local-alignment values, never below the (small) gap scores and
 * never above the largest H value computed so far plus one substitution score, and every H
 * value enters the running best. So if the best stays below 16000 no value ever left the
 * 16-bit range; the host rescores any pair whose 16-bit best reaches 16000 with the 32-bit
 * kernels (search.py, LIMIT16).
 *
 * Defines: LOCAL (must be 1), PTX16, R (16, 32 or 64), as in pairwise_fill16.cl; HFORM as
 * above; FHAT (with FOB, FEB: the gap scores oB, eB) keeps F in the row-offset form CELLH
 * describes.
 */
#include "pairwise_fill16.cl"

#if !LOCAL
#error "the search kernels compute local alignments only"
#endif
#ifndef HFORM
#define HFORM 1
#endif
#ifndef FHAT
#define FHAT 0
#endif
#if FHAT && !HFORM
#error "FHAT: the H-form cell only"
#endif

#if HFORM
/* Q[r] holds H and Y[r] the next column's E of packed row r; carryX / carryD carry lane 0's
 * last F' and diagonal H into lane 1 (carryP is unused). */
/* m' = max(diag + s, E, 0) does not depend on F, and since oB <= eB,
 * F' = max(F + eB, max(m', F) + oB) = max(F + eB, m' + oB): the chain down the rows is one
 * add and one max per row (the latency a warp waits for), h = max(m', F) is off it. The
 * best of the pair is the best m': an F never exceeds the H it was opened from. */
#if FHAT
/* With the gap scores built in (FOB = oB, FEB = eB), F is kept as F^_r = F_r - r eB down
 * the rows: F^_{r+1} = max(F^_r, m'_r + (oB - (r + 1) eB)) is one add-max with an
 * immediate where it was an add and an add-max, and h = max(m', F^_r + r eB) stays one
 * operation (5.6 % more cells a second on an H200). The host builds it only while
 * HALF |eB| leaves the 16-bit headroom (scan.py, FHAT_HEADROOM). */
#define KF(v) p_pack((v), (v))
#define CELLH(r)                                                                              \
    {                                                                                         \
        const p2 m_ = p_max_relu(p_add(diag, SUBST(r)), Y[r]);                                \
        const p2 h_ = p_max(m_, p_add(F, KF((r) * FEB)));                                     \
        diag = Q[r];                                                                          \
        Q[r] = h_;                                                                            \
        Y[r] = p_max(p_add(Y[r], eA_all), p_add(h_, oA_all));                                 \
        F = p_max(F, p_add(m_, KF(FOB - ((r) + 1) * FEB)));                                   \
        best = p_max(best, m_);                                                               \
    }
#define F_OUT(F) p_add((F), KF(HALF * FEB)) /* F^_HALF back to F */
#else
#define CELLH(r)                                                                              \
    {                                                                                         \
        const p2 m_ = p_max_relu(p_add(diag, SUBST(r)), Y[r]);                                \
        const p2 h_ = p_max(m_, F);                                                           \
        diag = Q[r];                                                                          \
        Q[r] = h_;                                                                            \
        Y[r] = p_max(p_add(Y[r], eA_all), p_add(h_, oA_all));                                 \
        F = p_max(p_add(F, eB_in), p_add(m_, oB_in));                                         \
        best = p_max(best, m_);                                                               \
    }
#define F_OUT(F) (F)
#endif
/* One step: lane 0 at column j (border word `up` = (H, F') of the row above), lane 1 at
 * column j - 1; lane 1's last row goes to the border of column j - 1. */
#define STEP(j, up)                                                                           \
    {                                                                                         \
        p2 F = p_pack((up).y, carryX);                                                        \
        p2 diag = p_pack(diag_lo, carryD);                                                    \
        _Pragma("unroll") for (int r = 0; r < HALF; r++) CELLH(r)                             \
        F = F_OUT(F);                                                                         \
        carryX = p_lo(F);                                                                     \
        carryD = p_lo(diag);                                                                  \
        if ((j) >= 2) work[(size_t)((j) - 1) * T + t] = (short2)(p_hi(Q[HALF - 1]), p_hi(F)); \
        L1 = L1n;                                                                             \
    }
#define DIAG_OF(up) ((int)(up).x)
#define BORDER_TOP ((short2)(0, G_OB))
#define ROW_Y0 oA_all /* E of column 1: a gap opened from H(i, 0) = 0 */
#else
#define STEP(j, up)                                                                           \
    {                                                                                         \
        const int2 up_lo = (int2)((up).x, (up).y);                                            \
        STEP16(j, INNER_GAPS)                                                                 \
    }
#define DIAG_OF(up) max((int)(up).x, (int)(up).y)
#define BORDER_TOP ((short2)(0, NEG16))
#define ROW_Y0 p_pack(NEG16, NEG16)
#endif

/* Strip start: rows at the left border (H = 0 in local alignments). */
#define STRIP_INIT                                                                            \
    {                                                                                         \
        _Pragma("unroll") for (int r = 0; r < HALF; r++) {                                    \
            Q[r] = P_ZERO;                                                                    \
            Y[r] = ROW_Y0;                                                                    \
        }                                                                                     \
        diag_lo = 0;                                                                          \
        carryP = NEG16;                                                                       \
        carryX = NEG16;                                                                       \
        carryD = NEG16;                                                                       \
        L1 = pad;                                                                             \
    }
/* After step 1 lane 1 (at column 0) goes back to the left border. */
#define LANE1_RESET                                                                           \
    {                                                                                         \
        const p2 y0_ = ROW_Y0;                                                                \
        _Pragma("unroll") for (int r = 0; r < HALF; r++) {                                    \
            Q[r] = p_pack(p_lo(Q[r]), 0);                                                     \
            Y[r] = p_pack(p_lo(Y[r]), p_hi(y0_));                                             \
        }                                                                                     \
    }

/* Variables the cell macros use, for both kernels. */
#define CELL_STATE                                                                            \
    int gaps[12];                                                                             \
    _Pragma("unroll") for (int k = 0; k < 12; k++) gaps[k] = gap_scores[k];                   \
    const p2 oB_in = p_pack(G_OB, G_OB), eB_in = p_pack(G_EB, G_EB);                          \
    const p2 oA_all = p_pack(G_OA, G_OA), eA_all = p_pack(G_EA, G_EA);                        \
    p2 Q[HALF], Y[HALF];                                                                      \
    p2 best = P_ZERO;                                                                         \
    const part_t pad = (part_t)(0u);                                                          \
    part_t L0, L1 = pad, L1n;                                                                 \
    int diag_lo = 0, carryP = NEG16, carryX = NEG16, carryD = NEG16;                          \
    (void)carryP;                                                                             \
    (void)oB_in;

/* subjects[t] = (offset in db, length) in launch order (longest first); queries[q] = (first
 * uint4 of the query's profile, query length, number of its strips, first launch position
 * this kernel scores for the query: the ones before are long pairs, see search16_long);
 * tasks[g] = (subject group, query, query slot, unused): group g scores subjects
 * G * task.x .. G * task.x + G - 1 against query task.y. work_base[sg] = first short2 of
 * subject group sg's border block ((its longest subject + 1) * G short2s); the blocks of
 * query slot k start at k * work_stride. scores[slot * nsub + t] gets the 16-bit local score
 * (left unwritten for long pairs). */
/* In local memory search16 spaces the letters' profile entries LSTRIDE uint4 words apart
 * (R / 16 + 1 by default): work-items read the entries of different letters at once, and
 * entries R / 16 words apart fall on the same few banks. */
#ifndef LSTRIDE
#define LSTRIDE (R / 16 + 1)
#endif
#undef PROF_STRIDE
#define PROF_STRIDE LSTRIDE
__kernel void search16(__global const uchar *restrict db,
                       __global const int2 *restrict subjects,
                       const int nsub,
                       __global const uint4 *restrict qprof,
                       __global const int4 *restrict queries,
                       const int K,
                       __global const int *restrict gap_scores,
                       __global short2 *restrict work_all,
                       __global const long *restrict work_base,
                       const long work_stride,
                       __global const int4 *restrict tasks,
                       __global int *restrict scores,
                       __local uint4 *restrict lprof,
                       const int SB)
{
    const int lid = get_local_id(0);
    const int G = get_local_size(0);
    const int4 task = tasks[get_group_id(0)];
    const int gid = task.x * G + lid;
    const int4 query = queries[task.y];
    const int active = gid < nsub && gid >= query.w;
    const int2 subject = active ? subjects[gid] : (int2)(0, 0);
    __global const uchar *seqB = db + subject.x;
    const int nB = subject.y;
    /* the names the step macros use: this work-item's border column is work[j * T + t] */
    __global short2 *work = work_all + (size_t)task.z * work_stride + work_base[task.x];
    const size_t T = G;
    const int t = lid;
    CELL_STATE
    for (int j = 1; j <= nB; j++) work[(size_t)j * T + t] = BORDER_TOP;

    const int words = K * (R / 16); /* uint4 words of one strip's profile */
    const int nstrips = query.z;
    for (int s0 = 0; s0 < nstrips; s0 += SB) {
        const int nsb = min(SB, nstrips - s0);
        barrier(CLK_LOCAL_MEM_FENCE); /* the previous block's readers are done */
        for (int k = lid; k < nsb * words; k += G)
            lprof[k / (R / 16) * PROF_STRIDE + k % (R / 16)] =
                qprof[(size_t)query.x + (size_t)s0 * words + k];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (nB == 0) continue;
        for (int s = s0; s < s0 + nsb; s++) {
            __local const uint4 *prof = lprof + (s - s0) * K * PROF_STRIDE;
            STRIP_INIT
            { /* step 1: lane 1 sits at column 0 */
                const short2 up = work[T + t];
                LOAD_COLUMN(seqB[0], L0, L1n)
                STEP(1, up)
                diag_lo = DIAG_OF(up);
                LANE1_RESET
            }
            /* columns 2..nB: the border word and letter are read two steps ahead and the
             * profile words one step ahead, so a step's work hides their latency */
            short2 up1 = work[(size_t)min(2, nB) * T + t], up2 = work[(size_t)min(3, nB) * T + t];
            int bc2 = seqB[min(2, nB - 1)];
            part_t L0n, L1nn;
            LOAD_COLUMN(seqB[min(1, nB - 1)], L0n, L1nn)
            for (int j = 2; j <= nB; j++) {
                const short2 up = up1;
                L0 = L0n;
                L1n = L1nn;
                up1 = up2;
                LOAD_COLUMN(bc2, L0n, L1nn)
                if (j + 2 <= nB) {
                    up2 = work[(size_t)(j + 2) * T + t];
                    bc2 = seqB[j + 1];
                }
                STEP(j, up)
                diag_lo = DIAG_OF(up);
            }
            { /* step nB + 1: lane 1 finishes column nB; lane 0 runs on padding */
                const short2 up = (short2)(NEG16, NEG16);
                L0 = pad;
                STEP(nB + 1, up)
            }
        }
    }
    if (active) scores[(size_t)task.z * nsub + gid] = max(p_lo(best), p_hi(best));
}

#undef PROF_STRIDE
#define PROF_STRIDE (R / 16)

/* One work-group per long pair: tasks[g] = (subject offset in db, subject length, query,
 * unused); the pair's border row is work_all[work_base[g] .. + length]. scores[g] must be 0
 * before the launch: each work-item folds its best in with atomic_max. */
__kernel void search16_long(__global const uchar *restrict db,
                            __global const int4 *restrict tasks,
                            __global const uint4 *restrict qprof,
                            __global const int4 *restrict queries,
                            const int K,
                            __global const int *restrict gap_scores,
                            __global short2 *work_all,
                            __global const long *restrict work_base,
                            __global int *scores)
{
    const int w = get_local_id(0);
    const int G = get_local_size(0);
    const int4 task = tasks[get_group_id(0)];
    const int4 query = queries[task.z];
    __global const uchar *seqB = db + task.x;
    const int nB = task.y;
    /* not restrict: other work-items of the group write what this one reads */
    __global short2 *work = work_all + work_base[get_group_id(0)];
    const size_t T = 1;
    const int t = 0;
    CELL_STATE
    for (int j = 1 + w; j <= nB; j += G) work[j] = BORDER_TOP;
    barrier(CLK_GLOBAL_MEM_FENCE);

    const int words = K * (R / 16);
    const int nstrips = query.z;
    /* W work-items take part; when they wrap around to a second strip, strip s + W's chunk
     * c must come after strip s + W - 1's chunk c + 1: nc >= 2 W chunks per strip */
    const int W = max(1, min(G, min(nstrips, (nB + 1) / 2)));
    const int rounds = (nstrips + W - 1) / W;
    const int C = rounds > 1 ? max(1, min(16, (nB + 1) / (2 * W))) : 8;
    const int nc = (nB + 1 + C - 1) / C;
    const int mine = w < W ? nc * ((nstrips - w + W - 1) / W) : 0;
    const int nsteps = 2 * (W - 1) + nc * rounds;
    for (int k = 0; k < nsteps; k++) {
        const int i = k - 2 * w;
        if (i >= 0 && i < mine) {
            const int m = i / nc, c = i - m * nc;
            __global const uint4 *prof = qprof + (size_t)query.x + (size_t)(w + W * m) * words;
            if (c == 0) STRIP_INIT
            const int ja = c * C + 1, jb = min(nB + 1, (c + 1) * C);
            for (int j = ja; j <= jb; j++) {
                short2 up = (short2)(NEG16, NEG16);
                if (j <= nB) {
                    up = work[j];
                    LOAD_COLUMN(seqB[j - 1], L0, L1n)
                } else {
                    L0 = pad;
                }
                STEP(j, up)
                diag_lo = DIAG_OF(up);
                if (j == 1) LANE1_RESET
            }
        }
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
    if (nB > 0) atomic_max(scores + get_group_id(0), max(p_lo(best), p_hi(best)));
}
