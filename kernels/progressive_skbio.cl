/* scikit-bio 0.7.4's multi_align on the device (bioplug/progressive/skbio_method.py).
 *
 * Every value here must be the one scikit-bio computes, bit for bit: its traceback decides
 * moves by comparing DP values within `atol`, its stop picks the first maximum, and its
 * guide tree (scipy's nearest-neighbour chain, kernels/tree_chain.cl) breaks ties on exact
 * float64 equality. So:
 * - the DP runs in scikit-bio's own precision (`real`: float32 for match/mismatch scores
 *   and its matrices, float64 when the caller's matrix is float64) with its operation order
 *   ((a - b) - c, never a pre-summed constant);
 * - nothing is contracted into fused multiply-adds (numpy and scipy round every product);
 * - distance sums and profile scores are formed in float64, where they are exact for the
 *   integer (or dyadic) scores scikit-bio's matrices hold, so summation order cannot matter.
 *
 * DP task layout (`tasks`, TASK_FIELDS longs per task):
 *   0 m, 1 n             query (rows) and target (columns) lengths
 *   2 a                  sequences: offset of the query's codes; profiles: offset of the
 *                        task's m x n score matrix in `smat`
 *   3 b                  sequences: offset of the target's codes
 *   4 dirs               offset of the task's m x n decision bytes
 *   5 path               offset of the task's m + n path bytes (filled from the end)
 *   6 scratch            offset of 3 (n + 1) + (m + 1) reals: row P, row D, last row, last
 *                        column of the primary matrix
 * Decision byte of cell (i, j), i, j >= 1, the comparisons scikit-bio's `_trace_one_*`
 * make there (so the traceback needs no DP values):
 *   linear: bit 0 |P[i-1,j] - g - P[i,j]| <= eps (deletion), bit 1 |P[i,j-1] - g - P[i,j]|
 *   <= eps (insertion); affine: bit 0 |D - P| <= eps (jump to D), bit 1 |I - P| <= eps
 *   (jump to I), bit 2 D stays (not |D[i-1,j] - e - D| > eps), bit 3 I stays.
 * Path codes are scikit-bio's: 0 both advance, 1 gap in the query (insertion), 2 gap in
 * the target (deletion). Per task the kernel writes the score (float64) and
 * `stats` = (path start within the task's slot, length, gap runs, gap positions), gap runs
 * leaving out the first and last run when ends are free (as `_score_dists` counts them).
 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
#include "real.h"

#define TASK_FIELDS 7

inline real rmax(real a, real b) { return a > b ? a : b; }

/* P[k, 0] and P[0, k]: scikit-bio's `_init_matrices` series (k * -e) - o, or 0 when free. */
inline real edge_value(int k, int free_ends, real gap_o, real gap_e)
{
    if (k == 0 || free_ends) return (real)0;
    return (real)k * (-gap_e) - gap_o;
}

inline real cell_score(int profiles, int i, int j, int n, __global const int *codes,
                       long a, long b, __global const real *sub, int alpha,
                       __global const real *smat)
{
    if (profiles) return smat[a + (long)i * n + j];
    return sub[(long)codes[a + i] * alpha + codes[b + j]];
}

/* Fill one task's matrices strip by strip: work-item t owns row base + t + 1 of a strip and
 * reaches column j at step j + t - 1 (skewed wavefront). Neighbours' values pass through
 * local memory, double-buffered by step parity so one barrier per step suffices; the
 * strip's last row goes through `rowp` / `rowd` in global memory to the next strip. */
void fill_task(int profiles, int m, int n, long a, long b, __global const int *codes,
               __global const real *sub, int alpha, __global const real *smat,
               real gap_o, real gap_e, real eps, int affine, int free_ends,
               __global uchar *dirs, __global real *rowp, __global real *rowd,
               __global real *lastrow, __global real *lastcol,
               __local real *lp, __local real *ld)
{
    const int t = get_local_id(0), w = get_local_size(0);
    const real gap_oe = gap_o + gap_e;
    const real g = gap_e;  /* linear model: gap_o is 0 */
    for (int j = t; j <= n; j += w) {
        rowp[j] = edge_value(j, free_ends, gap_o, gap_e);
        rowd[j] = -INFINITY;
    }
    if (t == 0) {
        lastcol[0] = edge_value(n, free_ends, gap_o, gap_e);
        lastrow[0] = edge_value(m, free_ends, gap_o, gap_e);
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    for (int base = 0; base < m; base += w) {
        const int i = base + t + 1;
        const int live = i <= m;
        real diag = edge_value(i - 1, free_ends, gap_o, gap_e);
        real left_p = edge_value(i, free_ends, gap_o, gap_e);
        real left_i = -INFINITY;
        for (int s = 0; s < n + w - 1; ++s) {
            const int j = s - t + 1;
            const int cur = (s & 1) * w, prev = w - cur;
            if (live && j >= 1 && j <= n) {
                const real up_p = t == 0 ? rowp[j] : lp[prev + t - 1];
                const real up_d = t == 0 ? rowd[j] : ld[prev + t - 1];
                const real sub_ = diag + cell_score(profiles, i - 1, j - 1, n, codes, a, b,
                                                    sub, alpha, smat);
                real p, ins = -INFINITY, del = -INFINITY;
                uchar bits = 0;
                if (affine) {
                    ins = rmax(left_p - gap_oe, left_i - gap_e);
                    del = rmax(up_p - gap_oe, up_d - gap_e);
                    p = rmax(rmax(sub_, ins), del);
                    bits = (fabs(del - p) <= eps ? 1 : 0) | (fabs(ins - p) <= eps ? 2 : 0)
                         | (fabs(up_d - gap_e - del) > eps ? 0 : 4)
                         | (fabs(left_i - gap_e - ins) > eps ? 0 : 8);
                } else {
                    p = rmax(rmax(sub_, left_p - g), up_p - g);
                    bits = (fabs(up_p - g - p) <= eps ? 1 : 0)
                         | (fabs(left_p - g - p) <= eps ? 2 : 0);
                }
                dirs[(long)(i - 1) * n + (j - 1)] = bits;
                lp[cur + t] = p;
                ld[cur + t] = del;
                if (t == w - 1) { rowp[j] = p; rowd[j] = del; }
                if (j == n) lastcol[i] = p;
                if (i == m) lastrow[j] = p;
                diag = up_p;
                left_p = p;
                left_i = ins;
            }
            barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        }
    }
}

/* `_one_stop`: the first maximum of the last column (rows 0..m-1) against the first
 * maximum of the last row; the column wins ties. Without free ends, the corner. */
int2 stop_cell(int m, int n, int free_ends, __global const real *lastrow,
               __global const real *lastcol)
{
    if (!free_ends) return (int2)(m, n);
    int bi = 0, bj = 0;
    for (int i = 1; i < m; ++i) if (lastcol[i] > lastcol[bi]) bi = i;
    for (int j = 1; j <= n; ++j) if (lastrow[j] > lastrow[bj]) bj = j;
    return lastcol[bi] >= lastrow[bj] ? (int2)(bi, n) : (int2)(m, bj);
}

/* `_trailing_gaps`, `_trace_one_linear` / `_trace_one_affine`, `_leading_gaps`: the path
 * is written backwards from the slot's end; returns its start. */
int trace_task(int m, int n, int2 stop, int affine, __global const uchar *dirs,
               __global uchar *path)
{
    int pos = m + n, i = stop.x, j = stop.y;
    if (i == m && j < n) { for (int k = j; k < n; ++k) path[--pos] = 1; }
    else if (j == n && i < m) { for (int k = i; k < m; ++k) path[--pos] = 2; }
    int mat = 0;
    while (i && j) {
        const uchar bits = dirs[(long)(i - 1) * n + (j - 1)];
        if (affine && mat == 2) {
            if (!(bits & 4)) mat = 0;
            --i; path[--pos] = 2;
        } else if (affine && mat == 1) {
            if (!(bits & 8)) mat = 0;
            --j; path[--pos] = 1;
        } else if (bits & 1) {
            if (affine) mat = 2; else { --i; path[--pos] = 2; }
        } else if (bits & 2) {
            if (affine) mat = 1; else { --j; path[--pos] = 1; }
        } else {
            --i; --j; path[--pos] = 0;
        }
    }
    if (i == 0 && j > 0) { for (int k = 0; k < j; ++k) path[--pos] = 1; }
    else if (j == 0 && i > 0) { for (int k = 0; k < i; ++k) path[--pos] = 2; }
    return pos;
}

/* Gap runs and gap positions of the path as `_score_dists` counts them (run-length
 * segments; with free ends the first and the last segment never count). */
int2 gap_totals(__global const uchar *path, int start, int end, int free_ends)
{
    int runs = 0, total = 0, k = start;
    while (k < end) {
        int e = k + 1;
        while (e < end && path[e] == path[k]) ++e;
        const int edge = k == start || e == end;
        if (path[k] != 0 && !(free_ends && edge)) { ++runs; total += e - k; }
        k = e;
    }
    return (int2)(runs, total);
}

void dp_task(int profiles, __global const long *tasks, __global const int *codes,
             __global const real *sub, int alpha, __global const real *smat,
             real gap_o, real gap_e, real eps, int affine, int free_ends,
             __global uchar *dirs, __global uchar *paths, __global real *scratch,
             __global double *scores, __global int *stats,
             __local real *lp, __local real *ld)
{
    const int task = get_group_id(0);
    __global const long *f = tasks + (long)task * TASK_FIELDS;
    const int m = (int)f[0], n = (int)f[1];
    __global uchar *d = dirs + f[4];
    __global uchar *path = paths + f[5];
    __global real *rowp = scratch + f[6];
    __global real *rowd = rowp + (n + 1);
    __global real *lastrow = rowd + (n + 1);
    __global real *lastcol = lastrow + (n + 1);
    fill_task(profiles, m, n, f[2], f[3], codes, sub, alpha, smat, gap_o, gap_e, eps,
              affine, free_ends, d, rowp, rowd, lastrow, lastcol, lp, ld);
    if (get_local_id(0) != 0) return;
    const int2 stop = stop_cell(m, n, free_ends, lastrow, lastcol);
    scores[task] = (double)(stop.x == m ? lastrow[stop.y] : lastcol[stop.x]);
    const int start = trace_task(m, n, stop, affine, d, path);
    const int2 gaps = gap_totals(path, start, m + n, free_ends);
    __global int *st = stats + 4 * (long)task;
    st[0] = start;
    st[1] = m + n - start;
    st[2] = gaps.x;
    st[3] = gaps.y;
}

/* Pairs of sequences: score of (i, j) = sub[query[i], target[j]] (`_fill_matrix_*`). */
__kernel void dp_sequences(__global const long *tasks, __global const int *codes,
                           __global const real *sub, int alpha, real gap_o, real gap_e,
                           real eps, int affine, int free_ends, __global uchar *dirs,
                           __global uchar *paths, __global real *scratch,
                           __global double *scores, __global int *stats,
                           __local real *lp, __local real *ld)
{
    dp_task(0, tasks, codes, sub, alpha, 0, gap_o, gap_e, eps, affine, free_ends, dirs,
            paths, scratch, scores, stats, lp, ld);
}

/* Pairs of profiles: score of (i, j) read from a matrix made by `profile_scores`
 * (`_fill_matrix_*_mn`). */
__kernel void dp_profiles(__global const long *tasks, __global const real *smat,
                          real gap_o, real gap_e, real eps, int affine, int free_ends,
                          __global uchar *dirs, __global uchar *paths,
                          __global real *scratch, __global double *scores,
                          __global int *stats, __local real *lp, __local real *ld)
{
    dp_task(1, tasks, 0, 0, 0, smat, gap_o, gap_e, eps, affine, free_ends, dirs, paths,
            scratch, scores, stats, lp, ld);
}

/* weight = counts1 @ submat (rows of profile 1 against every symbol), exact in float64. */
__kernel void profile_weight(__global const real *counts, long offset, int rows, int alpha,
                             __global const real *sub, __global double *weight)
{
    const long gid = get_global_id(0);
    if (gid >= (long)rows * alpha) return;
    const long r = gid / alpha;
    const int c = (int)(gid % alpha);
    double acc = 0.0;
    for (int k = 0; k < alpha; ++k)
        acc += (double)counts[offset + r * alpha + k] * (double)sub[(long)k * alpha + c];
    weight[gid] = acc;
}

/* scores = weight @ counts2.T / (n1 n2) (`_merge_align`): the float64 quotient of an exact
 * sum rounds to the same float32 as scikit-bio's float32 division (53 >= 2 * 24 + 2). */
__kernel void profile_scores(__global const double *weight, int rows, int cols, int alpha,
                             __global const real *counts, long offset, double pairs,
                             __global real *smat, long out)
{
    const long gid = get_global_id(0);
    if (gid >= (long)rows * cols) return;
    const long r = gid / cols, c = gid % cols;
    double acc = 0.0;
    for (int k = 0; k < alpha; ++k)
        acc += weight[r * alpha + k] * (double)counts[offset + c * alpha + k];
    smat[out + gid] = (real)(acc / pairs);
}

/* The merged profile's counts: each column sums the columns of the two inputs it takes
 * (index -1: a new gap column, neutral). */
__kernel void merge_columns(__global const real *counts1, long offset1,
                            __global const real *counts2, long offset2,
                            __global const int *take1, __global const int *take2,
                            int cols, int alpha, __global real *out)
{
    const long gid = get_global_id(0);
    if (gid >= (long)cols * alpha) return;
    const long c = gid / alpha;
    const int k = (int)(gid % alpha);
    real v = (real)0;
    if (take1[c] >= 0) v += counts1[offset1 + (long)take1[c] * alpha + k];
    if (take2[c] >= 0) v += counts2[offset2 + (long)take2[c] * alpha + k];
    out[gid] = v;
}

/* `_score_dist` up to the logarithm (taken on the host with numpy, as scikit-bio does):
 * S_eff clipped to [1e-6, 1], NaN where the denominator is 0 (distance +0.0). The
 * substitution sum weight[i] . counts[j] is formed here when it is exact (`given` 0), else
 * read from `dots` (scikit-bio's own dot products, made on the host). */
__kernel void score_effective(__global const int *pairs, int count,
                              __global const double *scores, __global const int *stats,
                              __global const double *self, __global const double *weight,
                              __global const double *counts, int alpha,
                              __global const double *dots, int given, double gap_o,
                              double gap_e, __global double *s_eff)
{
    const int k = get_global_id(0);
    if (k >= count) return;
    const int i = pairs[2 * k], j = pairs[2 * k + 1];
    double dot = 0.0;
    if (given) dot = dots[k];
    else
        for (int c = 0; c < alpha; ++c)
            dot += weight[(long)i * alpha + c] * counts[(long)j * alpha + c];
    __global const int *st = stats + 4 * (long)k;
    const double s_subs = dot / (double)st[1];
    const double s_gaps = gap_o * (double)st[2] + gap_e * (double)st[3];
    const double s_max = (self[i] + self[j]) / 2.0;
    const double s_rand = s_subs - s_gaps;
    const double numer = scores[k] - s_rand;
    const double denom = s_max - s_rand;
    if (denom == 0.0) { s_eff[k] = NAN; return; }
    double e = numer / denom;
    e = e > 1.0 ? 1.0 : e;
    s_eff[k] = e < 1e-6 ? 1e-6 : e;
}
