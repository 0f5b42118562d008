/* Guide-tree distances for big families from the longest common subsequence (LCS), computed
 * bit-parallel (Allison-Dix / Hyyro's recurrence, as FAMSA does on the CPU).
 *
 * For a pattern x of Lx residues and one letter c of the text, with V a bit vector of Lx bits
 * (word w holds positions 64w .. 64w + 63) and Peq[c] the positions of x holding c:
 *     U = V & Peq[c];   V' = (V + U) | (V & ~Peq[c])       (one multi-word add with carry)
 * After the whole text, LCS = number of zero bits among V's first Lx bits. One text letter
 * costs W = ceil(Lx / 64) words of work, against Lx cells for a DP row.
 *
 * Distance from l = LCS(x, y) and the lengths: 1 - l / max(lx, ly). The larger length, as the
 * alignment distances use the larger self-score: a fragment is not at distance 0 from a long
 * chain. (FAMSA's indel / LCS aligned the HomFam dev families worse: SP 82.3 against 83.3 on
 * the 25 of up to 700 sequences.)
 *
 * Kernels:
 *   lcs_peq      Peq bit vectors of every sequence: [sequence][letter][MAXW] words.
 *   lcs_lower    one work-group per tile (row i, columns j0 .. j0 + WG - 1, j < i): the
 *                packed lower triangle d[i * (i - 1) / 2 + j] (pattern = row i, in local memory).
 *   prim_step    one step of Prim's minimum spanning tree without a matrix (single linkage for
 *                families too big for one): every work-group first reduces the previous step's
 *                per-group minima to the vertex u joining the tree, then computes d(u, j) for its
 *                own vertices j outside the tree, keeps the smallest distance to the tree per
 *                vertex, and writes its own minimum (ties: smaller index) for the next step.
 *
 * Defines: A (letters), MAXW (64-bit words of the longest pattern), WG, PEQ_LOCAL (1: the
 * pattern's Peq words are copied to local memory; 0: read from global memory, for patterns too
 * long for it).
 */

/* Whole unrolling keeps V in registers for families of short sequences; for long ones (a
 * private array spilled anyway) it would only bloat the program. */
#if MAXW <= 16
#define UNROLL_WORDS _Pragma("unroll")
#else
#define UNROLL_WORDS
#endif

#if PEQ_LOCAL
#define PEQ_SPACE __local
#else
#define PEQ_SPACE __global
#endif

#define INF_DIST 3.0e38f

inline float lcs_distance(int l, int lx, int ly)
{
    int m = max(max(lx, ly), 1);
    return 1.0f - (float)l / (float)m;
}

/* LCS of the pattern whose Peq words are in P (A * MAXW words, W used) and text t[0..lt). */
inline int lcs_length(PEQ_SPACE const ulong *P, int lx, __global const uchar *t, int lt)
{
    int W = (lx + 63) >> 6;
    ulong V[MAXW];
UNROLL_WORDS
    for (int w = 0; w < MAXW; w++)
        V[w] = ~0UL;
    for (int p = 0; p < lt; p++) {
        PEQ_SPACE const ulong *M = P + (int)t[p] * MAXW;
        ulong carry = 0;
UNROLL_WORDS
        for (int w = 0; w < MAXW; w++) {
            if (w < W) {
                ulong v = V[w], m = M[w];
                ulong u = v & m;
                ulong s = v + u;
                ulong c = s < v;
                s += carry;
                c |= s < carry;
                V[w] = s | (v & ~m);
                carry = c;
            }
        }
    }
    int zeros = 0;
UNROLL_WORDS
    for (int w = 0; w < MAXW; w++) {
        if (w < W) {
            int bits = min(64, lx - 64 * w);
            ulong keep = bits == 64 ? ~0UL : ((1UL << bits) - 1UL);
            zeros += bits - (int)popcount(V[w] & keep);
        }
    }
    return zeros;
}

__kernel void lcs_peq(__global const uchar *codes, __global const long *start,
                      __global const int *len, __global ulong *peq, int n)
{
    long g = get_global_id(0);
    if (g >= (long)n * MAXW)
        return;
    int s = (int)(g / MAXW), w = (int)(g % MAXW);
    ulong m[A];
    for (int a = 0; a < A; a++)
        m[a] = 0;
    int lo = 64 * w, hi = min(len[s], lo + 64);
    __global const uchar *x = codes + start[s];
    for (int p = lo; p < hi; p++)
        m[x[p]] |= 1UL << (p - lo);
    for (int a = 0; a < A; a++)
        peq[((long)s * A + a) * MAXW + w] = m[a];
}

#if PEQ_LOCAL
#define PATTERN(name) __local ulong name[A * MAXW]
inline __local const ulong *load_pattern(__local ulong *P, __global const ulong *peq, int i)
{
    for (int q = get_local_id(0); q < A * MAXW; q += WG)
        P[q] = peq[(long)i * A * MAXW + q];
    barrier(CLK_LOCAL_MEM_FENCE);
    return P;
}
#else
#define PATTERN(name) int name = 0
inline __global const ulong *load_pattern(int unused, __global const ulong *peq, int i)
{
    return peq + (long)i * A * MAXW;
}
#endif

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void lcs_lower(__global const int2 *tiles, __global const uchar *codes,
               __global const long *start, __global const int *len,
               __global const ulong *peq, __global float *out)
{
    PATTERN(buffer);
    int2 tile = tiles[get_group_id(0)];
    int i = tile.x, j = tile.y + (int)get_local_id(0);
    PEQ_SPACE const ulong *P = load_pattern(buffer, peq, i);
    if (j >= i)
        return;
    int li = len[i], lj = len[j];
    int l = lcs_length(P, li, codes + start[j], lj);
    out[(long)i * (i - 1) / 2 + j] = lcs_distance(l, li, lj);
}

/* Reduce (value, index) pairs in local memory to slot 0; ties go to the smaller index. */
inline void argmin_local(__local float *val, __local int *idx)
{
    int t = get_local_id(0);
    for (int s = WG / 2; s > 0; s >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t < s) {
            float v2 = val[t + s];
            int i2 = idx[t + s];
            if (v2 < val[t] || (v2 == val[t] && i2 < idx[t])) {
                val[t] = v2;
                idx[t] = i2;
            }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* in_val/in_idx: the previous step's per-group minima (ngroups entries); out_*: this step's.
 * best/parent/done: per vertex; when every vertex has joined, (parent[v], v, best[v]) for
 * v != root are the tree's edges (parent[root] = -1). */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void prim_step(__global const float *in_val, __global const int *in_idx,
               __global float *out_val, __global int *out_idx, int ngroups,
               __global const uchar *codes, __global const long *start,
               __global const int *len, __global const ulong *peq,
               __global float *best, __global int *parent, __global uchar *done, int n)
{
    PATTERN(buffer);
    __local float val[WG];
    __local int idx[WG];
    int t = get_local_id(0);
    int j = get_group_id(0) * WG + t;
    /* 1. the vertex joining the tree: the smallest of the previous step's group minima
     *    (every group reduces them itself: no extra launch, no host round trip) */
    float v = INF_DIST;
    int vi = 0x7fffffff;
    for (int g = t; g < ngroups; g += WG) {
        float v2 = in_val[g];
        int i2 = in_idx[g];
        if (i2 >= 0 && (v2 < v || (v2 == v && i2 < vi))) {
            v = v2;
            vi = i2;
        }
    }
    val[t] = v;
    idx[t] = vi;
    argmin_local(val, idx);
    int u = idx[0];
    if (u >= n) {  /* every vertex is in the tree */
        if (t == 0) {
            out_val[get_group_id(0)] = INF_DIST;
            out_idx[get_group_id(0)] = -1;
        }
        return;
    }
    if (j == u)
        done[u] = 1;
    /* 2. distances from u to this group's vertices outside the tree */
    PEQ_SPACE const ulong *P = load_pattern(buffer, peq, u);
    float mine = INF_DIST;
    int candidate = -1;
    if (j < n && j != u && !done[j]) {
        int l = lcs_length(P, len[u], codes + start[j], len[j]);
        float d = lcs_distance(l, len[u], len[j]);
        float b = best[j];
        if (d < b) {
            b = d;
            best[j] = d;
            parent[j] = u;
        }
        mine = b;
        candidate = j;
    }
    /* 3. this group's vertex nearest to the tree, for the next step */
    val[t] = mine;
    idx[t] = candidate < 0 ? 0x7fffffff : candidate;
    argmin_local(val, idx);
    if (t == 0) {
        out_val[get_group_id(0)] = val[0];
        out_idx[get_group_id(0)] = idx[0] == 0x7fffffff ? -1 : idx[0];
    }
}
