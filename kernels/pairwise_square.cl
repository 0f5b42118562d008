/* All-vs-all scores: the scan's triangle (rank order) spread into the symmetric square in input
 * order, as Biopython's float scores.
 *
 * Scanner.score_triangle's block holds score(a, b) at ranked[a * n + b] for ranks a <= b (the
 * sequences longest first; entries below the diagonal are never written). Entry (i, j) of the
 * square, i and j in input order, is that score for ranks where[i], where[j] in either order,
 * divided by the scoring's scale. IEEE division is correctly rounded in OpenCL's double as in
 * numpy, so the values equal Scoring.unscale's bit for bit. Doing this on the device saves
 * the host four passes over n^2 entries (triangle, unscale, mirror, two permutations), which
 * took longer than the scan kernel itself for 2,000 proteins on an H100.
 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void square_from_ranked(__global const int *ranked, const int n,
                                 __global const int *where, const double scale,
                                 __global double *square)
{
    const size_t k = get_global_id(0);
    if (k >= (size_t)n * (size_t)n)
        return;
    const int i = (int)(k / (size_t)n), j = (int)(k % (size_t)n);
    const int a = where[i], b = where[j];
    const size_t at = a <= b ? (size_t)a * n + b : (size_t)b * n + a;
    square[k] = (double)ranked[at] / scale;
}
