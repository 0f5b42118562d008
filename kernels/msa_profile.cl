/* QuickProbs stage IV: weighted profile posteriors (P_XY) and the gap-free profile DP (Eq. 3).
 *
 * A "node" is one profile pair: X (LX columns) against Y (LY columns).
 *
 * profile_post: one work-group per chunk of a node's pair list. P_XY(a, b) = sum over stored pairs
 *   (x in X, y in Y) of w_x * w_y * S_xy(i, j), where residue i of x sits in column a and
 *   residue j of y in column b. Work-item `lid` owns rows a = lid, lid+WG, ... of the chunk's
 *   partial matrix and walks the chunk's pairs in order: no atomics, and since the partial
 *   matrices are summed in chunk order by align_nodes, the result is the same on every run.
 * align_nodes: one work-group per node.
 *   1. D(a,b) = max(D(a-1,b-1) + P(a,b), D(a-1,b), D(a,b-1)) by anti-diagonals (work-items own
 *      columns), P(a,b) = sum of the node's partial matrices, moves kept as bytes, three
 *      rolling diagonals of D.
 *   2. Work-item 0 traces back from (LX, LY) and writes the moves, in order, after the
 *      direction matrix: 0 = both columns, 1 = X column against a gap, 2 = Y column against a
 *      gap; the count goes to nmoves[node].
 *
 * node (int8 per node): s0 first chunk, s1 chunk count, s2 LX, s3 LY.
 * noff (long4 per node): s0 offset of the node's first partial matrix (floats) in `post`,
 *   s1 offset of dirs+moves (bytes) in `dirs`, s3 offset of the rolling D (floats) in `roll`.
 * chunk (int4 per chunk): s0 node, s1 first pair, s2 pair count, s3 index within the node.
 * pairs (int4): s0 index of x within X (row of rowres), s1 pair id (S_xy, rows = x),
 *   s2 y (sequence id). rowres (per node, at roff[node]): nX x LX residue of x in column a or -1.
 * colmap: column of every residue of every sequence in its current profile.
 */

__kernel void profile_post(__global const int4 *chunk,
                           __global const int8 *node,
                           __global const long4 *noff,
                           __global const long *roff,
                           __global const int4 *pairs,
                           __global const int *rowres,
                           __global const int *colmap,
                           __global const long *seq_start,
                           __global const int *pair_x,
                           __global const long *row_base,
                           __global const long *indptr,
                           __global const int *cols,
                           __global const float *vals,
                           __global const float *weights,
                           __global float *post)
{
    const int4 ch = chunk[get_group_id(0)];
    const int lid = get_local_id(0);
    const int lsz = get_local_size(0);
    const int8 nd = node[ch.s0];
    const int LX = nd.s2, LY = nd.s3;
    __global float *P = post + noff[ch.s0].s0 + (long)ch.s3 * LX * LY;
    __global const int *rr = rowres + roff[ch.s0];
    for (int a = lid; a < LX; a += lsz) {
        __global float *prow = P + (long)a * LY;
        for (int b = 0; b < LY; ++b) prow[b] = 0.0f;
        for (int t = ch.s1; t < ch.s1 + ch.s2; ++t) {
            const int4 pr = pairs[t];
            const int i = rr[(long)pr.s0 * LX + a];
            if (i < 0) continue;
            const int p = pr.s1;
            const float w = weights[pair_x[p]] * weights[pr.s2];
            const long r = row_base[p] + i;
            __global const int *cy = colmap + seq_start[pr.s2];
            for (long q = indptr[r]; q < indptr[r + 1]; ++q)
                prow[cy[cols[q]]] += w * vals[q];
        }
    }
}

__kernel void align_nodes(__global const int8 *node,
                          __global const long4 *noff,
                          __global const float *post,
                          __global uchar *dirs,
                          __global float *roll,
                          __global int *nmoves)
{
    const int g = get_group_id(0);
    const int lid = get_local_id(0);
    const int lsz = get_local_size(0);
    const int8 nd = node[g];
    const long4 of = noff[g];
    const int LX = nd.s2, LY = nd.s3;
    const int nch = nd.s1;
    const long plane = (long)LX * LY;
    __global const float *P = post + of.s0;

    /* 1. gap-free DP over (LX+1) x (LY+1); dirs row-major, D on three rolling diagonals */
    __global uchar *dr = dirs + of.s1;
    __global float *D = roll + of.s3;        /* 3 * (LY + 1) */
    const int W = LY + 1;
    const int ndiag = LX + LY + 1;
    for (int t = 0; t < ndiag; ++t) {
        const int c0 = t % 3, c1 = (t + 2) % 3, c2 = (t + 1) % 3;
        for (int b = lid; b <= LY; b += lsz) {
            const int a = t - b;
            if (a < 0 || a > LX) continue;
            float best = 0.0f;
            uchar mv = 0;
            if (a == 0 && b == 0) {
                mv = 3;
            } else if (a == 0) {
                mv = 2;
            } else if (b == 0) {
                mv = 1;
            } else {
                float pab = 0.0f;
                const long cell = (long)(a - 1) * LY + (b - 1);
                for (int c = 0; c < nch; ++c) pab += P[c * plane + cell];
                best = D[c2 * W + b - 1] + pab;
                const float up = D[c1 * W + b];
                const float left = D[c1 * W + b - 1];
                if (up > best) { best = up; mv = 1; }
                if (left > best) { best = left; mv = 2; }
            }
            D[c0 * W + b] = best;
            dr[(long)a * W + b] = mv;
        }
        barrier(CLK_GLOBAL_MEM_FENCE);
    }

    /* 2. traceback (serial, length <= LX + LY) */
    if (lid == 0) {
        __global uchar *mo = dirs + of.s1 + (long)(LX + 1) * W;
        int a = LX, b = LY, cnt = 0;
        while (a > 0 || b > 0) {
            const uchar mv = dr[(long)a * W + b];
            mo[cnt++] = mv;
            if (mv == 0) { --a; --b; }
            else if (mv == 1) { --a; }
            else { --b; }
        }
        /* reverse in place */
        for (int s = 0; s < cnt / 2; ++s) {
            const uchar tmp = mo[s];
            mo[s] = mo[cnt - 1 - s];
            mo[cnt - 1 - s] = tmp;
        }
        nmoves[g] = cnt;
    }
}
