/* Reliability of a multiple alignment's residues and columns, from the posteriors stage IV
 * aligned (ProbCons' and QuickProbs' annotation).
 *
 * One work-item per residue (x, i). For every sequence y stored with x (both orientations of
 * a pair are stored; the host lists x's pairs), the residue j of y that the alignment puts in
 * i's column is found (y's columns increase along y: a binary search in y's part of colmap),
 * and the relaxed posterior S_xy(i, j) is read (0 when the sparse row has no entry for j: a
 * binary search in the row's sorted columns). Where y has a gap in that column the residue
 * gets the posterior that it pairs with none of y's residues (1 - the row's sum) instead.
 *
 * Out: the residue's reliability (the mean over its partners, NaN without any), and the sum
 * and number of its aligned pairs, which the host adds up by column (a column's reliability
 * is the mean posterior of the residue pairs it aligns). Each work-item adds in a fixed order,
 * so the results do not depend on how the device schedules them.
 */
__kernel void reliability(__global const int *pair_order, __global const int *x_first,
                          __global const int *pair_y, __global const long *row_base,
                          __global const long *indptr, __global const int *cols,
                          __global const float *vals, __global const long *seq_start,
                          __global const int *colmap, __global const int *owner,
                          const int nres, __global float *aligned_sum,
                          __global int *aligned_pairs, __global float *residue)
{
    const int r = get_global_id(0);
    if (r >= nres) return;
    const int x = owner[r];
    const int i = r - (int)seq_start[x];
    const int c = colmap[r];
    float both = 0.0f, all = 0.0f;
    int pairs = 0, partners = 0;
    for (int t = x_first[x]; t < x_first[x + 1]; ++t) {
        const int p = pair_order[t];
        const int y = pair_y[p];
        const long ys = seq_start[y];
        const int ny = (int)(seq_start[y + 1] - ys);
        int lo = 0, hi = ny;
        while (lo < hi) {
            const int mid = (lo + hi) >> 1;
            if (colmap[ys + mid] < c) lo = mid + 1; else hi = mid;
        }
        const long row = row_base[p] + i;
        const long start = indptr[row], end = indptr[row + 1];
        partners++;
        if (lo == ny || colmap[ys + lo] != c) {   /* a gap of y in this column */
            float mass = 0.0f;
            for (long e = start; e < end; ++e) mass += vals[e];
            all += clamp(1.0f - mass, 0.0f, 1.0f);
            continue;
        }
        long a = start, b = end;
        while (a < b) {
            const long mid = (a + b) >> 1;
            if (cols[mid] < lo) a = mid + 1; else b = mid;
        }
        const float v = (a < end && cols[a] == lo) ? min(vals[a], 1.0f) : 0.0f;
        both += v;
        all += v;
        pairs++;
    }
    aligned_sum[r] = both;
    aligned_pairs[r] = pairs;
    residue[r] = partners ? all / (float)partners : NAN;
}
