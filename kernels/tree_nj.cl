/* Agglomerative distance trees on the device: neighbor-joining, UPGMA, WPGMA.
 *
 * Storage: the live distances are a packed lower triangle, D[a(a-1)/2 + b] = d(a, b) for
 * b < a.  Live clusters always occupy slots 0 .. r-1: after joining slots i < j the new
 * cluster takes slot i and the cluster in slot r-1 moves into slot j (as scikit-bio does),
 * so the live triangle is always the prefix of length r(r-1)/2 and removed rows are never
 * read again.
 *
 * One iteration = two launches and no host read:
 *   scan_min : every work-group takes a contiguous chunk of the live triangle, computes the
 *              criterion and reduces it to one (value, i, j) candidate;
 *   join     : one work-group reduces the candidates, writes the linkage row, computes the
 *              joined row, updates the row sums (NJ), moves the last slot, and sums the new row.
 * Ties are broken on the smallest (i, j) slot pair, so the result does not depend on the
 * number or size of work-groups.
 *
 * With SHADOW (float64 runs), a float32 copy of the triangle is scanned first and only the
 * chunks that can hold the exact minimum are rescanned in float64 (three launches, about half
 * the bytes of a float64 scan); see scan_bound / rescan.
 *
 * Defines: REAL_IS_DOUBLE, METHOD (0 NJ, 1 UPGMA/average, 2 WPGMA/weighted),
 *          WG (work-group size, a power of two), SHADOW (0/1), SHADOW_EPS.
 */
#include "common.h"

#if REAL_IS_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real;
#else
typedef float real;
#endif

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

/* Move (a, b) on by WG cells along the packed triangle. */
#define ADVANCE()                                                                          \
    do {                                                                                   \
        b += WG;                                                                           \
        while (b >= a) {                                                                   \
            b -= a;                                                                        \
            a++;                                                                           \
        }                                                                                  \
    } while (0)

#if METHOD == 0
#define CRITERION(d) (((d) * n2 - R[a]) - R[b]) /* pair (i = b, j = a); skbio's rounding */
#else
#define CRITERION(d) (d)
#endif

#define EXACT_STEP(d)                                                                      \
    do {                                                                                   \
        real q_ = CRITERION(d);                                                            \
        if (better(q_, b, a, *bq, *bi, *bj)) {                                             \
            *bq = q_;                                                                      \
            *bi = b;                                                                       \
            *bj = a;                                                                       \
        }                                                                                  \
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

inline void write_candidate(__local real *lq, __local uint *li, __local uint *lj, uint lid,
                            uint g, real bq, uint bi, uint bj, __global real *cand_q,
                            __global uint *cand_ij) {
    lq[lid] = bq;
    li[lid] = bi;
    lj[lid] = bj;
    reduce_local(lq, li, lj, lid);
    if (lid == 0) {
        cand_q[g] = lq[0];
        cand_ij[2 * g] = li[0];
        cand_ij[2 * g + 1] = lj[0];
    }
}

/* Criterion over the live triangle (total = r(r-1)/2 cells), one candidate per group. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void scan_min(__global const real *D, __global const real *R, uint r, ulong total,
              ulong chunk, __global real *cand_q, __global uint *cand_ij) {
    __local real lq[WG];
    __local uint li[WG], lj[WG];
    uint lid = get_local_id(0), g = get_group_id(0);
    ulong start = (ulong)g * chunk;
    real bq = INFINITY;
    uint bi = NO_INDEX, bj = NO_INDEX;
    scan_exact(D, R, r, start, min(start + chunk, total), lid, &bq, &bi, &bj);
    write_candidate(lq, li, lj, lid, g, bq, bi, bj, cand_q, cand_ij);
}

#if SHADOW
/* Bounds of the exact criterion from a float32 value: relative error <= 2^-24, plus TINY for
 * values that became float32 subnormals; a value that overflowed to inf forces a rescan. */
#define TINY ((real)1e-44)
#if METHOD == 0
#define BOUND_STEP(d)                                                                      \
    do {                                                                                   \
        real base_ = (d) * n2;                                                             \
        real q_ = (base_ - R[a]) - R[b];                                                   \
        real e_ = (fabs(base_) + fabs(R[a]) + fabs(R[b])) * SHADOW_EPS + n2 * TINY;        \
        lo = isinf(d) ? -INFINITY : min(lo, q_ - e_);                                      \
        hi = min(hi, q_ + e_);                                                             \
        ADVANCE();                                                                         \
    } while (0)
#else
#define BOUND_STEP(d)                                                                      \
    do {                                                                                   \
        real e_ = fabs(d) * SHADOW_EPS + TINY;                                             \
        lo = isinf(d) ? -INFINITY : min(lo, (d) - e_);                                     \
        hi = min(hi, (d) + e_);                                                            \
        ADVANCE();                                                                         \
    } while (0)
#endif

/* Shadow search for float64 runs: a float32 copy F of D is scanned first (half the bytes);
 * each group keeps lower and upper bounds of the exact criterion over its chunk.  Only the
 * groups whose lower bound is not above the smallest upper bound can hold the exact minimum
 * (or a tie of it); `rescan` scans just those chunks in float64 with the exact tie-break. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void scan_bound(__global const float *F, __global const real *R, uint r, ulong total,
                ulong chunk, __global real *lo_out, __global real *hi_out) {
    __local real llo[WG], lhi[WG];
    uint lid = get_local_id(0), g = get_group_id(0);
    ulong start = (ulong)g * chunk;
    ulong end = min(start + chunk, total);
    real lo = INFINITY, hi = INFINITY;
    ulong t = start + lid;
    if (t < end) {
        real n2 = (real)r - (real)2;
        uint2 ab = cell_of(t);
        uint a = ab.x, b = ab.y;
        for (; t + 3 * WG < end; t += 4 * WG) {
            real d0 = F[t], d1 = F[t + WG], d2 = F[t + 2 * WG], d3 = F[t + 3 * WG];
            BOUND_STEP(d0);
            BOUND_STEP(d1);
            BOUND_STEP(d2);
            BOUND_STEP(d3);
        }
        for (; t < end; t += WG) {
            real d0 = F[t];
            BOUND_STEP(d0);
        }
    }
    llo[lid] = lo;
    lhi[lid] = hi;
    for (uint s = WG / 2; s > 0; s >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < s) {
            llo[lid] = min(llo[lid], llo[lid + s]);
            lhi[lid] = min(lhi[lid], lhi[lid + s]);
        }
    }
    if (lid == 0) {
        lo_out[g] = llo[0];
        hi_out[g] = lhi[0];
    }
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void rescan(__global const real *D, __global const real *R, uint r, ulong total, ulong chunk,
            uint ngroups, __global const real *lo_in, __global const real *hi_in,
            __global real *cand_q, __global uint *cand_ij) {
    __local real lq[WG];
    __local uint li[WG], lj[WG];
    uint lid = get_local_id(0), g = get_group_id(0);
    real u = INFINITY;
    for (uint k = lid; k < ngroups; k += WG) u = min(u, hi_in[k]);
    lq[lid] = u;
    for (uint s = WG / 2; s > 0; s >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < s) lq[lid] = min(lq[lid], lq[lid + s]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    u = lq[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    real bq = INFINITY;
    uint bi = NO_INDEX, bj = NO_INDEX;
    if (lo_in[g] <= u) { /* same branch for the whole group */
        ulong start = (ulong)g * chunk;
        scan_exact(D, R, r, start, min(start + chunk, total), lid, &bq, &bi, &bj);
    }
    write_candidate(lq, li, lj, lid, g, bq, bi, bj, cand_q, cand_ij);
}
#define STORE(p, v) do { D[p] = (v); F[p] = (float)(v); } while (0)
#else
#define STORE(p, v) (D[p] = (v))
#endif

/* Pick the best candidate, record the join, update the matrix.  One work-group.
 *   link  : (n-1) x 4 output rows; row `step` gets (id_i, id_j, x, y) where NJ: x, y are the
 *           branch lengths of i and j; UPGMA/WPGMA: x = height (distance), y = new size.
 *   ids   : cluster id of each slot; sizes: leaves under each slot. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void join(__global real *D, __global float *F, __global real *R, __global uint *ids, __global real *sizes,
          uint r, uint ncand, __global const real *cand_q, __global const uint *cand_ij,
          __global real *link, uint step, uint new_id) {
    __local real lq[WG];
    __local uint li[WG], lj[WG];
    uint lid = get_local_id(0);
    real bq = INFINITY;
    uint bi = NO_INDEX, bj = NO_INDEX;
    for (uint g = lid; g < ncand; g += WG) {
        if (better(cand_q[g], cand_ij[2 * g], cand_ij[2 * g + 1], bq, bi, bj)) {
            bq = cand_q[g];
            bi = cand_ij[2 * g];
            bj = cand_ij[2 * g + 1];
        }
    }
    lq[lid] = bq;
    li[lid] = bi;
    lj[lid] = bj;
    reduce_local(lq, li, lj, lid);
    /* No finite criterion cannot happen for validated input; stay in bounds regardless. */
    const uint i = li[0] == NO_INDEX ? 0 : li[0], j = lj[0] == NO_INDEX ? 1 : lj[0];
    const uint last = r - 1;
    const real dij = D[tri(j, i)];
    const real si = sizes[i], sj = sizes[j];
#if METHOD == 0
    const real hdij = dij / (real)2;
    const real delta = (R[i] - R[j]) / (real)(2 * r - 4);
#endif
    if (lid == 0) {
        link[4 * step + 0] = (real)ids[i];
        link[4 * step + 1] = (real)ids[j];
#if METHOD == 0
        link[4 * step + 2] = hdij + delta;
        link[4 * step + 3] = hdij - delta;
#else
        link[4 * step + 2] = dij;
        link[4 * step + 3] = si + sj;
#endif
    }
    /* Everyone has read R[i], R[j], ids, sizes of i and j before anything changes. */
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    real part = 0;
    for (uint k = lid; k < r; k += WG) {
        if (k == i || k == j) continue;
        ulong pik = pos(i, k), pjk = pos(j, k);
        real dik = D[pik], djk = D[pjk];
#if METHOD == 0
        real h = (dik + djk) / (real)2;
        real nv = h - hdij;
        real rk = (R[k] - h) - hdij;
        R[k] = rk;
#elif METHOD == 1
        real nv = (si * dik + sj * djk) / (si + sj);
#else
        real nv = (real)0.5 * (dik + djk);
#endif
        STORE(pik, nv);
        part += nv;
        if (j != last) {
            if (k == last) { /* the last cluster moves to slot j: its distance to i */
                STORE(tri(j, i), nv);
#if METHOD == 0
                R[j] = rk;
#endif
            } else {
                STORE(pjk, D[tri(last, k)]);
            }
        }
    }
    lq[lid] = part;
    for (uint h2 = WG / 2; h2 > 0; h2 >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < h2) lq[lid] += lq[lid + h2];
    }
    if (lid == 0) {
#if METHOD == 0
        R[i] = lq[0];
#endif
        ids[i] = new_id;
        sizes[i] = si + sj;
        if (j != last) {
            ids[j] = ids[last];
            sizes[j] = sizes[last];
        }
    }
}
