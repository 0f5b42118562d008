/* Database search: local (Smith-Waterman) scores of queries against many database sequences.
 *
 * The arithmetic is fill_pairs16's (pairwise_fill16.cl, read its header first): one
 * work-item scores one (query, subject) pair in strips of R query rows, two rows per packed
 * 16-bit operation. What differs is where the substitution scores come from:
 *
 * - Every work-item of a group aligns the same query (group dimension 1 picks the query), so
 *   the query's strip profile (built once per search by build_profile16) is shared: the group
 *   copies SB strips of it into local memory at a time and every work-item then reads its
 *   per-column 16-byte words from there. The strips are walked in lockstep across the
 *   group (a barrier per block of SB strips), which costs little because the host sorts the
 *   subjects by length and a group's subjects are neighbours in that order.
 * - The subjects are the columns: a column's letter selects its word of the strip profile.
 * - The host orders subjects longest first, so the longest (slowest) work-items start first
 *   and short ones fill in behind them.
 *
 * Exactness: the values are local-alignment values, never below the (small) gap scores and
 * never above the largest M value computed so far plus one substitution score, and every M
 * value enters the running best. So if the best stays below 16000 no value ever left the
 * 16-bit range; the host rescores any pair whose 16-bit best reaches 16000 with the 32-bit
 * kernels (search.py, LIMIT16).
 *
 * Defines: LOCAL (must be 1), PTX16, R (16, 32 or 64), as in pairwise_fill16.cl.
 */
#include "pairwise_fill16.cl"

#if !LOCAL
#error "the search kernel computes local alignments only"
#endif

/* subjects[t] = (offset in db, length) in launch order; queries[q] = (first uint4 of the
 * query's profile, query length, number of its strips, unused); work_base[g] = first short2
 * of group g's border block ((longest subject of g + 1) * group size short2s), the blocks of
 * query slot q start at q * work_stride. scores[q * nsub + t] gets the 16-bit local score. */
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
                       __global int *restrict scores,
                       __local uint4 *restrict lprof,
                       const int SB)
{
    const int lid = get_local_id(0);
    const int G = get_local_size(0);
    const int gid = get_global_id(0);
    const int qslot = get_group_id(1);
    const int4 query = queries[qslot];
    const int active = gid < nsub;
    const int2 subject = active ? subjects[gid] : (int2)(0, 0);
    __global const uchar *seqB = db + subject.x;
    const int nA = query.y, nB = subject.y;
    /* the names fill16's macros use: this work-item's border column is work[j * T + t] */
    __global short2 *work = work_all + (size_t)qslot * work_stride
                            + work_base[get_group_id(0)];
    const size_t T = G;
    const int t = lid;
    int gaps[12];
    _Pragma("unroll") for (int k = 0; k < 12; k++) gaps[k] = gap_scores[k];
    const p2 oB_in = p_pack(G_OB, G_OB), eB_in = p_pack(G_EB, G_EB);
    for (int j = 1; j <= nB; j++) work[(size_t)j * T + t] = (short2)(0, NEG16);

    p2 Q[HALF], Y[HALF];
    const p2 oA_all = p_pack(G_OA, G_OA), eA_all = p_pack(G_EA, G_EA);
    p2 best = P_ZERO;
    const part_t pad = (part_t)(0u);
    const int words = K * (R / 16); /* uint4 words of one strip's profile */
    const int nstrips = query.z;
    for (int s0 = 0; s0 < nstrips; s0 += SB) {
        const int nsb = min(SB, nstrips - s0);
        barrier(CLK_LOCAL_MEM_FENCE); /* the previous block's readers are done */
        for (int k = lid; k < nsb * words; k += G)
            lprof[k] = qprof[(size_t)query.x + (size_t)s0 * words + k];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (nB == 0) continue;
        for (int s = s0; s < s0 + nsb; s++) {
            __local const uint4 *prof = lprof + (s - s0) * words;
            _Pragma("unroll") for (int r = 0; r < HALF; r++) {
                Q[r] = P_ZERO;
                Y[r] = p_pack(NEG16, NEG16);
            }
            int diag_lo = 0;
            int carryP = NEG16, carryX = NEG16, carryD = NEG16;
            part_t L0, L1 = pad, L1n;
            { /* step 1: lane 1 sits at column 0; its rows go back to the left border after */
                const short2 s_up = work[T + t];
                const int2 up_lo = (int2)(s_up.x, s_up.y);
                const int next = max(up_lo.x, up_lo.y);
                LOAD_COLUMN(seqB[0], L0, L1n)
                STEP16(1, INNER_GAPS)
                diag_lo = next;
                _Pragma("unroll") for (int r = 0; r < HALF; r++) {
                    Q[r] = p_pack(p_lo(Q[r]), 0);
                    Y[r] = p_pack(p_lo(Y[r]), NEG16);
                }
            }
            /* columns 2..nB, reads two steps ahead as in fill_pairs16 */
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
                STEP16(j, INNER_GAPS)
                diag_lo = next;
            }
            { /* step nB + 1: lane 1 finishes column nB; lane 0 runs on padding */
                const int2 up_lo = (int2)(NEG16, NEG16);
                L0 = pad;
                STEP16(nB + 1, INNER_GAPS)
            }
        }
    }
    if (active) scores[(size_t)qslot * nsub + gid] = max(p_lo(best), p_hi(best));
}
