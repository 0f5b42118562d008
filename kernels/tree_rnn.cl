/* UPGMA by rounds of reciprocal nearest neighbours, on a packed lower triangle.
 *
 * Average linkage is reducible: merging two clusters never brings a third one closer than the
 * nearer of the two was. So every pair of reciprocal nearest neighbours (RNN) can be merged at
 * once, and a cluster whose nearest neighbour was not merged keeps it. A round: the host finds
 * the RNN pairs from the nearest-neighbour table, `merge` writes every merged cluster's new
 * distances (size-weighted means), and `nearest` rescans only the rows that need it (the merged
 * clusters and those whose nearest neighbour was merged). Total work is about one scan of the
 * matrix plus the rows touched; the rounds are few (a share of the clusters merges in each).
 *
 * D(i, j) for i != j is cell max * (max - 1) / 2 + min of the packed triangle.
 * Ties: among equal distances row x takes the j with the smallest j XOR x. The tied pair with
 * the smallest XOR is then always reciprocal, and a group of m identical sequences pairs off
 * in halves (log2 m rounds; "smallest index" would merge one pair a round). A row for which
 * a merged cluster is now as near as its neighbour is flagged and rescanned, so the choice
 * stays this rule's.
 */

inline int prefer(float d, int j, float best, int arg, int x)
{
    return d < best || (d == best && (j ^ x) < (arg ^ x));
}

inline long cell(int i, int j)
{
    int hi = max(i, j), lo = min(i, j);
    return (long)hi * (hi - 1) / 2 + lo;
}

/* One work-group per row of `rows`: its nearest live cluster. */
__kernel void nearest(__global const int *rows, __global const int *live, int nlive,
                      __global const float *D, __global int *nn, __global float *nd,
                      __local float *val, __local int *idx)
{
    int x = rows[get_group_id(0)];
    int t = get_local_id(0), wg = get_local_size(0);
    float best = INFINITY;
    int arg = 0x7fffffff;
    for (int q = t; q < nlive; q += wg) {
        int j = live[q];
        if (j == x)
            continue;
        float d = D[cell(x, j)];
        if (prefer(d, j, best, arg, x)) {
            best = d;
            arg = j;
        }
    }
    val[t] = best;
    idx[t] = arg;
    for (int s = wg / 2; s > 0; s >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t < s) {
            float v2 = val[t + s];
            int i2 = idx[t + s];
            if (prefer(v2, i2, val[t], idx[t], x)) {
                val[t] = v2;
                idx[t] = i2;
            }
        }
    }
    if (t == 0) {
        nn[x] = idx[0] == 0x7fffffff ? -1 : idx[0];
        nd[x] = val[0];
    }
}

/* Work-item (q, p0): merged pairs p = p0, p0 + global size 1, ... (a[p] keeps the cluster,
 * b[p] dies) against live[q]; the second dimension stays small (NVIDIA caps it at 65,535).
 * mate[x]: for a cluster merged this round, the other cluster of its pair (-1 otherwise);
 * keeper[x]: 1 when x keeps its pair's cluster. size: sizes before the round.
 * nd: each row's nearest distance; stale[x] = 1 when the new cluster is as near as that. */
__kernel void merge(__global const int *pa, __global const int *pb, int npairs,
                    __global const int *live, int nlive, __global const int *mate,
                    __global const uchar *keeper, __global const float *size,
                    __global float *D, __global const float *nd, __global uchar *stale)
{
    int q = get_global_id(0);
    if (q >= nlive)
        return;
    int x = live[q];
    int y = mate[x];
    for (int p = get_global_id(1); p < npairs; p += get_global_size(1)) {
        int a = pa[p], b = pb[p];
        if (x == a || x == b)
            continue;
        float na = size[a], nb = size[b];
        if (y < 0) {
            /* x not merged this round: the mean of its distances to a and b */
            float d = (na * D[cell(a, x)] + nb * D[cell(b, x)]) / (na + nb);
            D[cell(a, x)] = d;
            if (d <= nd[x])
                stale[x] = 1;
        } else if (keeper[x] && a < x) {
            /* both merged: the pair with the smaller keeper writes the mean of the four */
            float nx = size[x], ny = size[y];
            float s = na * nx * D[cell(a, x)] + na * ny * D[cell(a, y)]
                    + nb * nx * D[cell(b, x)] + nb * ny * D[cell(b, y)];
            D[cell(a, x)] = s / ((na + nb) * (nx + ny));
        }
    }
}
