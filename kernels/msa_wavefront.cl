/* QuickProbs stage IV over the whole device (issue 19 §1): the profile posterior built one
 * work-item per row, the gap-free profile DP (Eq. 3) as a tiled wavefront over many
 * work-groups, and a traceback that walks the direction matrix one tile at a time.
 *
 * Results are bit-identical to msa_profile.cl (profile_post + align_nodes), which keeps the
 * one-work-group-per-pair path: every cell performs the same floating-point operations in the
 * same order, only the schedule differs.
 *
 * A "node" is one profile pair: X (LX columns) against Y (LY columns).
 * node (int8): s0 LX, s1 LY, s2 chunk count nch, s3 first entry of the node's chunk bounds
 *   in `bounds` (nch + 1 pair indices into `pairs`), s4 row tiles, s5 column tiles.
 * noff (long8): s0 P (floats, LX x LY), s1 S scratch (floats, LX x LY; used when nch > 1),
 *   s2 dirs (bytes, (LX + 1) x (LY + 1)), s3 rowres (ints, nX x LX), s4 hface (floats,
 *   row tiles x (LY + 1)), s5 vface (floats, column tiles x (LX + 1)), s6 moves (bytes,
 *   LX + LY).
 * pairs (int4), rowres, colmap, the sparse store and the weights: as in msa_profile.cl.
 *
 * post_rows: work-item per (node, row a). P(a, b) = sum over chunks c, in order, of the chunk's
 *   partial sum, itself summed over the chunk's pairs in order (profile_post's partial
 *   matrices, summed in chunk order by align_nodes). The row owner accumulates chunk c in its
 *   row of S (zero), then adds each touched S cell into P and zeroes it again: a cell no pair
 *   of chunk c touches would get + 0.0f, which changes nothing (every value is >= 0), so the
 *   sums equal align_nodes' while touching only stored entries, never whole rows. With one
 *   chunk P is accumulated directly (0 + x = x). P and S start zeroed (fills).
 * fill_tiles: one work-group (TILE work-items) per TILE x TILE tile of cells (a, b), a >= 1,
 *   b >= 1; launched once per tile diagonal ti + tj (global offset: the diagonal's first entry
 *   of `tiles`, times TILE), so no work-group waits for another. Work-item j owns column b0 + j and sweeps
 *   the tile's local anti-diagonals: D(a, b - 1) of column j - 1 comes through local memory
 *   (double-buffered, one barrier a step), D(a - 1, b) is the work-item's own last value and
 *   D(a - 1, b - 1) the left value it read one row earlier. The tile's P block is read into
 *   local memory first and its moves written out row by row (coalesced). Faces through global
 *   memory: hface[ti][b] = D(last row of tile row ti, b), vface[tj][a] = D(a, last column of
 *   tile column tj); row 0 and column 0 of D are 0.
 * trace_tiles: one work-group per node. From (LX, LY) the path goes up and left; the tile
 *   holding the current cell is read into local memory (coalesced) and work-item 0 follows
 *   the moves until the path leaves it; at row 0 only Y columns remain (move 2), at column 0
 *   only X columns (move 1), as align_nodes' boundary moves say. Moves are then reversed in
 *   place (in parallel) and the count written to nmoves[node].
 *
 * Define: TILE (work-group size of fill_tiles and trace_tiles, tile side).
 */

__kernel void post_rows(__global const int2 *groups,
                        __global const int8 *node,
                        __global const long8 *noff,
                        __global const int *bounds,
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
                        __global float *scratch)
{
    const int2 gr = groups[get_group_id(0)];
    const int a = gr.s1 + get_local_id(0);
    const int8 nd = node[gr.s0];
    const long8 of = noff[gr.s0];
    const int LX = nd.s0, LY = nd.s1, nch = nd.s2;
    if (a >= LX) return;
    __global float *prow = post + of.s0 + (long)a * LY;
    __global float *srow = scratch + of.s1 + (long)a * LY;
    __global const int *rr = rowres + of.s3;
    __global const int *cb = bounds + nd.s3;
    for (int c = 0; c < nch; ++c) {
        __global float *acc = (nch == 1) ? prow : srow;
        for (int t = cb[c]; t < cb[c + 1]; ++t) {
            const int4 pr = pairs[t];
            const int i = rr[(long)pr.s0 * LX + a];
            if (i < 0) continue;
            const int p = pr.s1;
            const float w = weights[pair_x[p]] * weights[pr.s2];
            const long r = row_base[p] + i;
            __global const int *cy = colmap + seq_start[pr.s2];
            for (long q = indptr[r]; q < indptr[r + 1]; ++q)
                acc[cy[cols[q]]] += w * vals[q];
        }
        if (nch == 1) break;
        /* fold the chunk's partial sums into P, in chunk order, and clear them */
        for (int t = cb[c]; t < cb[c + 1]; ++t) {
            const int4 pr = pairs[t];
            const int i = rr[(long)pr.s0 * LX + a];
            if (i < 0) continue;
            const long r = row_base[pr.s1] + i;
            __global const int *cy = colmap + seq_start[pr.s2];
            for (long q = indptr[r]; q < indptr[r + 1]; ++q) {
                const int b = cy[cols[q]];
                const float v = srow[b];
                if (v != 0.0f) {
                    prow[b] += v;
                    srow[b] = 0.0f;
                }
            }
        }
    }
}

__kernel void fill_tiles(__global const int4 *tiles,
                         __global const int8 *node,
                         __global const long8 *noff,
                         __global const float *post,
                         __global uchar *dirs,
                         __global float *hface,
                         __global float *vface)
{
    __local float pt[TILE * TILE];
    __local uchar dt[TILE * TILE];
    __local float top[TILE + 1];
    __local float lft[TILE];
    __local float lv[2][TILE];
    /* the launch's global offset is the diagonal's first tile (times TILE): no argument
     * changes between launches */
    const int4 tl = tiles[get_global_offset(0) / TILE + get_group_id(0)];
    const int j = get_local_id(0);
    const int8 nd = node[tl.s0];
    const long8 of = noff[tl.s0];
    const int LX = nd.s0, LY = nd.s1;
    const int ti = tl.s1, tj = tl.s2;
    const int a0 = 1 + ti * TILE, b0 = 1 + tj * TILE;
    const int rows = min(TILE, LX - a0 + 1), ncols = min(TILE, LY - b0 + 1);
    const int W = LY + 1;
    __global const float *P = post + of.s0;
    __global float *H = hface + of.s4;
    __global float *V = vface + of.s5;

    for (int r = 0; r < rows; ++r)
        if (j < ncols) pt[r * TILE + j] = P[(long)(a0 - 1 + r) * LY + (b0 - 1 + j)];
    for (int c = j; c <= ncols; c += TILE) {
        const int b = b0 - 1 + c;
        top[c] = (ti == 0 || b == 0) ? 0.0f : H[(long)(ti - 1) * W + b];
    }
    if (j < rows) lft[j] = (tj == 0) ? 0.0f : V[(long)(tj - 1) * (LX + 1) + a0 + j];
    barrier(CLK_LOCAL_MEM_FENCE);

    float own = 0.0f, prev_left = 0.0f;
    for (int s = 0; s < rows + ncols - 1; ++s) {
        const int r = s - j;
        if (j < ncols && r >= 0 && r < rows) {
            const float diag = (r == 0) ? top[j] : prev_left;
            const float up = (r == 0) ? top[j + 1] : own;
            const float left = (j == 0) ? lft[r] : lv[(s - 1) & 1][j - 1];
            /* align_nodes' cell, operation for operation */
            float best = diag + pt[r * TILE + j];
            uchar mv = 0;
            if (up > best) { best = up; mv = 1; }
            if (left > best) { best = left; mv = 2; }
            own = best;
            prev_left = left;
            lv[s & 1][j] = best;
            dt[r * TILE + j] = mv;
            if (r == rows - 1) H[(long)ti * W + b0 + j] = best;
            if (j == ncols - 1) V[(long)tj * (LX + 1) + a0 + r] = best;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    __global uchar *dr = dirs + of.s2;
    for (int r = 0; r < rows; ++r)
        if (j < ncols) dr[(long)(a0 + r) * W + b0 + j] = dt[r * TILE + j];
}

__kernel void trace_tiles(__global const int8 *node,
                          __global const long8 *noff,
                          __global const uchar *dirs,
                          __global uchar *moves,
                          __global int *nmoves)
{
    __local uchar dt[TILE * TILE];
    __local int pos[3];
    const int g = get_group_id(0);
    const int lid = get_local_id(0);
    const int lsz = get_local_size(0);
    const int8 nd = node[g];
    const long8 of = noff[g];
    const int LX = nd.s0, LY = nd.s1;
    const int W = LY + 1;
    __global const uchar *dr = dirs + of.s2;
    __global uchar *mo = moves + of.s6;
    int a = LX, b = LY, cnt = 0;
    while (a > 0 && b > 0) {  /* a, b, cnt are the same in every work-item here */
        const int a0 = 1 + ((a - 1) / TILE) * TILE, b0 = 1 + ((b - 1) / TILE) * TILE;
        const int w = b - b0 + 1;
        for (int r = 0; r <= a - a0; ++r)
            for (int c = lid; c < w; c += lsz) dt[r * TILE + c] = dr[(long)(a0 + r) * W + b0 + c];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0) {
            while (a >= a0 && b >= b0) {
                const uchar mv = dt[(a - a0) * TILE + (b - b0)];
                mo[cnt++] = mv;
                if (mv == 0) { --a; --b; }
                else if (mv == 1) { --a; }
                else { --b; }
            }
            pos[0] = a;
            pos[1] = b;
            pos[2] = cnt;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        a = pos[0];
        b = pos[1];
        cnt = pos[2];
        barrier(CLK_LOCAL_MEM_FENCE);  /* dt and pos are rewritten next round */
    }
    if (lid == 0) {
        for (; a > 0; --a) mo[cnt++] = 1;
        for (; b > 0; --b) mo[cnt++] = 2;
        pos[2] = cnt;
        nmoves[g] = cnt;
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    cnt = pos[2];
    for (int s = lid; s < cnt / 2; s += lsz) {
        const uchar tmp = mo[s];
        mo[s] = mo[cnt - 1 - s];
        mo[cnt - 1 - s] = tmp;
    }
}
