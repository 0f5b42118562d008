/* QuickProbs stage IV: weighted profile posteriors (P_XY) and the gap-free profile DP (Eq. 3).
 *
 * One work-group per profile pair ("node"): X (LX columns) against Y (LY columns).
 *  1. P_XY(a, b) = sum over stored pairs (x in X, y in Y) of w_x * w_y * S_xy(i, j), where
 *     residue i of x sits in column a and residue j of y in column b. Work-item `lid` owns rows
 *     a = lid, lid+WG, ... of P and walks the node's pair list in a fixed order, so there are no
 *     atomics and the sums are the same on every run (determinism).
 *  2. D(a,b) = max(D(a-1,b-1) + P(a,b), D(a-1,b), D(a,b-1)) by anti-diagonals (work-items own
 *     columns), moves kept as bytes, two diagonals of D in `roll`.
 *  3. Work-item 0 traces back from (LX, LY) and writes the moves, reversed:
 *     0 = both columns, 1 = X column against a gap, 2 = Y column against a gap; the count goes
 *     to nmoves[node].
 *
 * node (int8 per node): s0 pair start, s1 pair count, s2 LX, s3 LY, s4 nX (sequences in X).
 * noff (long4 per node): s0 offset of P (floats) in `post`, s1 offset of moves/dirs (bytes) in
 *   `dirs`, s2 offset of rowres (ints), s3 offset of roll (floats) in `roll`.
 * pairs (int4): s0 index of x within X (row of rowres), s1 pair id (S_xy stored rows = x),
 *   s2 y (sequence id), s3 unused. rowres: per node nX x LX residue index of x in column a, or -1.
 * colmap: column of every residue of every sequence in its current profile.
 */

__kernel void align_nodes(__global const int8 *node,
                          __global const long4 *noff,
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
                          __global float *post,
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
    __global float *P = post + of.s0;
    __global const int *rr = rowres + of.s2;

    /* 1. profile posterior */
    for (int a = lid; a < LX; a += lsz) {
        __global float *prow = P + (long)a * LY;
        for (int b = 0; b < LY; ++b) prow[b] = 0.0f;
        for (int t = 0; t < nd.s1; ++t) {
            const int4 pr = pairs[nd.s0 + t];
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
    barrier(CLK_GLOBAL_MEM_FENCE);

    /* 2. gap-free DP over (LX+1) x (LY+1); dirs row-major, D on three rolling diagonals */
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
                best = D[c2 * W + b - 1] + P[(long)(a - 1) * LY + (b - 1)];
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

    /* 3. traceback (serial, length <= LX + LY) */
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
