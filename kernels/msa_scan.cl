/* Inclusive sum of 64-bit integers, in place (stage III's kept-entry offsets).
 *
 * A tile is WG * PER consecutive values, one work-group each. scan_tiles loads its tile into
 * local memory (coalesced), each work-item sums PER consecutive values, the work-group scans
 * those WG partial sums (Hillis-Steele, log2 WG steps), and every value gets its prefix; the
 * tile's total goes to sums[tile]. When there are several tiles the host scans `sums` the same
 * way and add_tiles adds the totals of the tiles before each one. Integer sums: any order gives
 * the same result, so the scan is exact and deterministic.
 *
 * Defines: WG (work-group size, a power of two), PER (values per work-item).
 */

#define TILE (WG * PER)

__kernel void scan_tiles(__global long *a, const long n, __global long *sums)
{
    __local long vals[TILE];
    __local long part[WG];
    const int lid = get_local_id(0);
    const long base = (long)get_group_id(0) * TILE;
    for (int i = 0; i < PER; ++i) {
        const long p = base + i * WG + lid;
        vals[i * WG + lid] = p < n ? a[p] : 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    long acc = 0;
    for (int i = 0; i < PER; ++i) {
        acc += vals[lid * PER + i];
        vals[lid * PER + i] = acc;
    }
    part[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int off = 1; off < WG; off <<= 1) {
        const long v = lid >= off ? part[lid - off] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        part[lid] += v;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const long before = lid ? part[lid - 1] : 0;
    for (int i = 0; i < PER; ++i)
        vals[lid * PER + i] += before;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < PER; ++i) {
        const long p = base + i * WG + lid;
        if (p < n)
            a[p] = vals[i * WG + lid];
    }
    if (lid == WG - 1)
        sums[get_group_id(0)] = part[WG - 1];
}

/* sums: the inclusive scan of the tile totals; tile t > 0 adds sums[t - 1]. */
__kernel void add_tiles(__global long *a, const long n, __global const long *sums)
{
    const long t = get_group_id(0);
    if (t == 0)
        return;
    const long add = sums[t - 1];
    const long base = t * TILE;
    for (int i = 0; i < PER; ++i) {
        const long p = base + i * WG + get_local_id(0);
        if (p < n)
            a[p] += add;
    }
}
