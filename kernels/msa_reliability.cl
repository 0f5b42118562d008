/* Reliability of a multiple alignment's columns and residues, from the posteriors stage IV
 * aligned (ProbCons' and QuickProbs' annotation).
 *
 * For every stored pair (x, y) (both orientations are stored) and every residue i of x, the
 * residue j of y that the alignment puts in i's column is found (y's columns increase along
 * y: a binary search in y's part of colmap), and the relaxed posterior S_xy(i, j) (0 when
 * the sparse row has no entry for j: a binary search in the row's sorted columns) is added
 * to the column's sum and to residue i's: a column's reliability is the mean posterior of
 * the pairs of residues it aligns. Where y has a gap in the column, residue i's sum gets the
 * posterior that i pairs with none of y's residues (1 - the row's sum), the column's nothing:
 * a residue's reliability is the mean, over the other sequences, of the posterior of what
 * the alignment does with it.
 *
 * One work-group per stored pair, its work-items over x's residues. The sums are fixed point
 * (posterior * 2^32, a posterior is at most 1) added with 64-bit atomics, so they do not
 * depend on the order the work-items run in; the pair counts are 32-bit atomics.
 */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

#define FIXED_ONE 4294967296.0f

__kernel void reliability(__global const int *pair_x, __global const int *pair_y,
                          __global const long *row_base, __global const long *indptr,
                          __global const int *cols, __global const float *vals,
                          __global const long *seq_start, __global const int *colmap,
                          __global ulong *col_sum, __global uint *col_pairs,
                          __global ulong *res_sum, __global uint *res_pairs)
{
    const int p = get_group_id(0);
    const int x = pair_x[p], y = pair_y[p];
    const long rb = row_base[p];
    const int n = (int)(row_base[p + 1] - rb);
    const long xs = seq_start[x], ys = seq_start[y];
    const int ny = (int)(seq_start[y + 1] - ys);
    for (int i = get_local_id(0); i < n; i += get_local_size(0)) {
        const int c = colmap[xs + i];
        int lo = 0, hi = ny;
        while (lo < hi) {
            const int mid = (lo + hi) >> 1;
            if (colmap[ys + mid] < c) lo = mid + 1; else hi = mid;
        }
        const long end = indptr[rb + i + 1];
        if (lo == ny || colmap[ys + lo] != c) {   /* a gap of y in this column */
            float mass = 0.0f;
            for (long e = indptr[rb + i]; e < end; ++e) mass += vals[e];
            atom_add(&res_sum[xs + i], (ulong)(clamp(1.0f - mass, 0.0f, 1.0f) * FIXED_ONE));
            atomic_inc(&res_pairs[xs + i]);
            continue;
        }
        long a = indptr[rb + i], b = end;
        while (a < b) {
            const long mid = (a + b) >> 1;
            if (cols[mid] < lo) a = mid + 1; else b = mid;
        }
        const float v = (a < end && cols[a] == lo) ? min(vals[a], 1.0f) : 0.0f;
        const ulong fixed = (ulong)(v * FIXED_ONE);
        atom_add(&col_sum[c], fixed);
        atomic_inc(&col_pairs[c]);
        atom_add(&res_sum[xs + i], fixed);
        atomic_inc(&res_pairs[xs + i]);
    }
}
