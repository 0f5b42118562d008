/* Score-only pairwise fill in packed 16-bit arithmetic: two cells per 32-bit operation.
 *
 * Same recurrences and border rules as fill_pairs in pairwise_fill.cl (read that file's
 * header first); only the arithmetic differs. One work-item aligns one pair, sweeping strips
 * of R = 16, 32 or 64 rows left to right. The strip's two halves (H = R/2 rows each) run side by
 * side in the two 16-bit lanes of each value, the lower half one column behind:
 *
 *   lane 0 (low 16 bits):  rows i0+1 .. i0+H    at column j
 *   lane 1 (high 16 bits): rows i0+H+1 .. i0+R  at column j-1
 *
 * Row i0+H+1 at column j-1 needs only row i0+H at column j-1 (lane 0's output of the
 * previous step), so both halves advance together: what lane 0's last row leaves (P, X and the diagonal H)
 * enters lane 1 one step later, and lane 1's last row goes to the strip's global border.
 * Each step is one pass of H packed rows: the add / max operations work on both lanes at
 * once (add.s16x2 / max.s16x2 on NVIDIA sm_90 through PTX when PTX16 is set, OpenCL short2
 * arithmetic otherwise).  A strip takes nB + 1 steps: in the first, lane 1 is at column 0 and
 * its rows are reset to the left border afterwards; in the last, lane 0 is past column nB and
 * its values are ignored.
 *
 * Substitution scores come from a profile of every 16-row strip of every sequence, built once
 * per batch by build_profile16 (the host pads each sequence in `seqs` to a multiple of 16
 * residues with the code 255): for each letter c, the 16 scores S(A_i0+1..i0+16, c) as
 * signed bytes in one uint4, so a step reads one 16-byte word (lane 1 reuses the previous
 * step's). Padding rows (past the end of A, and lane 0 past column nB in the last step) score
 * 0: a padding cell's value never exceeds the real value it came from, so it cannot raise a
 * local maximum, and it falls by at most two gap scores per row. In an all-vs-all batch
 * neighbouring work-items share A, so these reads
 * hit the same few cache lines.
 *
 * The host uses this kernel only when every value stays well inside 16 bits (see
 * engine.fits_16bit): no operation can wrap around, so the scores are exact.
 *
 * Defines: LOCAL, PTX16 (NVIDIA inline PTX for the packed operations), ROW_GAPS (1 when the
 * last row's Iy scores differ from the internal ones, i.e. global runs whose right end gaps
 * in A differ: then each row keeps its own pair of gap scores, 16 more registers), ENDS
 * (local only: also each pair's end cell, the one fill_pairs' ENDS pass gives: see "End
 * cells" below) with RT (its rows per strip of the end order, 8, 16 or 32), MAXK (the
 * matrix side in local memory of fill_reverse16, the windowed traceback's reverse pass in
 * this arithmetic: see its comment at the end of the file).
 */
#include "common.h"
#include "pairwise_gaps.h"

#ifndef LOCAL
#define LOCAL 0
#endif
#ifndef PTX16
#define PTX16 0
#endif
#ifndef ROW_GAPS
#define ROW_GAPS 0
#endif
#if LOCAL && ROW_GAPS
#error "local alignments have no end gaps"
#endif
#ifndef ENDS
#define ENDS 0
#endif
#if ENDS && !LOCAL
#error "ENDS: end cells of local alignments only"
#endif

#ifndef R
#define R 16
#endif
#if R != 16 && R != 32 && R != 64
#error "R (rows per strip) must be 16, 32 or 64"
#endif
#define HALF (R / 2)
#define NEG16 (-16384) /* "minus infinity": real values stay above -16000 (host check) */

/* Packed pairs (lane 0 low, lane 1 high). */
#if PTX16
typedef uint p2;
inline p2 p_add(p2 a, p2 b) { p2 d; asm("add.s16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); return d; }
inline p2 p_max(p2 a, p2 b) { p2 d; asm("max.s16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); return d; }
inline p2 p_max_relu(p2 a, p2 b) { p2 d; asm("max.relu.s16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); return d; }
inline p2 p_pack(int lo, int hi) { return ((uint)lo & 0xffffu) | ((uint)hi << 16); }
inline int p_lo(p2 a) { return (int)(short)(a & 0xffffu); }
inline int p_hi(p2 a) { return (int)(short)(a >> 16); }
/* Byte k (0..3) of a and of b, sign-extended into the two lanes: one prmt. */
inline p2 p_bytes(uint a, uint b, const uint k) {
    const uint sel = k | ((k | 8u) << 4) | ((4u + k) << 8) | (((4u + k) | 8u) << 12);
    p2 d; asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(sel)); return d;
}
#define P_ZERO 0u
#else
typedef short2 p2;
#define p_add(a, b) ((a) + (b))
#define p_max(a, b) max((a), (b))
#define p_max_relu(a, b) max(max((a), (b)), P_ZERO)
#define p_pack(lo, hi) ((short2)((short)(lo), (short)(hi)))
#define p_lo(a) ((int)(a).x)
#define p_hi(a) ((int)(a).y)
#define p_bytes(a, b, k) ((short2)((short)(char)((a) >> (8 * (k))), (short)(char)((b) >> (8 * (k)))))
#define P_ZERO ((short2)(0, 0))
#endif


#define LEFT_H(i) (LOCAL ? 0 : (G_LOB + G_LEB * ((i) - 1)))
#define TOP_P(j) (LOCAL ? 0 : (G_LOA + G_LEA * ((j) - 1)))

/* A strip's profile entry for one letter is R bytes: the lane-0 part (rows 1..HALF of the
 * strip) then the lane-1 part (rows HALF+1..R). Packed row r scores with byte r of the lane-0
 * part of this step's column (L0) and of the lane-1 part of the previous column (L1).
 * Letters' entries lie PROF_STRIDE uint4 words apart (R / 16 unless a kernel pads them). */
#ifndef PROF_STRIDE
#define PROF_STRIDE (R / 16)
#endif
#if R == 16
typedef uint2 part_t;
#define PART_WORD(v, q) ((q) == 0 ? (v).s0 : (v).s1)
#define LOAD_COLUMN(c, lane0, lane1)                                                          \
    { const uint4 w_ = prof[PROF_STRIDE * (c)]; lane0 = w_.s01; lane1 = w_.s23; }
#elif R == 32
typedef uint4 part_t;
#define PART_WORD(v, q) ((q) == 0 ? (v).s0 : (q) == 1 ? (v).s1 : (q) == 2 ? (v).s2 : (v).s3)
#define LOAD_COLUMN(c, lane0, lane1)                                                          \
    { lane0 = prof[PROF_STRIDE * (c)]; lane1 = prof[PROF_STRIDE * (c) + 1]; }
#else
typedef uint8 part_t;
#define PART_WORD(v, q)                                                                       \
    ((q) == 0 ? (v).s0 : (q) == 1 ? (v).s1 : (q) == 2 ? (v).s2 : (q) == 3 ? (v).s3 :          \
     (q) == 4 ? (v).s4 : (q) == 5 ? (v).s5 : (q) == 6 ? (v).s6 : (v).s7)
#define LOAD_COLUMN(c, lane0, lane1)                                                          \
    {                                                                                         \
        lane0 = (uint8)(prof[PROF_STRIDE * (c)], prof[PROF_STRIDE * (c) + 1]);                \
        lane1 = (uint8)(prof[PROF_STRIDE * (c) + 2], prof[PROF_STRIDE * (c) + 3]);            \
    }
#endif
#define SUBST(r) p_bytes(PART_WORD(L0, (r) >> 2), PART_WORD(L1, (r) >> 2), (uint)((r) & 3))

/* Local alignment clamps M at 0. M only ever enters a maximum, and the running best is
 * already >= 0, so the clamp folds into those maxima: max(max(m, 0), x) = relu(max(m, x))
 * (one max.relu.s16x2 on sm_90) and max(best, max(m, 0)) = max(best, m). */
#if LOCAL
#define MAX_M(m, v) p_max_relu(m, v)
#else
#define MAX_M(m, v) p_max(m, v)
#endif

/* End cells (ENDS). The traced fill's end is the first maximum of M in (part, column, row)
 * order, a part being RT rows (i - 1) / RT, the strips of fill_pairs with TRACE; the 32-bit
 * ENDS pass gives that cell. Here a strip's rows are cut into blocks of PART16 =
 * min(HALF, RT) rows, each inside one lane and one part (powers of two: the block
 * boundaries are multiples of both). Each block keeps its running maximum, started at 0 in
 * every strip: a step starts each column maximum at the block's and raises it by one max a
 * cell; where a lane's rises, the column (lane 1: one behind) and the block's first row
 * whose Q = max(M, Ix) holds the new value are kept. At the strip's end every block's
 * (value, cell) is merged into the pair's by larger value, ties by the earlier cell in
 * (part, column, row) order. The merge gives the first maximum p = (part p, column jp,
 * row ip) of value V > 0 (V = 0: no block rises, the end stays (0, 0), as in fill_pairs):
 *  - every gap value (and so every Q that is not an M) is at most an M at an earlier cell
 *    (up and to the left: gap scores are <= 0; the local borders are 0 + a gap), and so is
 *    every padding cell (rows past nA, lane 0's column nB + 1 in the strip's last step:
 *    substitution 0 from the cell up-left, never higher than the real H it came from);
 *  - p's block: no earlier column reaches V (p is first), column jp does; above ip in it
 *    M < V and Ix < V (both would mean a V no later than an earlier cell), and Q(ip) = V:
 *    the block keeps p exactly;
 *  - any other block that reaches V first does so in a column j' with an M = V at row m
 *    of the block, later than p; or with a padding cell of value V, which lies after a real
 *    M = V up-left, so after p. Its cell (part of the block, j', a row of the block) is then
 *    after p too: a later part, or the same part and j' > jp, or j' = jp and the whole block
 *    below ip (blocks are disjoint runs of rows). So p wins the merge, whatever the order
 *    in which the blocks' cells come; a kept cell that is not a maximum never wins. */
#if ENDS
#ifndef RT
#define RT HALF
#endif
#if RT != 8 && RT != 16 && RT != 32
#error "RT (rows per strip of the end order) must be 8, 16 or 32"
#endif
#define PART16 (HALF < RT ? HALF : RT)
#define NSUB16 (HALF / PART16)
#if PTX16
#define p_differ(a, b) ((a) != (b))
#else
#define p_differ(a, b) any((a) != (b))
#endif
#define TRACK16(m, r) col[(r) / PART16] = p_max(col[(r) / PART16], m)
#define BLOCKS_START()                                                                        \
    p2 blk[NSUB16];                                                                           \
    int bi0[NSUB16], bj0[NSUB16], bi1[NSUB16], bj1[NSUB16];                                   \
    _Pragma("unroll") for (int h_ = 0; h_ < NSUB16; h_++) {                                   \
        blk[h_] = P_ZERO; bi0[h_] = 0; bj0[h_] = 0; bi1[h_] = 0; bj1[h_] = 0;                 \
    }
#define COLUMN_START16()                                                                      \
    p2 col[NSUB16];                                                                           \
    _Pragma("unroll") for (int h_ = 0; h_ < NSUB16; h_++) col[h_] = blk[h_];
/* one lane of block h rose to LANE(col[h]): its column jj and first row (in the lane) */
#define LANE_END(h, LANE, jj, bi, bj)                                                         \
    {                                                                                         \
        const int v_ = LANE(col[h]);                                                          \
        if (v_ > LANE(blk[h])) {                                                              \
            int row_ = (h) * PART16;                                                          \
            _Pragma("unroll") for (int q_ = PART16 - 1; q_ >= 0; q_--)                        \
                if (LANE(Q[(h) * PART16 + q_]) == v_) row_ = (h) * PART16 + q_;               \
            bi[h] = row_;                                                                     \
            bj[h] = (jj);                                                                     \
        }                                                                                     \
    }
#define COLUMN_END16(j)                                                                       \
    _Pragma("unroll") for (int h_ = 0; h_ < NSUB16; h_++) {                                   \
        if (p_differ(col[h_], blk[h_])) {                                                     \
            LANE_END(h_, p_lo, (j), bi0, bj0)                                                 \
            LANE_END(h_, p_hi, (j) - 1, bi1, bj1)                                             \
            blk[h_] = col[h_];                                                                \
        }                                                                                     \
    }
#define END_BEFORE(i, j, bi, bj)                                                              \
    (((i) - 1) / RT < ((bi) - 1) / RT                                                         \
     || (((i) - 1) / RT == ((bi) - 1) / RT && ((j) < (bj) || ((j) == (bj) && (i) < (bi)))))
#define END_CANDIDATE(v, i, j)                                                                \
    {                                                                                         \
        const int v_ = (v), i_ = (i), j_ = (j);                                               \
        if (v_ > best_v || (v_ == best_v && v_ > 0 && END_BEFORE(i_, j_, best_i, best_j))) {  \
            best_v = v_; best_i = i_; best_j = j_;                                            \
        }                                                                                     \
    }
#define BLOCKS_MERGE()                                                                        \
    _Pragma("unroll") for (int h_ = 0; h_ < NSUB16; h_++) {                                   \
        END_CANDIDATE(p_lo(blk[h_]), i0 + bi0[h_] + 1, bj0[h_])                               \
        END_CANDIDATE(p_hi(blk[h_]), i0 + HALF + bi1[h_] + 1, bj1[h_])                        \
    }
#elif LOCAL
#define TRACK16(m, r) best = p_max(best, m)
#else
#define TRACK16(m, r)
#endif
#ifndef BLOCKS_START
#define BLOCKS_START()
#define COLUMN_START16()
#define COLUMN_END16(j)
#define BLOCKS_MERGE()
#endif

#if ROW_GAPS
#define OA(r) oA[r]
#define EA(r) eA[r]
#else
#define OA(r) oA_all
#define EA(r) eA_all
#endif

/* Packed row r of one step (the scalar CELL of pairwise_fill.cl on two lanes). */
#define CELL16(r)                                                                             \
    {                                                                                         \
        const p2 m_ = p_add(diag, SUBST(r));                                                  \
        const p2 x_ = p_max(p_add(upP, oB), p_add(upX, eB));                                  \
        const p2 y_ = p_max(p_add(Q[r], OA(r)), p_add(Y[r], EA(r)));                          \
        diag = p_max(Q[r], Y[r]);                                                             \
        Q[r] = MAX_M(m_, x_);                                                                 \
        Y[r] = y_;                                                                            \
        upP = MAX_M(m_, y_);                                                                  \
        upX = x_;                                                                             \
        TRACK16(m_, r);                                                                       \
    }

/* Ix gap scores of a step: inside the matrix, or with the right end gaps wherever lane 0
 * (column j) or lane 1 (column j - 1) is in the last column. */
#define INNER_GAPS const p2 oB = oB_in, eB = eB_in;
#define RIGHT_GAPS(j)                                                                         \
    const int rc0_ = (!LOCAL && (j) == nB), rc1_ = (!LOCAL && (j) - 1 == nB);                 \
    const p2 oB = p_pack(rc0_ ? G_ROB : G_OB, rc1_ ? G_ROB : G_OB);                           \
    const p2 eB = p_pack(rc0_ ? G_REB : G_EB, rc1_ ? G_REB : G_EB);

/* One step: lane 0 at column j (border read `up_lo`), lane 1 at column j - 1. */
#define STEP16(j, GAPS)                                                                       \
    {                                                                                         \
        GAPS                                                                                  \
        p2 upP = p_pack(up_lo.x, carryP), upX = p_pack(up_lo.y, carryX);                      \
        p2 diag = p_pack(diag_lo, carryD);                                                    \
        COLUMN_START16()                                                                      \
        _Pragma("unroll") for (int r = 0; r < HALF; r++) CELL16(r)                            \
        COLUMN_END16(j)                                                                       \
        carryP = p_lo(upP);                                                                   \
        carryX = p_lo(upX);                                                                   \
        carryD = p_lo(diag);                                                                  \
        if ((j) >= 2) work[(size_t)((j) - 1) * T + t] = (short2)(p_hi(upP), p_hi(upX));      \
        L1 = L1n;                                                                             \
    }

/* Profile of every strip: R bytes at prof + ((strip) * K + c) * R / 16, strip = residue
 * offset / R. */
__kernel void build_profile16(__global const uchar *seqs, const int nstrips,
                              __global const int *matrix, const int K,
                              __global uint4 *prof)
{
    const int g = get_global_id(0);
    if (g >= nstrips * K) return;
    const int strip = g / K, c = g % K;
    for (int h = 0; h < R / 16; h++) {
        uint w[4] = {0u, 0u, 0u, 0u};
        for (int r = 0; r < 16; r++) {
            const int code = seqs[strip * R + 16 * h + r];
            const int v = code == 255 ? 0 : matrix[code * K + c];
            w[r >> 2] |= ((uint)v & 0xffu) << (8 * (r & 3));
        }
        prof[g * (R / 16) + h] = (uint4)(w[0], w[1], w[2], w[3]);
    }
}

/* ---------------------------------------------------------------------------------------- */
/* tasks[first + t] = (offset of A, nA, offset of B, nB), offsets of A multiples of 16;      */
/* work: (maxB + 1) * T short2, interleaved by task. scores[t] gets the optimal score.      */
/* ---------------------------------------------------------------------------------------- */
__kernel void fill_pairs16(__global const uchar *restrict seqs,
                           __global const int4 *restrict tasks,
                           const int first,
                           const int ntasks,
                           __global const uint4 *restrict profile,
                           const int K,
                           __global const int *restrict gap_scores,
                           __global short2 *restrict work,
                           __global int *restrict scores
#if ENDS
                           , __global int2 *restrict ends
#endif
                           )
{
    const int t = get_global_id(0);
    if (t >= ntasks) return;
    const size_t T = get_global_size(0);
    const int4 task = tasks[first + t];
    __global const uchar *seqB = seqs + task.z;
    const int nA = task.y, nB = task.w;
    int gaps[12]; /* in registers: the loop must not reload them after each store */
    _Pragma("unroll") for (int k = 0; k < 12; k++) gaps[k] = gap_scores[k];
    const p2 oB_in = p_pack(G_OB, G_OB), eB_in = p_pack(G_EB, G_EB);

    for (int j = 1; j <= nB; j++) work[(size_t)j * T + t] = (short2)(TOP_P(j), NEG16);

    p2 Q[HALF], Y[HALF];
#if ROW_GAPS
    p2 oA[HALF], eA[HALF]; /* per row: the last row of A may take other (right end) scores */
#else
    const p2 oA_all = p_pack(G_OA, G_OA), eA_all = p_pack(G_EA, G_EA);
#endif
    p2 best = P_ZERO;
    int result = NEG16;
#if ENDS
    int best_v = 0, best_i = 0, best_j = 0;
#endif
    const part_t pad = (part_t)(0u); /* padding scores 0 (see the top of the file) */
    const int nstrips = (nA + R - 1) / R;
    for (int s = 0; s < nstrips; s++) {
        const int i0 = s * R;
        const int nr = min(R, nA - i0);
        __global const uint4 *prof = profile + (size_t)(task.x / R + s) * K * (R / 16);
        _Pragma("unroll") for (int r = 0; r < HALF; r++) {
            /* the last row of A (i = nA) takes the right end-gap scores */
#if ROW_GAPS
            const int last0 = i0 + r + 1 == nA, last1 = i0 + HALF + r + 1 == nA;
            oA[r] = p_pack(last0 ? G_ROA : G_OA, last1 ? G_ROA : G_OA);
            eA[r] = p_pack(last0 ? G_REA : G_EA, last1 ? G_REA : G_EA);
#endif
            Q[r] = p_pack(LEFT_H(i0 + r + 1), LEFT_H(i0 + HALF + r + 1));
            Y[r] = p_pack(NEG16, NEG16);
        }
        BLOCKS_START()
        int diag_lo = (i0 == 0) ? 0 : LEFT_H(i0);
        int carryP = NEG16, carryX = NEG16, carryD = NEG16;
        part_t L0, L1 = pad, L1n;
        /* step 1: lane 1 sits at column 0; its rows go back to the left border after */
        {
            const short2 s_up = work[T + t];
            const int2 up_lo = (int2)(s_up.x, s_up.y);
            const int next = max(up_lo.x, up_lo.y);
            LOAD_COLUMN(seqB[0], L0, L1n)
            STEP16(1, RIGHT_GAPS(1))
            diag_lo = next;
            _Pragma("unroll") for (int r = 0; r < HALF; r++) {
                Q[r] = p_pack(p_lo(Q[r]), LEFT_H(i0 + HALF + r + 1));
                Y[r] = p_pack(p_lo(Y[r]), NEG16);
            }
        }
        /* Columns 2..nB. The border value and letter of a column are read two steps ahead
         * and its profile word one step ahead, so a step's own work hides their latency.
         * Only column nB (and nB + 1, below) can need the right end-gap scores. */
        short2 up1 = work[(size_t)min(2, nB) * T + t], up2 = work[(size_t)min(3, nB) * T + t];
        int bc2 = seqB[min(2, nB - 1)];
        part_t L0n, L1nn;
        LOAD_COLUMN(seqB[min(1, nB - 1)], L0n, L1nn)
        for (int j = 2; j <= nB; j++) {
            const int2 up_lo = (int2)(up1.x, up1.y);
            const int next = max(up_lo.x, up_lo.y);
            L0 = L0n;
            L1n = L1nn;
            up1 = up2;
            LOAD_COLUMN(bc2, L0n, L1nn)
            if (j + 2 <= nB) {
                up2 = work[(size_t)(j + 2) * T + t];
                bc2 = seqB[j + 1];
            }
            if (LOCAL || j < nB) {
                STEP16(j, INNER_GAPS)
            } else {
                STEP16(j, RIGHT_GAPS(j))
            }
            diag_lo = next;
        }
        /* lane 0 has finished column nB: the global score, if A ends in the top half */
        if (!LOCAL && nr <= HALF) {
            _Pragma("unroll") for (int r = 0; r < HALF; r++)
                if (r == nr - 1) result = max(p_lo(Q[r]), p_lo(Y[r]));
        }
        /* step nB + 1: lane 1 finishes column nB; lane 0 runs on padding, ignored */
        {
            const int2 up_lo = (int2)(NEG16, NEG16);
            L0 = pad;
            STEP16(nB + 1, RIGHT_GAPS(nB + 1))
        }
        if (!LOCAL && nr > HALF) {
            _Pragma("unroll") for (int r = 0; r < HALF; r++)
                if (r + HALF == nr - 1) result = max(p_hi(Q[r]), p_hi(Y[r]));
        }
        BLOCKS_MERGE()
    }
#if ENDS
    scores[t] = best_v;
    ends[t] = (int2)(best_i, best_j);
#elif LOCAL
    scores[t] = max(p_lo(best), p_hi(best));
#else
    scores[t] = result;
#endif
}

/* ---------------------------------------------------------------------------------------- */
/* fill_reverse_starts (pairwise_fill.cl) in packed 16-bit arithmetic: the same corner of   */
/* the box of the cells where M' == V, two cells per operation (build: LOCAL, PTX16, R,     */
/* MAXK). Read that kernel's comment first: the reverse DP over the reversed prefixes        */
/* anchored at the end cell, values below 0 dropped to minus infinity (here NEG16), and     */
/* each strip swept only over the columns that can hold a live value.                       */
/*                                                                                          */
/* The strip's halves run in the two lanes as in fill_pairs16, lane 1 one column behind,    */
/* each half a strip of HALF rows for the pruning: lane 0 is needed at column j while j is  */
/* at most one past the last live column of the border above or its own rows were live at  */
/* j - 1; lane 1 is needed at column j - 1 likewise with lane 0's last row as its border    */
/* (the last column where that row left a live value) and its own rows. A step runs while  */
/* either lane is needed; the other lane then computes cells that are dead (NEG16 in, NEG16  */
/* out) or exact, so it changes nothing. Lane 1 enters the strip one column left of its     */
/* first column, where every value is dead (left of the first live column of the border     */
/* above, and the matrix's column 0), and lane 0 leaves it one column past nB: those cells  */
/* are never read, and hits there are not counted.                                          */
/*                                                                                          */
/* Exactness: live values are path scores between 0 and V <= the pair's best, and every    */
/* value computed is a live value, NEG16, or one of them plus a substitution (a byte) or a */
/* gap score, dropped at once: inside +-(16384 + 16000) when fits_16bit holds for the pair */
/* (as the forward kernel needs), so no lane wraps. Padding rows (past the reversed prefix, */
/* letter 0 as in the 32-bit kernel) compute the DP of a longer prefix: bounded alike; they */
/* may keep a sweep going a column longer, never add a hit (hits are counted on real rows  */
/* and columns only). A hit is M' == V; M' <= V everywhere (a path from a cell to the end  */
/* is a local alignment), so a column's lanes are searched only where their maximum of M' */
/* reaches V, which is rare.                                                                */
/* ---------------------------------------------------------------------------------------- */
#ifndef MAXK
#define MAXK 32
#endif
#if PTX16
/* lanes below 0 to NEG16: each lane's sign bit spread over it (prmt's sign-replicating
 * selectors 9 and B: bytes 1 and 3), then a bitwise select (one lop3) */
inline p2 p_drop(p2 v) {
    p2 m; asm("prmt.b32 %0, %1, %2, %3;" : "=r"(m) : "r"(v), "r"(0u), "r"(0xBB99u));
    return (v & ~m) | (0xC000C000u & m);
}
#else
#define p_drop(v) select((v), (short2)(NEG16, NEG16), (v) < P_ZERO)
#endif

/* Packed row r of a reverse step (CELL of fill_reverse_starts on two lanes). */
#define RCELL16(r)                                                                            \
    {                                                                                         \
        const p2 s_ = p_pack(rmat[a0[r] + bc0], rmat[a1[r] + bc1]);                          \
        const p2 m_ = p_drop(p_add(diag, s_));                                                \
        const p2 x_ = p_drop(p_max(p_add(upP, oB), p_add(upX, eB)));                          \
        const p2 y_ = p_drop(p_max(p_add(Q[r], oA), p_add(Y[r], eA)));                        \
        diag = p_max(Q[r], Y[r]);                                                             \
        Q[r] = p_max(m_, x_);                                                                 \
        Y[r] = y_;                                                                            \
        upP = p_max(m_, y_);                                                                  \
        upX = x_;                                                                             \
        M[r] = m_;                                                                            \
        top = p_max(top, m_);                                                                 \
        live = p_max(live, p_max(Q[r], y_));                                                  \
    }

/* Hits of a step (lane 0 at column j, lane 1 at j - 1): real rows and columns only. */
#define REVERSE_HITS16(j)                                                                     \
    if (p_lo(top) >= V || p_hi(top) >= V) {                                                   \
        _Pragma("unroll") for (int r = 0; r < HALF; r++) {                                    \
            if (p_lo(M[r]) == V && r < nr && (j) <= nB) {                                     \
                imax = max(imax, i0 + r + 1); jmax = max(jmax, (j));                          \
            }                                                                                 \
            if (p_hi(M[r]) == V && HALF + r < nr && (j) >= 2) {                               \
                imax = max(imax, i0 + HALF + r + 1); jmax = max(jmax, (j) - 1);               \
            }                                                                                 \
        }                                                                                     \
    }

__kernel void fill_reverse16(__global const uchar *restrict seqs,
                             __global const int4 *restrict tasks,
                             const int first,
                             const int ntasks,
                             __global const int *restrict matrix,
                             const int K,
                             __global const int *restrict gap_scores,
                             __global short2 *restrict work,
                             __global const int *restrict scores,
                             __global const int2 *restrict ends,
                             __global int2 *restrict starts,
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
    int gaps[12];
    _Pragma("unroll") for (int k = 0; k < 12; k++) gaps[k] = gap_scores[k];
    __global const uchar *seqA = seqs + task.x;
    __global const uchar *seqB = seqs + task.z;
    const int nA = e.x, nB = e.y;  /* the reversed prefixes */
    const p2 oA = p_pack(G_OA, G_OA), eA = p_pack(G_EA, G_EA);
    const p2 oB = p_pack(G_OB, G_OB), eB = p_pack(G_EB, G_EB);
    const p2 dead = p_pack(NEG16, NEG16);
    for (int j = 1; j <= nB; j++) work[(size_t)j * T + t] = (short2)(NEG16, NEG16);
    int a0[HALF], a1[HALF];
    p2 Q[HALF], Y[HALF], M[HALF];
    int imax = 0, jmax = 0;
    /* live columns of the border above: lo .. hi (none: hi < lo); last: columns written */
    int lo = 1, hi = 0, last = 0;
    const int nstrips = (nA + R - 1) / R;
    for (int s = 0; s < nstrips; s++) {
        const int i0 = s * R;
        const int nr = min(R, nA - i0);
        _Pragma("unroll") for (int r = 0; r < HALF; r++) {
            a0[r] = (r < nr) ? (int)seqA[nA - 1 - (i0 + r)] * MAXK : 0;
            a1[r] = (HALF + r < nr) ? (int)seqA[nA - 1 - (i0 + HALF + r)] * MAXK : 0;
            Q[r] = dead;
            Y[r] = dead;
        }
        int diag0 = (i0 == 0) ? 0 : NEG16;  /* only the corner is live on row 0 */
        int carryP = NEG16, carryX = NEG16, carryD = NEG16, bc1 = 0;
        bool own0 = (i0 == 0), own1 = false;
        int mhi = -1;  /* last column where lane 0's last row left a live value */
        int next_lo = nB + 1, next_hi = 0;
        int j = (i0 == 0) ? 1 : lo;
        for (;; j++) {
            const bool need0 = j <= nB && (j <= hi + 1 || own0);
            const bool need1 = j >= 2 && j - 1 <= nB && (j - 1 <= mhi + 1 || own1);
            if (!need0 && !need1) break;
            const int bc0 = (j <= nB) ? (int)seqB[nB - j] : 0;
            const short2 up = (j <= nB) ? work[(size_t)j * T + t] : (short2)(NEG16, NEG16);
            p2 upP = p_pack(up.x, carryP), upX = p_pack(up.y, carryX);
            p2 diag = p_pack(diag0, carryD);
            p2 top = dead, live = dead;
            _Pragma("unroll") for (int r = 0; r < HALF; r++) RCELL16(r)
            REVERSE_HITS16(j)
            own0 = p_lo(live) >= 0;
            own1 = p_hi(live) >= 0;
            carryP = p_lo(upP);
            carryX = p_lo(upX);
            carryD = p_lo(diag);
            if (max(carryP, carryX) >= 0) mhi = j;
            if (j >= 2) {  /* lane 1's last row at column j - 1: the next strip's border */
                const int bp = p_hi(upP), bx = p_hi(upX);
                work[(size_t)(j - 1) * T + t] = (short2)(bp, bx);
                if (max(bp, bx) >= 0) {
                    next_lo = min(next_lo, j - 1);
                    next_hi = j - 1;
                }
            }
            diag0 = max((int)up.x, (int)up.y);
            bc1 = bc0;
        }
        /* lane 1 swept columns up to j - 2: the ones the strip above wrote past them are dead */
        for (int k = max(j - 1, 1); k <= last; k++) work[(size_t)k * T + t] = (short2)(NEG16, NEG16);
        last = j - 2;
        lo = next_lo;
        hi = next_hi;
        if (hi < lo) break;  /* no live column left: nothing below can reach V */
    }
    starts[t] = (int2)(e.x - imax, e.y - jmax);
}
