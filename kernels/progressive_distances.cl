/* Guide-tree distances of all pairs from local alignment scores, made where the scores are.
 *
 * The pairwise engine scores the pairs of the sequences ranked longest first, row by row:
 * pair (a, b), a <= b in ranks, is number row_start[a] + (b - a), and (a, a) holds a's
 * self-score. This kernel turns that triangle into the packed strict lower triangle of
 * distances in input order that UPGMA reads (d[i * (i - 1) / 2 + j], j < i), so the k x k
 * scores never go through the host:
 *     d(i, j) = 1 - s(i, j) / max(s(i, i), s(j, j), 1), clipped to [0, 1]
 * The quotient is taken in double and rounded to float once, as numpy does it on the host
 * (bioplug.progressive.guide.similarity_distances): the same bits either way.
 *
 * similarity_pack: work-item (j, i) of an (n, n) range writes pair i > j (the rest return).
 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void similarity_pack(__global const double *tri, __global const long *row_start,
                              __global const int *inv_rank, int n, __global float *out)
{
    const int j = get_global_id(0), i = get_global_id(1);
    if (i >= n || j >= i)
        return;
    const int ri = inv_rank[i], rj = inv_rank[j];
    const int a = min(ri, rj), b = max(ri, rj);
    const float self = fmax(fmax((float)tri[row_start[ri]], 1.0f),
                            fmax((float)tri[row_start[rj]], 1.0f));
    const float q = (float)(tri[row_start[a] + (b - a)] / (double)self);
    out[(long)i * (i - 1) / 2 + j] = clamp(1.0f - q, 0.0f, 1.0f);
}
