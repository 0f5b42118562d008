/* Database search, 8-bit first pass: local scores of queries against many database sequences
 * in saturating unsigned bytes, four pairs per 32-bit word.
 *
 * search8 (inter-task, as search16 in pairwise_search.cl): one work-item scores four
 * (query, subject) pairs at once, the four subjects that follow each other in the launch
 * order (longest first), so their lengths nearly agree. Lane k (byte k of every word) is
 * subject k; all four lanes walk the same query rows and the same column j, so no value moves
 * between lanes (the 16-bit kernels stagger one pair's strip halves over their two lanes
 * instead: with four lanes that costs three fill and three drain steps per strip and a carry
 * per step). The query's strip profile is shared by the group in local memory (blocks of SB
 * strips, a barrier per block); a group's work is a task (subject group of 4 G subjects,
 * query, query slot), heaviest first, as search16's.
 *
 * Substitution scores: the profile (build_profile8) holds, per strip of R8 query rows and per
 * subject letter c (K + 1 letters: the last is padding), the R8 biased scores S(a_i, c) + BIAS
 * as bytes. The four lanes have four letters, so a row's score word is gathered from four
 * profile entries: rows 4g..4g+3 come from word g of each lane's entry by one 4 x 4 byte
 * transpose (8 prmt on NVIDIA: 2 operations per packed row).
 *
 * Arithmetic: values are local-alignment values clamped below at 0 (the byte floor). That is
 * exact: H = max(M, E, F, 0) never sees a negative E or F, and max(E, 0) - e floors to the same
 * max(E - e, 0). The cell is search16's H form (pairwise_search.cl), so the host runs this
 * kernel only when opening a gap never scores above extending one:
 *   m = max(sat(diag + S + BIAS) - BIAS, E);  h = max(m, F)
 *   E' = max(E - eA, h - oA);                  F' = max(F - eB, m - oB);  best = max(best, m)
 * with costs (oA, eA, oB, eB) = minus the gap scores, every subtraction saturating at 0.
 *
 * Exactness (the host's LIMIT8 = 255 - BIAS, the ceiling): the only operation that can
 * saturate at the top is sat(diag + S + BIAS) (E and F only subtract), and when it does, m is
 * 255 - BIAS. So either nothing saturated and every value is exact, or the running best (which
 * never falls) is the ceiling. The host rescores every pair whose 8-bit best is the ceiling on
 * the 16-bit path; a best below it is exact.
 *
 * Padding scores 0 (profile byte BIAS): query rows past the query's end, and columns past a
 * shorter lane's subject (the letter K). A padding cell's value never exceeds the real value it
 * came from, so it cannot raise a local best (pairwise_fill16.cl's argument).
 *
 * Defines: R8 (rows per strip, 16 or 32: 2 * R8 registers of row state), PTX8 (NVIDIA inline
 * PTX: vadd4 / vsub4 / vmax4 with saturation and prmt for the transpose; sm_90 has no byte
 * SIMD unit, so ptxas emulates the video instructions: the sweep compares both forms).
 */
#ifndef R8
#define R8 32
#endif
#if R8 != 16 && R8 != 32
#error "R8 (rows per strip) must be 16 or 32"
#endif
#ifndef PTX8
#define PTX8 0
#endif
#define PAD_CODE 255 /* query padding in the sequence buffer of build_profile8 */

#if PTX8
typedef uint q4;
inline q4 q_adds(q4 a, q4 b) { q4 d; asm("vadd4.u32.u32.u32.sat %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(0u)); return d; }
inline q4 q_subs(q4 a, q4 b) { q4 d; asm("vsub4.u32.u32.u32.sat %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(0u)); return d; }
inline q4 q_max(q4 a, q4 b) { q4 d; asm("vmax4.u32.u32.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(0u)); return d; }
inline uint q_prmt(uint a, uint b, uint sel) { uint d; asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(sel)); return d; }
#define q_splat(v) ((uint)(v) * 0x01010101u)
#define q_bits(a) (a)
#define q_from_bits(w) (w)
#define q_lane(a, k) ((int)(((a) >> (8 * (k))) & 0xffu))
/* S[r] = byte r of a, b, c, d (lanes 0..3): pairs of bytes first, then pairs of pairs */
#define TRANSPOSE(a, b, c, d, S)                                                              \
    {                                                                                         \
        const uint t0_ = q_prmt(a, b, 0x5140u), t1_ = q_prmt(a, b, 0x7362u);                  \
        const uint t2_ = q_prmt(c, d, 0x5140u), t3_ = q_prmt(c, d, 0x7362u);                  \
        S[0] = q_prmt(t0_, t2_, 0x5410u);                                                     \
        S[1] = q_prmt(t0_, t2_, 0x7632u);                                                     \
        S[2] = q_prmt(t1_, t3_, 0x5410u);                                                     \
        S[3] = q_prmt(t1_, t3_, 0x7632u);                                                     \
    }
#else
typedef uchar4 q4;
#define q_adds(a, b) add_sat((a), (b))
#define q_subs(a, b) sub_sat((a), (b))
#define q_max(a, b) max((a), (b))
#define q_splat(v) ((uchar4)((uchar)(v)))
#define q_bits(a) as_uint(a)
#define q_from_bits(w) as_uchar4(w)
#define q_lane(a, k) ((int)((k) == 0 ? (a).x : (k) == 1 ? (a).y : (k) == 2 ? (a).z : (a).w))
#define TRANSPOSE(a, b, c, d, S)                                                              \
    {                                                                                         \
        const uchar4 a_ = as_uchar4(a), b_ = as_uchar4(b), c_ = as_uchar4(c), d_ = as_uchar4(d); \
        S[0] = (uchar4)(a_.x, b_.x, c_.x, d_.x);                                              \
        S[1] = (uchar4)(a_.y, b_.y, c_.y, d_.y);                                              \
        S[2] = (uchar4)(a_.z, b_.z, c_.z, d_.z);                                              \
        S[3] = (uchar4)(a_.w, b_.w, c_.w, d_.w);                                              \
    }
#endif

/* Row r of one column (the header's cell); diag enters as H(i - 1, j - 1), F as F(i, j). */
#define CELL8(r, s)                                                                           \
    {                                                                                         \
        const q4 m_ = q_max(q_subs(q_adds(diag, s), bias4), Y[r]);                            \
        const q4 h_ = q_max(m_, F);                                                           \
        diag = Q[r];                                                                          \
        Q[r] = h_;                                                                            \
        Y[r] = q_max(q_subs(Y[r], eA4), q_subs(h_, oA4));                                     \
        F = q_max(q_subs(F, eB4), q_subs(m_, oB4));                                           \
        best = q_max(best, m_);                                                               \
    }

/* Biased profile of every strip: R8 bytes at prof + ((strip) * (K + 1) + c) * R8 / 16 (uint4),
 * c = K is the padding letter (scores 0). */
__kernel void build_profile8(__global const uchar *seqs, const int nstrips,
                             __global const int *matrix, const int K, const int bias,
                             __global uint4 *prof)
{
    const int g = get_global_id(0);
    if (g >= nstrips * (K + 1)) return;
    const int strip = g / (K + 1), c = g % (K + 1);
    for (int h = 0; h < R8 / 16; h++) {
        uint w[4] = {0u, 0u, 0u, 0u};
        for (int r = 0; r < 16; r++) {
            const int code = seqs[strip * R8 + 16 * h + r];
            const int v = (code == PAD_CODE || c == K) ? 0 : matrix[code * K + c];
            w[r >> 2] |= ((uint)(v + bias) & 0xffu) << (8 * (r & 3));
        }
        prof[g * (R8 / 16) + h] = (uint4)(w[0], w[1], w[2], w[3]);
    }
}

/* subjects[p] = (offset in db, length) in launch order (longest first); queries[q] = (first
 * uint4 of the query's 8-bit profile, query length, number of its strips, first launch
 * position this kernel scores for the query: the ones before are long pairs, scored by
 * search16_long). tasks[g] = (subject group, query, query slot, unused): work-item l of group
 * g scores subjects 4 (G x + l) .. 4 (G x + l) + 3 against query y. costs = (oA, eA, oB, eB)
 * as positive byte costs. work_base[sg] = first uint2 of subject group sg's border block
 * ((its longest subject + 1) * G uint2: H and F of the four lanes per column); query slot k's
 * blocks start at k * work_stride. scores[slot * nsub + p] gets the 8-bit best (left
 * unwritten for long pairs). */
__kernel void search8(__global const uchar *restrict db,
                      __global const int2 *restrict subjects,
                      const int nsub,
                      __global const uint4 *restrict qprof,
                      __global const int4 *restrict queries,
                      const int K,
                      const uint4 costs,
                      const int bias,
                      __global uint2 *restrict work_all,
                      __global const long *restrict work_base,
                      const long work_stride,
                      __global const int4 *restrict tasks,
                      __global uchar *restrict scores,
                      __local uint4 *restrict lprof,
                      const int SB)
{
    const int lid = get_local_id(0);
    const int G = get_local_size(0);
    const int4 task = tasks[get_group_id(0)];
    const int4 query = queries[task.y];
    const int first = 4 * (task.x * G + lid);
    int off[4], len[4], nmax = 0;
    _Pragma("unroll") for (int k = 0; k < 4; k++) {
        const int p = first + k;
        const int2 sj = (p < nsub && p >= query.w) ? subjects[p] : (int2)(0, 0);
        off[k] = sj.x;
        len[k] = sj.y;
        nmax = max(nmax, sj.y);
    }
    __global uint2 *work = work_all + (size_t)task.z * work_stride + work_base[task.x];
    const size_t T = G;
    for (int j = 1; j <= nmax; j++) work[(size_t)j * T + lid] = (uint2)(0u, 0u);

    const q4 bias4 = q_splat(bias);
    const q4 oA4 = q_splat(costs.x), eA4 = q_splat(costs.y);
    const q4 oB4 = q_splat(costs.z), eB4 = q_splat(costs.w);
    q4 Q[R8], Y[R8];
    q4 best = q_splat(0);
    const int K1 = K + 1;
    const int words = K1 * (R8 / 16); /* uint4 words of one strip's profile */
    const int nstrips = query.z;
    for (int s0 = 0; s0 < nstrips; s0 += SB) {
        const int nsb = min(SB, nstrips - s0);
        barrier(CLK_LOCAL_MEM_FENCE); /* the previous block's readers are done */
        for (int k = lid; k < nsb * words; k += G)
            lprof[k] = qprof[(size_t)query.x + (size_t)s0 * words + k];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (nmax == 0) continue;
        for (int s = s0; s < s0 + nsb; s++) {
            __local const uint *prof = (__local const uint *)(lprof + (s - s0) * words);
            _Pragma("unroll") for (int r = 0; r < R8; r++) {
                Q[r] = q_splat(0); /* H(i, 0) = 0 */
                Y[r] = q_splat(0); /* E of column 1: opened from H(i, 0) = 0, floored */
            }
            uint dtop = 0u; /* H(i0, j - 1) of the four lanes, i0 the row above the strip */
            /* letters and border words are read one column ahead (their latency hides
             * behind a column's R8 rows) */
            int cn[4];
            _Pragma("unroll") for (int k = 0; k < 4; k++) cn[k] = len[k] > 0 ? db[off[k]] : K;
            uint2 upn = work[T + lid];
            for (int j = 1; j <= nmax; j++) {
                const uint2 up = upn;
                __local const uint *p0 = prof + cn[0] * (R8 / 4), *p1 = prof + cn[1] * (R8 / 4);
                __local const uint *p2 = prof + cn[2] * (R8 / 4), *p3 = prof + cn[3] * (R8 / 4);
                if (j < nmax) {
                    _Pragma("unroll") for (int k = 0; k < 4; k++)
                        cn[k] = j < len[k] ? db[off[k] + j] : K;
                    upn = work[(size_t)(j + 1) * T + lid];
                }
                q4 F = q_from_bits(up.y);
                q4 diag = q_from_bits(dtop);
                dtop = up.x;
                _Pragma("unroll") for (int g = 0; g < R8 / 4; g++) {
                    q4 S[4];
                    TRANSPOSE(p0[g], p1[g], p2[g], p3[g], S)
                    CELL8(4 * g, S[0])
                    CELL8(4 * g + 1, S[1])
                    CELL8(4 * g + 2, S[2])
                    CELL8(4 * g + 3, S[3])
                }
                work[(size_t)j * T + lid] = (uint2)(q_bits(Q[R8 - 1]), q_bits(F));
            }
        }
    }
    _Pragma("unroll") for (int k = 0; k < 4; k++) {
        const int p = first + k;
        if (p < nsub && p >= query.w) scores[(size_t)task.z * nsub + p] = (uchar)q_lane(best, k);
    }
}
