/* Task tables made on the device, so that no upload waits behind a busy device.
 *
 * all_vs_all_tasks: pairs number a .. a + count - 1 of the all-vs-all numbering, row by row
 * over the pairs (i, j >= i) of the sequences sorted longest first: row_start[i] is the
 * number of the pair (i, i) (row_start[n] = all pairs). tasks[g] = (offset of A, nA,
 * offset of B, nB) as the fill kernels read them.
 */
__kernel void all_vs_all_tasks(__global const long *row_start, const int n, const long a,
                               const int count, __global const int *offsets,
                               __global const int *lengths, __global int4 *tasks)
{
    const int g = get_global_id(0);
    if (g >= count) return;
    const long x = a + g;
    int lo = 0, hi = n; /* row_start[lo] <= x < row_start[hi] */
    while (hi - lo > 1) {
        const int mid = (lo + hi) / 2;
        if (row_start[mid] <= x) lo = mid; else hi = mid;
    }
    const int j = lo + (int)(x - row_start[lo]);
    tasks[g] = (int4)(offsets[lo], lengths[lo], offsets[j], lengths[j]);
}
