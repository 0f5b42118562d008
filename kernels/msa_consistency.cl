/* QuickProbs stage III: one consistency pass (Eq. 2) over stored sparse posterior matrices.
 *
 * One work-group per target pair (x, y); work-item `lid` owns rows i = lid, lid+WG, ... of S_xy.
 * For row i, the C row is the row i of S_xy itself (no fill-in: only its columns can receive
 * mass). For every z of the list, every entry (j, a) of S_xz row i, every entry (l, b) of S_zy
 * row j: binary search of l in the C row (columns increasing), and on a hit
 * acc += w_z * a * b. Results go to `out` at the same positions as the input values; the caller
 * drops entries under the threshold afterwards (Jacobi: inputs are never written).
 *
 * pair_id: k*k ints (-1 absent); row_base: first global row of each pair; indptr: row starts.
 * tasks: pair ids to relax, this launch; zlist: the z sequences (all k, or the anchors).
 * Defines: WG (work-group size); optional CMAX: rows of at most CMAX entries are kept in local
 * memory while they are accumulated (wider rows use the global path).
 */

__kernel void relax(__global const int *tasks,
                    __global const int *pair_x,
                    __global const int *pair_y,
                    __global const int *pair_id,
                    __global const long *row_base,
                    __global const long *indptr,
                    __global const int *cols,
                    __global const float *vals,
                    __global const int *zlist,
                    const int nz,
                    __global const float *weights,
                    const int k,
                    __global float *out)
{
    const int p = tasks[get_group_id(0)];
    const int lid = get_local_id(0);
    const int lsz = get_local_size(0);
    const int x = pair_x[p], y = pair_y[p];
    const long rb = row_base[p];
    const int n = (int)(row_base[p + 1] - rb);
    const float wxy = weights[x] + weights[y];
    float total = wxy;
    for (int t = 0; t < nz; ++t) {
        const int z = zlist[t];
        if (z != x && z != y) total += weights[z];
    }
    const float inv = 1.0f / total;
#ifdef CMAX
    /* C rows of up to CMAX entries are searched and accumulated in local memory
     * (interleaved by work-item: entry e of work-item lid at e * WG + lid) */
    __local int lcol[CMAX * WG];
    __local float lacc[CMAX * WG];
#endif
    for (int i = lid; i < n; i += lsz) {
        const long c0 = indptr[rb + i], c1 = indptr[rb + i + 1];
        const int width = (int)(c1 - c0);
        if (width == 0) continue;
#ifdef CMAX
        if (width <= CMAX) {
            for (int e = 0; e < width; ++e) {
                lcol[e * WG + lid] = cols[c0 + e];
                lacc[e * WG + lid] = wxy * vals[c0 + e];
            }
            for (int t = 0; t < nz; ++t) {
                const int z = zlist[t];
                if (z == x || z == y) continue;
                const int pxz = pair_id[x * k + z];
                const int pzy = pair_id[z * k + y];
                if (pxz < 0 || pzy < 0) continue;
                const float wz = weights[z];
                const long ra = row_base[pxz] + i;
                const long a0 = indptr[ra], a1 = indptr[ra + 1];
                const long zb = row_base[pzy];
                for (long qa = a0; qa < a1; ++qa) {
                    const int j = cols[qa];
                    const float wa = wz * vals[qa];
                    const long b0 = indptr[zb + j], b1 = indptr[zb + j + 1];
                    int lo = 0;
                    for (long qb = b0; qb < b1; ++qb) {
                        const int l = cols[qb];
                        int hi = width;
                        while (lo < hi) {
                            const int mid = (lo + hi) >> 1;
                            if (lcol[mid * WG + lid] < l) lo = mid + 1; else hi = mid;
                        }
                        if (lo == width) break;
                        if (lcol[lo * WG + lid] == l) lacc[lo * WG + lid] += wa * vals[qb];
                    }
                }
            }
            for (int e = 0; e < width; ++e) out[c0 + e] = lacc[e * WG + lid] * inv;
            continue;
        }
#endif
        for (long q = c0; q < c1; ++q) out[q] = wxy * vals[q];
        for (int t = 0; t < nz; ++t) {
            const int z = zlist[t];
            if (z == x || z == y) continue;
            const int pxz = pair_id[x * k + z];
            const int pzy = pair_id[z * k + y];
            if (pxz < 0 || pzy < 0) continue;
            const float wz = weights[z];
            const long ra = row_base[pxz] + i;
            const long a0 = indptr[ra], a1 = indptr[ra + 1];
            const long zb = row_base[pzy];
            for (long qa = a0; qa < a1; ++qa) {
                const int j = cols[qa];
                const float wa = wz * vals[qa];
                const long b0 = indptr[zb + j], b1 = indptr[zb + j + 1];
                long lo = c0;
                for (long qb = b0; qb < b1; ++qb) {
                    const int l = cols[qb];
                    /* B row is sorted too: the search window only moves right */
                    long hi = c1;
                    while (lo < hi) {
                        const long mid = (lo + hi) >> 1;
                        if (cols[mid] < l) lo = mid + 1; else hi = mid;
                    }
                    if (lo == c1) break;
                    if (cols[lo] == l) out[lo] += wa * vals[qb];
                }
            }
        }
        for (long q = c0; q < c1; ++q) out[q] *= inv;
    }
}

/* After a pass: the entries under their threshold are dropped on the device, rows kept in
 * order (for 1,000 sequences the host did this on arrays of 1e8 entries, and the next pass
 * uploaded them again: a quarter of the pipeline's wall time on an H100).
 *   kept_count  work-item r writes into counts[r + 1] how many of row r's entries are >= the
 *               threshold: `floor` where use_floor, else its pair's thresh (the pair found by
 *               a binary search of row_base: the last pair whose first row is <= r).
 *   kept_copy   work-item r copies them, in order, to new_cols / new_vals from new_indptr[r]
 *               (the inclusive scan of counts, done between the two launches).
 * Same comparisons as SparseStore.filtered, so the same entries survive. */
inline float row_threshold(const long r, __global const long *row_base, const int npairs,
                           __global const float *thresh, const int use_floor, const float floor)
{
    if (use_floor)
        return floor;
    int lo = 0, hi = npairs - 1;
    while (lo < hi) {
        const int mid = (lo + hi + 1) >> 1;
        if (row_base[mid] <= r) lo = mid; else hi = mid - 1;
    }
    return thresh[lo];
}

__kernel void kept_count(const long nrows, __global const long *row_base, const int npairs,
                         __global const float *thresh, const int use_floor, const float floor,
                         __global const long *indptr, __global const float *vals,
                         __global long *counts)
{
    const long r = get_global_id(0);
    if (r >= nrows)
        return;
    const float t = row_threshold(r, row_base, npairs, thresh, use_floor, floor);
    long n = 0;
    for (long e = indptr[r]; e < indptr[r + 1]; ++e)
        n += vals[e] >= t;
    counts[r + 1] = n;
}

__kernel void kept_copy(const long nrows, __global const long *row_base, const int npairs,
                        __global const float *thresh, const int use_floor, const float floor,
                        __global const long *indptr, __global const int *cols,
                        __global const float *vals, __global const long *new_indptr,
                        __global int *new_cols, __global float *new_vals)
{
    const long r = get_global_id(0);
    if (r >= nrows)
        return;
    const float t = row_threshold(r, row_base, npairs, thresh, use_floor, floor);
    long w = new_indptr[r];
    for (long e = indptr[r]; e < indptr[r + 1]; ++e) {
        if (vals[e] >= t) {
            new_cols[w] = cols[e];
            new_vals[w] = vals[e];
            ++w;
        }
    }
}
