/* ClustalW's fast pairwise alignment (Wilbur & Lipman k-tuple method, ClustalW 1.83 / 2.1
 * "quicktree"), one work-item per pair of sequences.
 *
 * Each work-item replays ClustalW's pair_align for its pair (i < j, sequence i is ClustalW's
 * first sequence):
 *   1. count k-tuple matches on every diagonal (displ);
 *   2. sort the diagonals by count with ClustalW's quicksort (which, as in ClustalW, leaves
 *      the last diagonal unsorted) and flag WINDOW diagonals around each of the SIGNIF best
 *      ones (those with a count above zero);
 *   3. walk the k-tuple matches of sequence i in order; each match on a flagged diagonal
 *      becomes a fragment whose score extends the best earlier compatible fragment (same
 *      diagonal: + k or the overlap; another diagonal: - WIND_GAP + k), fragments kept in a
 *      list sorted by score (accum);
 *   4. the pair's score is the best fragment score; ClustalW stops adding fragments (a
 *      "partial alignment") once 2 * maxaln of them exist, maxaln being ClustalW's
 *      maximum alignment length, twice the longest sequence.
 *
 * Inputs, per sequence s (1-based positions, slot 0 unused, offset off[s]):
 *   code[off + p]  : k-tuple code starting at p (1..limit), 0 where a k-tuple has a residue
 *                    outside the alphabet or runs past the end;
 *   chain[off + p] : previous (lower) position with the same code, 0 if none;
 *   head[s * hw + c] : last position with code c, 0 if none.
 * Scratch: NARR int arrays of width W = 2 * maxaln per work-item, plus a uchar array (slopes),
 * laid out item-fastest (INTERLEAVE = 1, for GPUs) or item-blocked (INTERLEAVE = 0, CPUs).
 * Output: score[pair] = best fragment score (0 when nothing aligned).
 *
 * Defines: INTERLEAVE.
 */
#include "common.h"

#define NARR 6
#define A_DISPL 0
#define A_INDEX 1
#define A_SCORE 2
#define A_POS1 3
#define A_POS2 4
#define A_NEXT 5

#if INTERLEAVE
#define AT(a, k) scratch[(((ulong)(a) * width + (ulong)(k)) * nitems) + item]
#define SLOPE(k) slopes[((ulong)(k) * nitems) + item]
#else
#define AT(a, k) scratch[(((ulong)item * NARR + (ulong)(a)) * width) + (ulong)(k)]
#define SLOPE(k) slopes[((ulong)item * width) + (ulong)(k)]
#endif

__kernel void clustalw_fast(__global const int *code, __global const int *chain,
                            __global const int *head, __global const ulong *off,
                            __global const int *len, __global const uint *pi,
                            __global const uint *pj, uint first, uint npairs, uint hw,
                            int maxaln, int ktup, int window, int signif, int wind_gap,
                            __global int *scratch, __global uchar *slopes,
                            __global int *score) {
    uint item = get_global_id(0);
    uint nitems = get_global_size(0);
    if (item >= npairs) return;
    ulong width = (ulong)2 * (ulong)maxaln;
    uint pair = first + item;
    uint si = pi[pair], sj = pj[pair];
    int l1 = len[si], l2 = len[sj];
    __global const int *c1 = code + off[si];
    __global const int *zzb = chain + off[sj];
    __global const int *zzd = head + (ulong)sj * hw;
    int tl1 = l1 + l2 - 1;

    for (int d = 1; d <= tl1; d++) {
        AT(A_DISPL, d) = 0;
        AT(A_INDEX, d) = d;
        SLOPE(d) = 0;
    }
    /* 1. k-tuple matches per diagonal */
    for (int p1 = 1; p1 <= l1 - ktup + 1; p1++) {
        int c = c1[p1];
        if (!c) continue;
        for (int p2 = zzd[c]; p2; p2 = zzb[p2]) AT(A_DISPL, p1 - p2 + l2) += 1;
    }
    /* 2. ClustalW's des_quick_sort over 1 .. tl1 - 1 (ascending) */
    {
        int lst[64], ust[64];
        int p = 1;
        lst[1] = 1;
        ust[1] = tl1 - 1;
        while (p > 0) {
            if (lst[p] >= ust[p]) {
                p--;
                continue;
            }
            int i = lst[p] - 1, j = ust[p];
            int piv = AT(A_DISPL, j);
            while (i < j) {
                for (i = i + 1; AT(A_DISPL, i) < piv; i++)
                    ;
                for (j = j - 1; j > i; j--)
                    if (AT(A_DISPL, j) <= piv) break;
                if (i < j) {
                    int t = AT(A_DISPL, i);
                    AT(A_DISPL, i) = AT(A_DISPL, j);
                    AT(A_DISPL, j) = t;
                    t = AT(A_INDEX, i);
                    AT(A_INDEX, i) = AT(A_INDEX, j);
                    AT(A_INDEX, j) = t;
                }
            }
            j = ust[p];
            {
                int t = AT(A_DISPL, i);
                AT(A_DISPL, i) = AT(A_DISPL, j);
                AT(A_DISPL, j) = t;
                t = AT(A_INDEX, i);
                AT(A_INDEX, i) = AT(A_INDEX, j);
                AT(A_INDEX, j) = t;
            }
            if (i - lst[p] < ust[p] - i) {
                lst[p + 1] = lst[p];
                ust[p + 1] = i - 1;
                lst[p] = i + 1;
            } else {
                lst[p + 1] = i + 1;
                ust[p + 1] = ust[p];
                ust[p] = i - 1;
            }
            p++;
        }
    }
    /* flag WINDOW diagonals around the SIGNIF best */
    {
        int lo = tl1 - signif + 1;
        if (lo < 1) lo = 1;
        for (int i = tl1; i >= lo; i--) {
            if (AT(A_DISPL, i) > 0) {
                int pos = AT(A_INDEX, i);
                int l = max(1, pos - window), m = min(tl1, pos + window);
                for (; l <= m; l++) SLOPE(l) = 1;
            }
        }
    }
    for (int d = 1; d <= tl1; d++) AT(A_DISPL, d) = 0;
    AT(A_SCORE, 0) = 0;
    AT(A_NEXT, 0) = 0;

    /* 3. fragments */
    int curr = 0, best = 0;
    int limit_frags = 2 * maxaln;
    int partial = 0;
    for (int i = 1; i <= l1 - ktup + 1 && !partial; i++) {
        int c = c1[i];
        if (!c) continue;
        for (int vn2 = zzd[c]; vn2 && !partial; vn2 = zzb[vn2]) {
            int osptr = i - vn2 + l2;
            if (SLOPE(osptr) != 1) continue;
            int fs = ktup, next = best;
            for (;;) {
                if (!next) {
                    curr++;
                    if (curr >= limit_frags) {
                        partial = 1;
                        break;
                    }
                    AT(A_DISPL, osptr) = curr;
                    /* put_frag */
                    AT(A_SCORE, curr) = fs;
                    AT(A_POS1, curr) = i;
                    AT(A_POS2, curr) = vn2;
                    if (!best) {
                        best = 1;
                        AT(A_NEXT, curr) = 0;
                    } else if (fs >= AT(A_SCORE, best)) {
                        AT(A_NEXT, curr) = best;
                        best = curr;
                    } else {
                        int nx = best, end;
                        for (;;) {
                            end = nx;
                            nx = AT(A_NEXT, nx);
                            if (fs >= AT(A_SCORE, nx)) break;
                        }
                        AT(A_NEXT, curr) = nx;
                        AT(A_NEXT, end) = curr;
                    }
                    break;
                }
                int tv1 = AT(A_POS1, next), tv2 = AT(A_POS2, next);
                int rel;
                if (i - vn2 == tv1 - tv2)
                    rel = tv1 < i;
                else
                    rel = (tv1 + ktup - 1 < i) && (tv2 + ktup - 1 < vn2);
                if (!rel) {
                    next = AT(A_NEXT, next);
                    continue;
                }
                if (i - vn2 == tv1 - tv2) {
                    if (i > tv1 + (ktup - 1))
                        fs = AT(A_SCORE, next) + ktup;
                    else
                        fs = AT(A_SCORE, next) + (i - tv1);
                } else {
                    int last = AT(A_DISPL, osptr), subt1;
                    if (last == 0)
                        subt1 = ktup;
                    else if (i > AT(A_POS1, last) + (ktup - 1))
                        subt1 = AT(A_SCORE, last) + ktup;
                    else
                        subt1 = AT(A_SCORE, last) + (i - AT(A_POS1, last));
                    int subt2 = AT(A_SCORE, next) - wind_gap + ktup;
                    fs = subt2 > subt1 ? subt2 : subt1;
                }
                next = 0;
            }
        }
    }
    score[pair] = best ? AT(A_SCORE, best) : 0;
}
