/* Agglomerative distance trees on the device: neighbor-joining, UPGMA, WPGMA.
 *
 * Storage: the live distances are a packed lower triangle, D[a(a-1)/2 + b] = d(a, b) for
 * b < a.  Live clusters always occupy slots 0 .. r-1: after joining slots i < j the new
 * cluster takes slot i and the cluster in slot r-1 moves into slot j (as scikit-bio does),
 * so the live triangle is always the prefix of length r(r-1)/2 and removed rows are never
 * read again.
 *
 * One iteration = one launch of `iterate`, no host read and no kernel argument change: the
 * iteration number lives on the device (state[0]) and each launch advances it.
 *   - every work-group takes a contiguous chunk of the live triangle (chunk size from the
 *     number of groups in the launch), computes the criterion and reduces it to one
 *     (value, i, j) candidate, which it writes to cand_q / cand_ij;
 *   - "last work-group finishes the job": each group then bumps a global counter
 *     (state[1]) after a global memory fence; the group that sees ngroups - 1 reduces the
 *     candidates, writes the linkage row, computes the joined row, updates the row sums (NJ),
 *     moves the last slot, sums the new row, advances state[0] and resets the counter.
 * For large live sizes (r >= the host's split size) one work-group would spend ~9 ns per live
 * row on the join; there `iterate_pick` does the scan and the pick only, and `join` spreads
 * the join over all compute units (same arithmetic, see join_blocks): two launches.
 * `iterate_tail` runs all remaining iterations of a small live matrix (r(r-1)/2 cells of a
 * few dozen per work-item) in ONE launch of ONE work-group (barriers between iterations).
 * Ties are broken on the smallest (i, j) slot pair everywhere, so the result does not depend
 * on the number or size of work-groups or on where the tail starts.
 *
 * With SHADOW (float64 runs), the scan reads a float32 copy F of the triangle (made on the
 * device by `to_shadow`; for NJ a float32 copy RF of the row sums follows it in F) and keeps,
 * per work-item, an upper bound of the exact minimum: the seed left by the previous launch
 * (the exact criterion, after that launch's join, of promising pairs still alive, see
 * `iterate`), lowered by every upper bound it computes.  Only cells whose lower bound is not
 * above it are read in float64 and compared exactly.  The exact minimum (and every tie of it) always passes that test, so
 * the result is the float64 one while the scan moves about half the bytes (4 per cell, read
 * as float4, plus the float32 row sums from cache) and does float32 arithmetic only; on
 * typical data about one float64 cell per iteration is read in all.
 *
 * Defines: REAL_IS_DOUBLE, METHOD (0 NJ, 1 UPGMA/average, 2 WPGMA/weighted),
 *          WG (work-group size, a power of two), SHADOW (0/1), SHADOW_EPS.
 */
#include "common.h"
#include "real.h"

#define NO_INDEX 0xffffffffu

inline ulong tri(uint a, uint b) { /* a > b */
    return ((ulong)a * (ulong)(a - 1)) / 2 + (ulong)b;
}

inline ulong pos(uint a, uint b) { /* a != b */
    return a > b ? tri(a, b) : tri(b, a);
}

/* (q, i, j) lexicographically smaller than (q2, i2, j2)? */
inline bool better(real q, uint i, uint j, real q2, uint i2, uint j2) {
    return q < q2 || (q == q2 && (i < i2 || (i == i2 && j < j2)));
}

inline void reduce_local(__local real *lq, __local uint *li, __local uint *lj, uint lid) {
    for (uint s = WG / 2; s > 0; s >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < s && better(lq[lid + s], li[lid + s], lj[lid + s], lq[lid], li[lid], lj[lid])) {
            lq[lid] = lq[lid + s];
            li[lid] = li[lid + s];
            lj[lid] = lj[lid + s];
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* Row sums of the full symmetric matrix: one work-group per row. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void row_sums(__global const real *D, uint n, __global real *R) {
    __local real acc[WG];
    uint a = get_group_id(0), lid = get_local_id(0);
    real s = 0;
    for (uint b = lid; b < n; b += WG)
        if (b != a) s += D[pos(a, b)];
    acc[lid] = s;
    for (uint h = WG / 2; h > 0; h >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < h) acc[lid] += acc[lid + h];
    }
    if (lid == 0) R[a] = acc[0];
}

/* Row a and column b of packed cell t (a > b). */
inline uint2 cell_of(ulong t) {
    uint a = (uint)(((real)1 + sqrt((real)1 + (real)8 * (real)t)) * (real)0.5);
    while (a > 1 && tri(a, 0) > t) a--;
    while (tri(a + 1, 0) <= t) a++;
    return (uint2)(a, (uint)(t - tri(a, 0)));
}

/* Move (a, b) on by `by` cells along the packed triangle. */
#define ADVANCE_BY(by)                                                                     \
    do {                                                                                   \
        b += (by);                                                                         \
        while (b >= a) {                                                                   \
            b -= a;                                                                        \
            a++;                                                                           \
        }                                                                                  \
    } while (0)
#define ADVANCE() ADVANCE_BY(WG)

#if METHOD == 0
#define CRITERION(d) (((d) * n2 - R[a]) - R[b]) /* pair (i = b, j = a); skbio's rounding */
#else
#define CRITERION(d) (d)
#endif

#define CONSIDER(d)                                                                        \
    do {                                                                                   \
        real q_ = CRITERION(d);                                                            \
        if (better(q_, b, a, *bq, *bi, *bj)) {                                             \
            *bq = q_;                                                                      \
            *bi = b;                                                                       \
            *bj = a;                                                                       \
        }                                                                                  \
    } while (0)

#define EXACT_STEP(d)                                                                      \
    do {                                                                                   \
        CONSIDER(d);                                                                       \
        ADVANCE();                                                                         \
    } while (0)

/* Exact criterion over cells [start, end) of D, lane lid of WG: best (q, i, j). */
inline void scan_exact(__global const real *D, __global const real *R, uint r, ulong start,
                       ulong end, uint lid, real *bq, uint *bi, uint *bj) {
    ulong t = start + lid;
    if (t >= end) return;
    real n2 = (real)r - (real)2;
    uint2 ab = cell_of(t);
    uint a = ab.x, b = ab.y;
    /* four independent loads in flight per lane, then the four cells in order */
    for (; t + 3 * WG < end; t += 4 * WG) {
        real d0 = D[t], d1 = D[t + WG], d2 = D[t + 2 * WG], d3 = D[t + 3 * WG];
        EXACT_STEP(d0);
        EXACT_STEP(d1);
        EXACT_STEP(d2);
        EXACT_STEP(d3);
    }
    for (; t < end; t += WG) {
        real d0 = D[t];
        EXACT_STEP(d0);
    }
}

#if SHADOW
/* Bounds of the exact criterion, all in float32 (no float64 arithmetic or conversion per
 * cell): from the float32 distance f and, for NJ, the float32 row sums RF (a copy of R kept
 * after the triangle in F).  Error of the float32 value against the exact float64 criterion,
 * with u = 2^-24 and S = |f n2| + |RF[a]| + |RF[b]|: three rounded inputs and at most three
 * rounded operations, <= 4 u S (about), plus FLT_MIN per input or operation where subnormals
 * are flushed; the margin used is S * SHADOW_EPS (2^-20 = 16 u) + (n2 + 5) FLT_MIN, and the
 * rounding of the bound's own arithmetic stays far inside it.  Values that overflowed float32
 * give inf / NaN bounds, and the comparisons are written so that NaN means "check exactly". */
#define TINY 1.17549435e-38f /* FLT_MIN */
#define FEPS ((float)SHADOW_EPS)
#define SHADOW_KEEP(tt)                                                                    \
    do {                                                                                   \
        float up_ = qs_ + e_;                                                              \
        if (up_ < sq) { /* this lane's most promising pair (seeds the next launch) */      \
            sq = up_;                                                                      \
            sb = b;                                                                        \
            sa = a;                                                                        \
            if (up_ < hi) hi = up_;                                                        \
        }                                                                                  \
        if (!(qs_ - e_ > hi)) {                                                            \
            real d_ = D[tt];                                                               \
            CONSIDER(d_);                                                                  \
        }                                                                                  \
    } while (0)
#if METHOD == 0
#define SHADOW_STEP(f, tt)                                                                 \
    do {                                                                                   \
        float base_ = (f) * n2f;                                                           \
        float ra_ = RF[a], rb_ = RF[b];                                                    \
        float qs_ = (base_ - ra_) - rb_;                                                   \
        float e_ = (fabs(base_) + fabs(ra_) + fabs(rb_)) * FEPS + (n2f + 5.0f) * TINY;     \
        SHADOW_KEEP(tt);                                                                   \
    } while (0)
#else
#define SHADOW_STEP(f, tt)                                                                 \
    do {                                                                                   \
        float qs_ = (f);                                                                   \
        float e_ = fabs(qs_) * FEPS + 2.0f * TINY;                                         \
        SHADOW_KEEP(tt);                                                                   \
    } while (0)
#endif

/* Same result as scan_exact, reading F (float32) and only the few D cells that can matter.
 * Also gives the lane's pair of smallest upper bound (*pq, *pb, *pa): promising pairs whose
 * exact criterion after the join seeds the next launch. */
inline void scan_shadow(__global const float *F, __global const float *RF,
                        __global const real *D, __global const real *R, uint r, ulong start,
                        ulong end, uint lid, real seed, real *bq, uint *bi, uint *bj,
                        real *pq, uint *pb, uint *pa) {
    real n2 = (real)r - (real)2;
    const float n2f = (float)r - 2.0f; /* exact below 2^24 taxa */
    /* an upper bound of the exact minimum: the seed (see `iterate`, rounded up to float32),
     * then the smallest upper bound seen by this lane (sq, always >= hi) */
    float hi = (float)seed, sq = INFINITY;
    if ((real)hi < seed) hi = nextafter(hi, (float)INFINITY);
    uint sb = NO_INDEX, sa = NO_INDEX;
    /* Each lane reads 4 consecutive cells as one float4 (start is a multiple of 4), four
     * vectors in flight: 64 bytes per lane outstanding instead of 16. */
    ulong t = start + 4 * (ulong)lid;
    if (t >= end) return;
    uint2 ab = cell_of(t);
    uint a = ab.x, b = ab.y;
    __global const float4 *F4 = (__global const float4 *)F;
#define STEP4(v, tt)                                                                       \
    do {                                                                                   \
        SHADOW_STEP((v).s0, (tt));                                                         \
        ADVANCE_BY(1);                                                                     \
        SHADOW_STEP((v).s1, (tt) + 1);                                                     \
        ADVANCE_BY(1);                                                                     \
        SHADOW_STEP((v).s2, (tt) + 2);                                                     \
        ADVANCE_BY(1);                                                                     \
        SHADOW_STEP((v).s3, (tt) + 3);                                                     \
        ADVANCE_BY(4 * WG - 3);                                                            \
    } while (0)
    for (; t + 12 * WG + 3 < end; t += 16 * WG) {
        float4 v0 = F4[t / 4], v1 = F4[t / 4 + WG], v2 = F4[t / 4 + 2 * WG],
               v3 = F4[t / 4 + 3 * WG];
        STEP4(v0, t);
        STEP4(v1, t + 4 * WG);
        STEP4(v2, t + 8 * WG);
        STEP4(v3, t + 12 * WG);
    }
    for (; t < end; t += 4 * WG) {
        for (uint u = 0; u < 4; u++) {
            if (t + u < end) {
                float f0 = F[t + u];
                SHADOW_STEP(f0, t + u);
            }
            ADVANCE_BY(1);
        }
        ADVANCE_BY(4 * WG - 4);
    }
#undef STEP4
    *pq = sq;
    *pb = sb;
    *pa = sa;
}

/* Float32 copies made on the device (grid-stride loop): F[offset + t] = src[t]. */
__kernel void to_shadow(__global const real *src, __global float *F, ulong count,
                        ulong offset) {
    for (ulong t = get_global_id(0); t < count; t += get_global_size(0))
        F[offset + t] = (float)src[t];
}

#define STORE(p, v) do { D[p] = (v); F[p] = (float)(v); } while (0)
#define SET_R(k, v) do { R[k] = (v); RF[k] = (float)(v); } while (0)
#define ROW_SHADOW(F, n) ((F) + tri((n), 0))
#else
#define STORE(p, v) (D[p] = (v))
#define SET_R(k, v) (R[k] = (v))
#define ROW_SHADOW(F, n) (F)
#endif

/* Joining slots i < j of the r live ones: the joined row goes into slot i, slot r-1 moves into
 * slot j, the row sums are updated (NJ). In pieces, so that one work-group (fused into
 * `iterate` and `iterate_tail`) or many (`join`, for large r) can do it with the same
 * arithmetic:
 *   join_record : the linkage row and what the other pieces need (before anything changes);
 *   join_blocks : the rows, in blocks of 4 WG slots k; a block's new-row values are summed
 *                 per lane, then over the group's lanes, into parts[block];
 *   join_finish : R[i] from parts[] (lane-strided over blocks, then over lanes: the order
 *                 depends on WG only), ids and sizes.
 *   link  : (n-1) x 4 output rows; row `it` gets (id_i, id_j, x, y) where NJ: x, y are the
 *           branch lengths of i and j; UPGMA/WPGMA: x = height (distance), y = new size.
 *   ids   : cluster id of each slot; sizes: leaves under each slot.
 *   pick  : (hdij = d(i, j) / 2, size of i, size of j), for join_blocks.
 */
#define JOIN_BLOCK (4 * WG)

inline void join_record(__global const real *D, __global const real *R,
                        __global const uint *ids, __global const real *sizes,
                        __global real *link, uint r, uint it, uint i, uint j, real *pick,
                        bool write) {
    const real dij = D[tri(j, i)];
    pick[0] = dij / (real)2;
    pick[1] = sizes[i];
    pick[2] = sizes[j];
    if (!write) return;
    link[4 * it + 0] = (real)ids[i];
    link[4 * it + 1] = (real)ids[j];
#if METHOD == 0
    const real delta = (R[i] - R[j]) / (real)(2 * r - 4);
    link[4 * it + 2] = pick[0] + delta;
    link[4 * it + 3] = pick[0] - delta;
#else
    link[4 * it + 2] = dij;
    link[4 * it + 3] = pick[1] + pick[2];
#endif
}

/* Blocks b0, b0 + bstep, ... of the slots k. Each work-item handles four k of a block with
 * all loads first (no two k of a block touch the same cell). */
inline void join_blocks(__global real *D, __global float *F, __global real *R,
                        __global float *RF, uint r, uint i, uint j, const real *pick,
                        uint b0, uint bstep, uint lid, __local real *lsum,
                        __global real *parts) {
    const uint last = r - 1;
    const bool move = j != last;
    const real hdij = pick[0], si = pick[1], sj = pick[2];
    const uint nblocks = (r + JOIN_BLOCK - 1) / JOIN_BLOCK;
    for (uint b = b0; b < nblocks; b += bstep) {
        const uint k0 = b * JOIN_BLOCK + lid;
        real dik[4], djk[4], dlk[4];
#if METHOD == 0
        real rkk[4];
#endif
#pragma unroll
        for (uint u = 0; u < 4; u++) {
            uint k = k0 + u * WG;
            if (k < r && k != i && k != j) {
                dik[u] = D[pos(i, k)];
                djk[u] = D[pos(j, k)];
#if METHOD == 0
                rkk[u] = R[k];
#endif
                if (move && k != last) dlk[u] = D[tri(last, k)];
            }
        }
        real part = 0;
#pragma unroll
        for (uint u = 0; u < 4; u++) {
            uint k = k0 + u * WG;
            if (k < r && k != i && k != j) {
#if METHOD == 0
                real h = (dik[u] + djk[u]) / (real)2;
                real nv = h - hdij;
                real rk = (rkk[u] - h) - hdij;
                SET_R(k, rk);
#elif METHOD == 1
                real nv = (si * dik[u] + sj * djk[u]) / (si + sj);
#else
                real nv = (real)0.5 * (dik[u] + djk[u]);
#endif
                STORE(pos(i, k), nv);
                part += nv;
                if (move) {
                    if (k == last) { /* the last cluster moves to slot j: its distance to i */
                        STORE(tri(j, i), nv);
#if METHOD == 0
                        SET_R(j, rk);
#endif
                    } else {
                        STORE(pos(j, k), dlk[u]);
                    }
                }
            }
        }
        lsum[lid] = part;
        for (uint h2 = WG / 2; h2 > 0; h2 >>= 1) {
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lid < h2) lsum[lid] += lsum[lid + h2];
        }
        if (lid == 0) parts[b] = lsum[0];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* After every block is written (and visible to this group): R[i], ids and sizes. */
inline void join_finish(__global real *R, __global float *RF, __global uint *ids,
                        __global real *sizes, uint r, uint new_id, uint i, uint j,
                        const real *pick, uint lid, __local real *lsum,
                        volatile __global const real *parts) {
    const uint last = r - 1;
    const uint nblocks = (r + JOIN_BLOCK - 1) / JOIN_BLOCK;
    real acc = 0;
    for (uint b = lid; b < nblocks; b += WG) acc += parts[b];
    lsum[lid] = acc;
    for (uint h2 = WG / 2; h2 > 0; h2 >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < h2) lsum[lid] += lsum[lid + h2];
    }
    if (lid == 0) {
#if METHOD == 0
        SET_R(i, lsum[0]);
#endif
        ids[i] = new_id;
        sizes[i] = pick[1] + pick[2];
        if (j != last) {
            ids[j] = ids[last];
            sizes[j] = sizes[last];
        }
    }
}

/* The whole join on one work-group. */
inline void join_rows(__global real *D, __global float *F, __global real *R,
                      __global float *RF, __global uint *ids, __global real *sizes,
                      __global real *link, uint r, uint it, uint new_id, uint i, uint j,
                      uint lid, __local real *lsum, __global real *parts) {
    real pick[3];
    join_record(D, R, ids, sizes, link, r, it, i, j, pick, lid == 0);
    /* Everyone has read R[i], R[j], D(i, j), ids, sizes of i and j before anything changes. */
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    join_blocks(D, F, R, RF, r, i, j, pick, 0, 1, lid, lsum, parts);
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    join_finish(R, RF, ids, sizes, r, new_id, i, j, pick, lid, lsum, parts);
}

/* Scan of this launch's chunk of the live triangle: the work-item's best (q, i, j). */
inline void scan_chunk(__global const float *F, __global const float *RF,
                       __global const real *D, __global const real *R, uint r, ulong start,
                       ulong end, uint lid, real seed, real *bq, uint *bi, uint *bj,
                       real *pq, uint *pb, uint *pa) {
#if SHADOW
    scan_shadow(F, RF, D, R, r, start, end, lid, seed, bq, bi, bj, pq, pb, pa);
#else
    scan_exact(D, R, r, start, end, lid, bq, bi, bj);
#endif
}

#if SHADOW
/* Seed for the next launch, after the join of slots i, j (its writes visible to this group;
 * volatile: other groups may have made them). */
inline void next_seed(volatile __global const real *vD, volatile __global const real *vR,
                      __global real *seed, __global const uint *seed_ij,
                      __global const real *seed_q, uint ngroups, uint r, uint i, uint j,
                      uint lid, __local real *lq) {
    /* Seed for the next launch: an upper bound of the next minimum, from the exact criterion
     * (after this join) of promising live pairs.  Each group left its pair of smallest float32
     * upper bound (seed_q / seed_ij); each work-item here takes the best of its share of those
     * (leaving out pairs touching i or j) and evaluates that one pair exactly, plus a small
     * margin for rounding / FMA contraction differences.  The value of a live pair bounds the
     * next minimum, so cells whose lower bound exceeds it are never read in float64; on most
     * data almost none is left. */
    real best = INFINITY;
    {
        volatile __global const real *vsq = seed_q;
        volatile __global const uint *vij = seed_ij;
        const uint last = r - 1;
        real pick_q = INFINITY;
        uint pick_a = NO_INDEX, pick_b = NO_INDEX;
        for (uint c0 = lid; c0 < ngroups; c0 += 4 * WG) { /* 4 groups' loads in flight */
            real q4[4];
            uint b4[4], a4[4];
#pragma unroll
            for (uint u = 0; u < 4; u++) {
                uint c = min(c0 + u * WG, ngroups - 1); /* repeats are harmless */
                q4[u] = vsq[c];
                b4[u] = vij[2 * c];
                a4[u] = vij[2 * c + 1];
            }
#pragma unroll
            for (uint u = 0; u < 4; u++) {
                uint ca = a4[u], cb = b4[u]; /* cb < ca, or NO_INDEX */
                if (ca >= r || cb >= r || ca == i || ca == j || cb == i || cb == j) continue;
                if (q4[u] < pick_q || pick_a == NO_INDEX) {
                    pick_q = q4[u];
                    pick_a = ca == last ? j : ca; /* the last slot has moved to j */
                    pick_b = cb;
                }
            }
        }
        if (pick_a != NO_INDEX) {
            uint a = max(pick_a, pick_b), b = min(pick_a, pick_b);
            real d = vD[tri(a, b)];
#if METHOD == 0
            const real n2 = (real)(r - 1) - (real)2;
            real base = d * n2;
            real q = (base - vR[a]) - vR[b];
            real e = (fabs(base) + fabs(vR[a]) + fabs(vR[b])) * (real)9.094947017729282e-13;
#else
            real q = d;
            real e = fabs(d) * (real)9.094947017729282e-13;
#endif
            real up = q + e; /* NaN / inf never lowers the seed */
            if (up < best) best = up;
        }
    }
    lq[lid] = best;
    for (uint h = WG / 2; h > 0; h >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < h && lq[lid + h] < lq[lid]) lq[lid] = lq[lid + h];
    }
    if (lid == 0) seed[0] = lq[0];
}
#endif

/* One whole iteration (scan + pick + join) per launch; see the top of the file.
 * state[0]: iterations done (r = n - state[0]); state[1]: groups finished (0 between
 * launches).  The number of groups is the launch's; any number >= 1 gives the same result. */
inline void iterate_impl(__global real *D, __global float *F, __global real *R,
                         __global uint *ids, __global real *sizes, __global real *link,
                         __global uint *state, uint n, __global real *cand_q,
                         __global uint *cand_ij, __global real *seed, __global uint *seed_ij,
                         __global real *seed_q, __global real *parts, __global real *pick_v,
                         const bool pick_only, __local real *lq, __local uint *li,
                         __local uint *lj, __local uint *ticket) {
    const uint lid = get_local_id(0), g = get_group_id(0), ngroups = get_num_groups(0);
    const uint it = state[0];
    const uint r = n - it;
    const ulong total = ((ulong)r * (ulong)(r - 1)) / 2;
    /* a multiple of 4: the shadow scan's float4 reads start on 16-byte boundaries */
    const ulong chunk = ((total + ngroups - 1) / ngroups + 3) & ~(ulong)3;
    const ulong start = (ulong)g * chunk;
    const ulong end = min(start + chunk, total);
    real bq = INFINITY;
    uint bi = NO_INDEX, bj = NO_INDEX;
    real pq = INFINITY;
    uint pb = NO_INDEX, pa = NO_INDEX;
    __global float *RF = ROW_SHADOW(F, n);
    scan_chunk(F, RF, D, R, r, start, end, lid, seed[0], &bq, &bi, &bj, &pq, &pb, &pa);
#if SHADOW
    lq[lid] = pq; /* the group's most promising pair, for the next seed */
    li[lid] = pb;
    lj[lid] = pa;
    reduce_local(lq, li, lj, lid);
    if (lid == 0) {
        seed_q[g] = lq[0];
        seed_ij[2 * g] = li[0];
        seed_ij[2 * g + 1] = lj[0];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
    lq[lid] = bq;
    li[lid] = bi;
    lj[lid] = bj;
    reduce_local(lq, li, lj, lid);
    if (ngroups > 1) { /* uniform: the last group to finish reduces all candidates */
        if (lid == 0) {
            cand_q[g] = lq[0];
            cand_ij[2 * g] = li[0];
            cand_ij[2 * g + 1] = lj[0];
            mem_fence(CLK_GLOBAL_MEM_FENCE); /* candidates visible before the count */
            *ticket = atomic_inc(&state[1]);
            mem_fence(CLK_GLOBAL_MEM_FENCE);
        }
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        const bool is_last = *ticket == ngroups - 1;
        barrier(CLK_LOCAL_MEM_FENCE); /* everyone has read ticket */
        if (!is_last) return;         /* uniform across the group */
        /* volatile: other groups' candidates, never from a stale (non-coherent) cache */
        volatile __global const real *vq = cand_q;
        volatile __global const uint *vij = cand_ij;
        bq = INFINITY;
        bi = NO_INDEX;
        bj = NO_INDEX;
        for (uint c0 = lid; c0 < ngroups; c0 += 4 * WG) { /* 4 candidates' loads in flight */
            real q4[4];
            uint i4[4], j4[4];
#pragma unroll
            for (uint u = 0; u < 4; u++) {
                uint c = min(c0 + u * WG, ngroups - 1); /* repeats are harmless */
                q4[u] = vq[c];
                i4[u] = vij[2 * c];
                j4[u] = vij[2 * c + 1];
            }
#pragma unroll
            for (uint u = 0; u < 4; u++) {
                if (better(q4[u], i4[u], j4[u], bq, bi, bj)) {
                    bq = q4[u];
                    bi = i4[u];
                    bj = j4[u];
                }
            }
        }
        lq[lid] = bq;
        li[lid] = bi;
        lj[lid] = bj;
        reduce_local(lq, li, lj, lid);
    }
    /* No finite criterion cannot happen for validated input; stay in bounds regardless. */
    const uint i = li[0] == NO_INDEX ? 0 : li[0], j = lj[0] == NO_INDEX ? 1 : lj[0];
    if (pick_only) { /* large r: `join` does the rest on every compute unit */
        if (lid == 0) {
            real pick[3];
            join_record(D, R, ids, sizes, link, r, it, i, j, pick, true);
            pick_v[0] = pick[0];
            pick_v[1] = pick[1];
            pick_v[2] = pick[2];
            state[2] = i;
            state[3] = j;
            state[4] = ngroups; /* the scan's groups, whose seed candidates `join` reads */
            state[1] = 0;
        }
        return;
    }
    join_rows(D, F, R, RF, ids, sizes, link, r, it, n + it, i, j, lid, lq, parts);
#if SHADOW
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE); /* the joined rows and R */
    next_seed(D, R, seed, seed_ij, seed_q, ngroups, r, i, j, lid, lq);
#endif
    if (lid == 0) {
        state[0] = it + 1;
        state[1] = 0;
    }
}

/* `iterate`: scan, pick and join; `iterate_pick`: scan and pick only (then `join`). Two
 * kernels rather than a test of r on the device, so that every barrier is unconditional. */
#define ITERATE_KERNEL(name, pick_only)                                                    \
    __kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void name(                    \
        __global real *D, __global float *F, __global real *R, __global uint *ids,         \
        __global real *sizes, __global real *link, __global uint *state, uint n,           \
        __global real *cand_q, __global uint *cand_ij, __global real *seed,                \
        __global uint *seed_ij, __global real *seed_q, __global real *parts,               \
        __global real *pick_v) {                                                           \
        __local real lq[WG];                                                               \
        __local uint li[WG], lj[WG], ticket;                                               \
        iterate_impl(D, F, R, ids, sizes, link, state, n, cand_q, cand_ij, seed, seed_ij,  \
                     seed_q, parts, pick_v, pick_only, lq, li, lj, &ticket);               \
    }
ITERATE_KERNEL(iterate, false)
ITERATE_KERNEL(iterate_pick, true)

/* The join of an iteration picked by `iterate_pick` (slots state[2] < state[3],
 * state[3]): every group takes blocks of slots; the last group to finish (state[1] ticket)
 * sums the new row, updates ids and sizes, leaves the next seed and advances state[0]. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void join(__global real *D, __global float *F, __global real *R, __global uint *ids,
          __global real *sizes, __global uint *state, uint n, __global real *parts,
          __global const real *pick_v, __global real *seed, __global uint *seed_ij,
          __global real *seed_q) {
    __local real lsum[WG];
    __local uint ticket;
    const uint lid = get_local_id(0), g = get_group_id(0), ngroups = get_num_groups(0);
    const uint it = state[0], r = n - it, i = state[2], j = state[3];
    const real pick[3] = {pick_v[0], pick_v[1], pick_v[2]};
    __global float *RF = ROW_SHADOW(F, n);
    join_blocks(D, F, R, RF, r, i, j, pick, g, ngroups, lid, lsum, parts);
    if (lid == 0) {
        mem_fence(CLK_GLOBAL_MEM_FENCE); /* this group's rows and parts before the count */
        ticket = atomic_inc(&state[1]);
        mem_fence(CLK_GLOBAL_MEM_FENCE);
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    if (ticket != ngroups - 1) return; /* uniform across the group */
    join_finish(R, RF, ids, sizes, r, n + it, i, j, pick, lid, lsum, parts);
#if SHADOW
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    next_seed(D, R, seed, seed_ij, seed_q, state[4], r, i, j, lid, lsum);
#endif
    if (lid == 0) {
        state[0] = it + 1;
        state[1] = 0;
    }
}

/* All remaining iterations while r > stop, in one launch of one work-group (small r: the
 * live triangle is a few dozen cells per work-item and stays in cache). */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void iterate_tail(__global real *D, __global float *F, __global real *R, __global uint *ids,
          __global real *sizes, __global real *link, __global uint *state, uint n, uint stop,
          __global real *parts) {
    __local real lq[WG];
    __local uint li[WG], lj[WG];
    const uint lid = get_local_id(0);
    uint it = state[0];
    for (uint r = n - it; r > stop; r--, it++) {
        real bq = INFINITY;
        uint bi = NO_INDEX, bj = NO_INDEX;
        scan_exact(D, R, r, 0, ((ulong)r * (ulong)(r - 1)) / 2, lid, &bq, &bi, &bj);
        lq[lid] = bq;
        li[lid] = bi;
        lj[lid] = bj;
        reduce_local(lq, li, lj, lid);
        const uint i = li[0] == NO_INDEX ? 0 : li[0], j = lj[0] == NO_INDEX ? 1 : lj[0];
        join_rows(D, F, R, ROW_SHADOW(F, n), ids, sizes, link, r, it, n + it, i, j, lid, lq,
                  parts);
        /* the joined rows, R, ids and sizes are visible to the whole group */
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) state[0] = it;
}

/* Upload without a host-side pack: full rows s .. s+count-1 of the square matrix (row length
 * width = n) arrive in `rows`; their strict lower parts go to the packed triangle. */
__kernel void pack_rows(__global const real *rows, uint s, uint count, uint width,
                        __global real *D) {
    const ulong cells = (ulong)count * (ulong)width;
    for (ulong t = get_global_id(0); t < cells; t += get_global_size(0)) {
        uint a = s + (uint)(t / width), b = (uint)(t % width);
        if (b < a) D[tri(a, b)] = rows[t];
    }
}
