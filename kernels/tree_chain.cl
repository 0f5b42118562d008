/* UPGMA / WPGMA as scipy.cluster.hierarchy.linkage computes them (bioplug/tree/chain.py):
 * scipy's nearest-neighbour chain (`_hierarchy.nn_chain`), whose merge order on tied
 * distances differs from a global-minimum scan, so the trees of matrices with ties (such as
 * scikit-bio's mp100.phy, 70 distinct values) are scipy's only when the chain is followed.
 * Used by bioplug.skbio.upgma, bioplug.tree.upgma and bioplug.skbio.multi_align's guide tree.
 *
 * Every value is scipy's bit for bit: float64 throughout and no fused multiply-adds in the
 * distance updates (scipy rounds each product), and ties are decided on exact equality.
 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

inline long condensed(long n, long i, long j)
{
    if (i > j) { const long x = i; i = j; j = x; }
    return n * i - (i * (i + 1)) / 2 + (j - i - 1);
}

/* The nearest-neighbour candidate of this work-item's stride: smallest distance, smallest
 * index on ties (scipy's scan keeps the first strict minimum). */
void chain_candidates(__global const double *dist, long n, int x,
                      __global const int *size, __local double *lv, __local int *li)
{
    const int t = get_local_id(0), w = get_local_size(0);
    double best = INFINITY;
    int at = (int)n;
    for (int i = t; i < n; i += w) {
        if (size[i] == 0 || i == x) continue;
        const double d = dist[condensed(n, x, i)];
        if (d < best) { best = d; at = i; }
    }
    lv[t] = best;
    li[t] = at;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int h = w / 2; h > 0; h /= 2) {
        if (t < h) {
            const double v = lv[t + h];
            const int k = li[t + h];
            if (v < lv[t] || (v == lv[t] && k < li[t])) { lv[t] = v; li[t] = k; }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* scipy's `_average` ((nx d_xi + ny d_yi) / (nx + ny)) or `_weighted` (0.5 (d_xi + d_yi)). */
inline double merged(double dxi, double dyi, int nx, int ny, int weighted)
{
    if (weighted) return 0.5 * (dxi + dyi);
    return (nx * dxi + ny * dyi) / (nx + ny);
}

/* The chain (the previous chain element wins ties), merges recorded as (x < y, distance,
 * size) in merge order; the host sorts and relabels them as scipy does. One work-group (a
 * power of two); `dist` is the condensed matrix, updated in place. */
__kernel void nn_chain_linkage(__global double *dist, int n, int weighted, __global int *size,
                               __global int *chain, __global double *merges,
                               __local double *lv, __local int *li)
{
    const int t = get_local_id(0), w = get_local_size(0);
    __local int length, x, y, done, nx, ny;
    __local double current;
    for (int i = t; i < n; i += w) size[i] = 1;
    if (t == 0) length = 0;
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < n - 1; ++k) {
        if (length == 0) {  /* restart from the first live cluster */
            li[t] = (int)n;
            for (int i = t; i < n; i += w) if (size[i] > 0) { li[t] = i; break; }
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int h = w / 2; h > 0; h /= 2) {
                if (t < h && li[t + h] < li[t]) li[t] = li[t + h];
                barrier(CLK_LOCAL_MEM_FENCE);
            }
            if (t == 0) { chain[0] = li[0]; length = 1; }
            barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        }
        do {
            const int tip = chain[length - 1];
            chain_candidates(dist, n, tip, size, lv, li);
            if (t == 0) {
                x = tip;
                done = 0;
                if (length > 1) {
                    const int before = chain[length - 2];
                    current = dist[condensed(n, tip, before)];
                    y = before;
                    if (lv[0] < current) { current = lv[0]; y = li[0]; }
                    done = y == before;
                } else {
                    current = lv[0];
                    y = li[0];
                }
                if (!done) chain[length++] = y;
            }
            barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        } while (!done);
        if (t == 0) {
            length -= 2;
            if (x > y) { const int s = x; x = y; y = s; }
            nx = size[x];
            ny = size[y];
            merges[4 * k] = x;
            merges[4 * k + 1] = y;
            merges[4 * k + 2] = current;
            merges[4 * k + 3] = nx + ny;
            size[x] = 0;
            size[y] = nx + ny;
        }
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        for (int i = t; i < n; i += w) {
            if (size[i] == 0 || i == y) continue;
            dist[condensed(n, i, y)] = merged(dist[condensed(n, i, x)],
                                              dist[condensed(n, i, y)], nx, ny, weighted);
        }
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    }
}
