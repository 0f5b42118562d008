/* QuickProbs stage I: posterior matrices for pairs of protein or nucleotide sequences.
 *
 * One work-group per pair (task). The pair is oriented so that the shorter sequence runs along
 * the columns (m residues, m+1 columns) and the longer one along the rows (n residues, n+1 rows).
 * Work-item `lid` owns columns lid, lid+WG, ... so tasks of any length stay on the device.
 * Every DP is an anti-diagonal sweep (cells i+j = t) with one barrier per diagonal.
 *
 * Passes (Algorithm 1 of the QuickProbs paper, MSAProbs maths):
 *   1. partition-function forward (log space, double) -> Zm stored in `zbuf` (double, jagged)
 *   2. partition-function reverse + combination        -> P^b stored in `pbuf` (float, jagged)
 *   3. pair-HMM forward (5 states, log space, float)   -> F_M stored in `zbuf` (as float)
 *   4. pair-HMM backward + combination + RMS (Eq. 1) + gap-free distance DP + sparse row/column
 *      counts at the cutoff                              -> P in `pbuf`, counts, d_xy
 * The rolling diagonals (3 per state) live in local memory when they fit (ROLL_LOCAL, MAXCOLS),
 * else, with ROLL_BLOCK (= MAXCOLS slots), every pass sweeps blocks of ROLL_BLOCK - 1 columns
 * (forward passes left to right, reverse passes right to left) with local rolling diagonals,
 * passing the border column (the states the next block reads, all rows) through global
 * scratch; without either they live in the task's global scratch (coalesced by column).
 * Every cell is computed from the same operands in the same order on all three paths.
 * With STRIP_H (long pairs, bioplug.msa.posterior.STRIP_ROWS) a fourth form of the kernel, below,
 * runs the same passes in strips of STRIP_H rows per work-item (previous column in registers,
 * one barrier per column step instead of one per anti-diagonal) on the same cells, and lays the
 * full matrices out by strips (sidx) instead of the jagged blocks.
 *
 * Storage of full matrices uses the jagged layout of the paper (blocks of J columns, skewed so
 * that one anti-diagonal inside a block is J consecutive words).
 *
 * Defines: WG (work-group size), J (jag width), NA (codes of the model's alphabet: 21 protein,
 * 15 nucleotide; bioplug/msa/model.py), optional ROLL_LOCAL with MAXCOLS, optional ROLL_BLOCK (with ROLL_LOCAL, MAXCOLS = ROLL_BLOCK,
 * a multiple of WG), optional STRIP_H (rows per work-item; without ROLL_LOCAL), optional HMM_ONLY
 * (skip the partition function: P = P^a; used only for large-family tree distances).
 */
#include "common.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#ifndef NA
#error "NA (alphabet size of the model) must be defined"
#endif
#define LNEG (-INFINITY)

/* The partition function's precision: double (the paper's choice) unless PF_FLOAT, an option
 * for passes whose matrices are not kept (tree distances of large families). */
#ifdef PF_FLOAT
typedef float pfreal;
#else
typedef double pfreal;
#endif

/* Words (doubles) of a task's first matrix region, zbuf: one pfreal a cell (Zm of pass 1, then
 * F_M of pass 3 as float), so half as many with PF_FLOAT or HMM_ONLY (no pass 1); pbuf (one
 * float a cell) follows it. A smaller region lets more long pairs share a batch (more
 * work-groups at once). bioplug.msa.posterior.packed_scratch follows the same rule. */
#if defined(PF_FLOAT) || defined(HMM_ONLY)
#define ZWORDS(delta) (((delta) + 1) / 2)
#else
#define ZWORDS(delta) (delta)
#endif

/* Score tables in local memory (TABLES_LOCAL): every work-item of a warp reads a different
 * entry, which __constant memory serialises. */
#ifdef TABLES_LOCAL
#define PF(x) lpf[x]
#else
#define PF(x) ((pfreal)pf[x])
#endif
#define NHMM (30 + NA + NA * NA)

/* NATIVE_MATH: the float passes use the hardware's approximate exp/log (relative error ~1e-6
 * instead of correctly rounded within 3 ulp); an option for passes whose matrices are not kept.
 * Double precision has no native functions, so the partition function needs PF_FLOAT too. */
#ifdef NATIVE_MATH
#define FEXP native_exp
#define FLOG native_log
#else
#define FEXP exp
#define FLOG log
#endif
#if defined(NATIVE_MATH) && defined(PF_FLOAT)
#define PEXP native_exp
#define PLOG native_log
#else
#define PEXP exp
#define PLOG log
#endif

/* Between anti-diagonals only local memory passes between work-items when the rolling
 * diagonals are local: each work-item keeps its own columns of the global matrices in every
 * pass, and row counts are atomic (a global fence per diagonal cost 1-2 % more on an H200). */
#ifdef ROLL_LOCAL
#define STEP_BARRIER() barrier(CLK_LOCAL_MEM_FENCE)
#else
#define STEP_BARRIER() barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE)
#endif

/* A batch's scratch may span four buffers, each at most the device's largest allocation (on
 * NVIDIA a quarter of its memory): offs.s3 says which one holds the task's matrices. */
#define TASK_SCRATCH(of) (((of).s3 == 0 ? scratch0 : (of).s3 == 1 ? scratch1                 \
                           : (of).s3 == 2 ? scratch2 : scratch3) + (of).s0)
#define SCRATCH_ARGS(q) __global q double *scratch0, __global q double *scratch1,               \
                        __global q double *scratch2, __global q double *scratch3

/* Rolling diagonals: state s, diagonal slot c, slot x (the column itself without ROLL_BLOCK). */
#ifdef ROLL_BLOCK
#ifndef ROLL_LOCAL
#error "ROLL_BLOCK needs ROLL_LOCAL (MAXCOLS = ROLL_BLOCK)"
#endif
#define RW ROLL_BLOCK
#define BW (ROLL_BLOCK - 1)
#else
#define RW cols
#endif
#define RP(s, c, x) rollp[((s) * 3 + (c)) * RW + (x)]
#define RF(s, c, x) rollf[((s) * 3 + (c)) * RW + (x)]

inline long jidx(int i, int j, int rows)
{
    int b = j / J;
    int c = j - b * J;
    return (long)b * (long)(rows + J - 1) * J + (long)(i + c) * J + c;
}

/* Strips of rows (STRIP_H, the long-pair path when defined): work-item k of a band owns the
 * rows of strip r = band * sb + k (rows r * STRIP_H ... + STRIP_H - 1 of 0..n) and walks the
 * columns, skewed by one column per work-item, so each step computes STRIP_H cells per
 * work-item from registers and the work-group synchronises once per step (a column of the
 * strip) instead of once per anti-diagonal. Bands of sb <= WG strips split the rows evenly
 * (sb = ceil(strips / bands)), so a band never idles most of its work-items.
 * The full matrices are laid out so that the cells a band writes at one step (one row h of
 * every strip, columns j = step - k) are sb consecutive words: band g, then the step
 * (j + k, the same for every work-item of the band at that step in both directions), then h,
 * then k. */
#ifdef STRIP_H
inline int strip_sb(int n)
{
    const int ns = (n + STRIP_H) / STRIP_H;   /* strips covering rows 0..n */
    const int nb = (ns + WG - 1) / WG;
    return (ns + nb - 1) / nb;
}

inline long strip_delta(int n, int m)
{
    const int ns = (n + STRIP_H) / STRIP_H, sb = strip_sb(n), nb = (ns + sb - 1) / sb;
    return (long)nb * (long)(m + sb) * (long)(STRIP_H * sb);
}

inline long sidx(int i, int j, int m, int sb)
{
    const int r = i / STRIP_H, h = i - r * STRIP_H, g = r / sb, k = r - g * sb;
    return ((long)g * (m + sb) + (j + k)) * (long)(STRIP_H * sb) + (long)h * sb + k;
}
#define CELL_SETUP const int sb = strip_sb(n)
#define CELL(i, j) sidx(i, j, m, sb)
#define TASK_DELTA strip_delta(n, m)
#else
#define CELL_SETUP
#define CELL(i, j) jidx(i, j, rows)
#define TASK_DELTA ((long)((cols + J - 1) / J) * (rows + J - 1) * J)
#endif

/* Log-sum-exp with one exp fewer than terms (lse2p, lse3p, lse2f): the largest term's exp(0) is
 * exactly 1, so the sums equal exp(a - mx) + exp(b - mx) (+ exp(c - mx)) bit for bit, in the
 * same order (LSE_ALL_EXP: the plain form). Stage I's time is mostly exp and log. */
inline pfreal lse2p(pfreal a, pfreal b)
{
    pfreal mx = fmax(a, b);
    if (mx == -INFINITY) return mx;
#ifdef LSE_ALL_EXP
    return mx + PLOG(PEXP(a - mx) + PEXP(b - mx));
#else
    return mx + PLOG((pfreal)1 + PEXP(fmin(a, b) - mx));
#endif
}

inline pfreal lse3p(pfreal a, pfreal b, pfreal c)
{
    pfreal mx = fmax(fmax(a, b), c);
    if (mx == -INFINITY) return mx;
#ifdef LSE_ALL_EXP
    return mx + PLOG(PEXP(a - mx) + PEXP(b - mx) + PEXP(c - mx));
#else
    /* c largest: (ea + eb) + 1; else (1 + e_other) + ec, with a or b the largest */
    const pfreal ep = PEXP(((c == mx || a != mx) ? a : b) - mx);
    const pfreal eq = PEXP(((c == mx) ? b : c) - mx);
    return mx + PLOG((c == mx) ? (ep + eq) + (pfreal)1 : ((pfreal)1 + ep) + eq);
#endif
}

inline float lse2f(float a, float b)
{
    float mx = fmax(a, b);
    if (mx == -INFINITY) return mx;
#ifdef LSE_ALL_EXP
    return mx + FLOG(FEXP(a - mx) + FEXP(b - mx));
#else
    return mx + FLOG(1.0f + FEXP(fmin(a, b) - mx));
#endif
}

inline float lse5f(float a, float b, float c, float d, float e)
{
    float mx = fmax(fmax(fmax(a, b), fmax(c, d)), e);
    if (mx == -INFINITY) return mx;
    return mx + FLOG(FEXP(a - mx) + FEXP(b - mx) + FEXP(c - mx) + FEXP(d - mx) + FEXP(e - mx));
}

/* Work-group maximum of one float (used for the final log-likelihoods broadcast). */

#ifndef STRIP_H
/*
 * tasks (int4 per task): x.s0 = start of row sequence in `codes`, s1 = n (rows residues),
 *                        s2 = start of column sequence, s3 = m.
 * offs (long4 per task): s0 = offset (in doubles) of the task's scratch in buffer s3 of
 *                        scratch0..scratch3 (TASK_SCRATCH),
 *                        s1 = offset of its row counts (n ints), s2 = of its column counts (m ints).
 * scratch layout per task (in doubles): zbuf [ZWORDS(delta)], pbuf [delta/2 rounded up], then roll
 *                        [10*(m+1)] (global rolling diagonals) or, with ROLL_BLOCK, two border
 *                        columns [3*(n+1)] each (bin / bout, alternating between blocks).
 * hmm (float): [0..4] log init, [5..29] log transitions 5x5 (from*5+to), [30..30+NA) log single
 *              emissions (NA), [30+NA..30+NA+NA*NA) log pair emissions (NA x NA).
 * pf (double): [0..NA*NA) beta*score (NA x NA), [NA*NA] beta*gap_open, [NA*NA+1] beta*gap_extend.
 */
__kernel void posterior(__global const uchar *codes,
                        __global const int4 *tasks,
                        __global const long4 *offs,
                        SCRATCH_ARGS(),
                        __constant float *hmm,
                        __constant double *pf,
                        const float cutoff,
                        __global int *counts,
                        __global float *dist)
{
    const int task = get_group_id(0);
    const int lid = get_local_id(0);
    const int4 tk = tasks[task];
    const long4 of = offs[task];
    const int n = tk.s1, m = tk.s3;
    const int rows = n + 1, cols = m + 1;
    __global const uchar *xs = codes + tk.s0;   /* xs[i-1] = residue i of the row sequence */
    __global const uchar *ys = codes + tk.s2;
    const long delta = (long)((cols + J - 1) / J) * (rows + J - 1) * J;
    __global double *zbuf = TASK_SCRATCH(of);
    __global float *fbuf = (__global float *)zbuf;
    __global float *pbuf = (__global float *)(zbuf + ZWORDS(delta));
#ifdef ROLL_LOCAL
    /* rolling diagonals in local memory (9 doubles per column; MAXCOLS >= cols, or the slots
     * of a column block with ROLL_BLOCK) */
    __local double roll_mem[9 * MAXCOLS];
    __local pfreal *rollp = (__local pfreal *)roll_mem;
    __local float *rollf = (__local float *)roll_mem;
#else
    __global pfreal *rollp = (__global pfreal *)(zbuf + ZWORDS(delta) + (delta + 1) / 2);
    __global float *rollf = (__global float *)rollp;
#endif
    __global pfreal *zp = (__global pfreal *)zbuf;   /* Zm of pass 1 */
#ifdef TABLES_LOCAL
    __local pfreal lpf[NA * NA];
    __local float lhmm[NHMM];
    for (int x = lid; x < NA * NA; x += WG) lpf[x] = (pfreal)pf[x];
    for (int x = lid; x < NHMM; x += WG) lhmm[x] = hmm[x];
    barrier(CLK_LOCAL_MEM_FENCE);
    __local const float *li = lhmm;
#else
    __constant float *li = hmm;
#endif
    __global int *rowcount = counts + of.s1;
    __global int *colcount = counts + of.s2;

    const pfreal bgo = (pfreal)pf[NA * NA], bge = (pfreal)pf[NA * NA + 1];
    const int ndiag = n + m + 1;

    /* Column blocks (ROLL_BLOCK): the pair's columns in blocks of BW, each swept by
     * anti-diagonals over all rows with its rolling diagonals in local memory, slot x of column
     * jb + x; slot 0 (forward) or BW (reverse) holds the border column of the block swept
     * before, read from global memory (bin), and the block's own last column goes out (bout)
     * for the next. Every cell is computed from the same operands as without blocks. */
#ifdef ROLL_BLOCK
    __global double *bd0 = zbuf + ZWORDS(delta) + (delta + 1) / 2, *bd1 = bd0 + 3 * rows;
    const int jlast = (cols - 1) / BW * BW;        /* first column of the last block */
#define FWD_BLOCKS for (int j0 = 0, kb = 0; j0 < cols; j0 += BW, ++kb)
#define REV_BLOCKS for (int j0 = jlast, kb = 0; j0 >= 0; j0 -= BW, ++kb)
#define BLOCK_BARRIER() barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE)
#define BORDERS(T) __global const T *bin = (__global const T *)((kb & 1) ? bd0 : bd1); \
                   __global T *bout = (__global T *)((kb & 1) ? bd1 : bd0)
    const int xend = m - (jlast - 1);              /* slot of column m in the last block */
#else
#define FWD_BLOCKS
#define REV_BLOCKS
#define BLOCK_BARRIER()
    const int xend = m;
#endif

#ifndef HMM_ONLY
    /* ---- pass 1: partition-function forward ------------------------------------------- */
    /* roll (pfreal): state s in {m,e,f}, diagonal t%3 -> RP(s, t%3, x) */
    FWD_BLOCKS {
#ifdef ROLL_BLOCK
        const int j1 = min(j0 + BW, cols), jb = j0 - 1, tlo = max(j0 - 1, 0), thi = j1 - 1 + n;
        BORDERS(pfreal);
        /* the border row of the next diagonal, loaded one diagonal ahead (by work-item 0) */
        pfreal pre0 = 0, pre1 = 0, pre2 = 0;
        if (lid == 0 && j0 > 0) { pre0 = bin[0 * rows]; pre1 = bin[1 * rows]; pre2 = bin[2 * rows]; }
#else
        const int jb = 0, tlo = 0, thi = ndiag - 1;
#endif
    for (int t = tlo; t <= thi; ++t) {
        const int c0 = t % 3, c1 = (t + 2) % 3, c2 = (t + 1) % 3;  /* t, t-1, t-2 */
        for (int x = lid; x < RW; x += WG) {
            const int j = jb + x;
#ifdef ROLL_BLOCK
            if (x == 0) {   /* border: column j0 - 1, row t - jb >= 0 */
                const int i = t - jb;
                if (j0 > 0 && i <= n) {
                    RP(0, c0, 0) = pre0;
                    RP(1, c0, 0) = pre1;
                    RP(2, c0, 0) = pre2;
                    if (i < n) {
                        pre0 = bin[0 * rows + i + 1];
                        pre1 = bin[1 * rows + i + 1];
                        pre2 = bin[2 * rows + i + 1];
                    }
                }
                continue;
            }
            if (j >= j1) continue;
#endif
            const int i = t - j;
            if (i < 0 || i > n) continue;
            pfreal zm, ze, zf;
            if (i == 0 && j == 0) {
                zm = (pfreal)0; ze = LNEG; zf = LNEG;
            } else {
                const pfreal oh = (i == 0 || i == n) ? (pfreal)0 : bgo;
                const pfreal eh = (i == 0 || i == n) ? (pfreal)0 : bge;
                const pfreal ov = (j == 0 || j == m) ? (pfreal)0 : bgo;
                const pfreal ev = (j == 0 || j == m) ? (pfreal)0 : bge;
                ze = LNEG; zf = LNEG; zm = LNEG;
                if (j > 0)  /* (i, j-1) on diagonal t-1 */
                    ze = lse2p(RP(0, c1, x - 1) + oh, RP(1, c1, x - 1) + eh);
                if (i > 0)  /* (i-1, j) on diagonal t-1 */
                    zf = lse2p(RP(0, c1, x) + ov, RP(2, c1, x) + ev);
                if (i > 0 && j > 0)
                    zm = lse3p(RP(0, c2, x - 1), RP(1, c2, x - 1), RP(2, c2, x - 1))
                         + PF(xs[i - 1] * NA + ys[j - 1]);
            }
            RP(0, c0, x) = zm;
            RP(1, c0, x) = ze;
            RP(2, c0, x) = zf;
            zp[jidx(i, j, rows)] = zm;
#ifdef ROLL_BLOCK
            if (j == j1 - 1 && j1 < cols) {
                bout[0 * rows + i] = zm;
                bout[1 * rows + i] = ze;
                bout[2 * rows + i] = zf;
            }
#endif
        }
        STEP_BARRIER();
    }
        BLOCK_BARRIER();
    }
    pfreal lz;
    {
        const int c = (ndiag - 1) % 3;
        lz = lse3p(RP(0, c, xend), RP(1, c, xend), RP(2, c, xend));
    }
    STEP_BARRIER();

    /* ---- pass 2: partition-function reverse, P^b = Zm * Bm / Z ------------------------ */
    REV_BLOCKS {
#ifdef ROLL_BLOCK
        const int j1 = min(j0 + BW, cols), jb = j0, tlo = j0;
        const int thi = (j1 < cols) ? j1 + n : ndiag - 1;
        BORDERS(pfreal);
        /* the border row of the next diagonal, loaded one diagonal ahead */
        pfreal pre0 = 0, pre1 = 0;
        if (lid == (j1 - jb) % WG && j1 < cols) { pre0 = bin[0 * rows + n]; pre1 = bin[1 * rows + n]; }
#else
        const int jb = 0, tlo = 0, thi = ndiag - 1;
#endif
    for (int t = thi; t >= tlo; --t) {         /* diagonal i+j = t, from the corner back */
        const int r = ndiag - 1 - t;
        const int c0 = r % 3, c1 = (r + 2) % 3, c2 = (r + 1) % 3;  /* t, t+1, t+2 */
        for (int x = lid; x < RW; x += WG) {
            const int j = jb + x;
#ifdef ROLL_BLOCK
            if (j >= j1) {   /* border: column j1, row t - j1 <= n (states m and e are read) */
                const int i = t - j1;
                if (j == j1 && j1 < cols && i >= 0) {
                    RP(0, c0, x) = pre0;
                    RP(1, c0, x) = pre1;
                    if (i > 0) {
                        pre0 = bin[0 * rows + i - 1];
                        pre1 = bin[1 * rows + i - 1];
                    }
                }
                continue;
            }
#endif
            const int i = t - j;
            if (i < 0 || i > n) continue;
            pfreal bm, be, bf;
            if (i == n && j == m) {
                bm = (pfreal)0; be = (pfreal)0; bf = (pfreal)0;
            } else {
                const pfreal oh = (i == 0 || i == n) ? (pfreal)0 : bgo;
                const pfreal eh = (i == 0 || i == n) ? (pfreal)0 : bge;
                const pfreal ov = (j == 0 || j == m) ? (pfreal)0 : bgo;
                const pfreal ev = (j == 0 || j == m) ? (pfreal)0 : bge;
                pfreal dmatch = LNEG, hor_m = LNEG, hor_e = LNEG, ver_m = LNEG, ver_f = LNEG;
                if (i < n && j < m)   /* (i+1, j+1) on diagonal t+2 */
                    dmatch = RP(0, c2, x + 1) + PF(xs[i] * NA + ys[j]);
                if (j < m) {          /* (i, j+1) on diagonal t+1 */
                    const pfreal b = RP(1, c1, x + 1);
                    hor_m = b + oh; hor_e = b + eh;
                }
                if (i < n) {          /* (i+1, j) on diagonal t+1 */
                    const pfreal b = RP(2, c1, x);
                    ver_m = b + ov; ver_f = b + ev;
                }
                bm = lse3p(dmatch, hor_m, ver_m);
                be = lse2p(dmatch, hor_e);
                bf = lse2p(dmatch, ver_f);
            }
            RP(0, c0, x) = bm;
            RP(1, c0, x) = be;
            RP(2, c0, x) = bf;
#ifdef ROLL_BLOCK
            if (j == j0 && j0 > 0) {
                bout[0 * rows + i] = bm;
                bout[1 * rows + i] = be;
            }
#endif
            const long q = jidx(i, j, rows);
            float p = 0.0f;
            if (i > 0 && j > 0) p = (float)PEXP(zp[q] + bm - lz);
            pbuf[q] = p;
        }
        STEP_BARRIER();
    }
        BLOCK_BARRIER();
    }

#endif
    /* ---- pass 3: pair-HMM forward (states M, Ix, Iy, Ix2, Iy2) ------------------------ */
    /* roll (float): state s, diagonal t%3 -> RF(s, t%3, x) */
    /* li: log init (5), then log transitions from*5+to, log single and pair emissions */
#ifdef TABLES_LOCAL
    __local const float *lt = li + 5, *les = li + 30, *lep = li + 30 + NA;
#else
    __constant float *lt = li + 5, *les = li + 30, *lep = li + 30 + NA;
#endif
    FWD_BLOCKS {
#ifdef ROLL_BLOCK
        const int j1 = min(j0 + BW, cols), jb = j0 - 1, tlo = max(j0 - 1, 0), thi = j1 - 1 + n;
        BORDERS(float);
        float pre0 = 0, pre1 = 0, pre2 = 0, pre3 = 0, pre4 = 0;   /* one diagonal ahead */
        if (lid == 0 && j0 > 0) {
            pre0 = bin[0 * rows]; pre1 = bin[1 * rows]; pre2 = bin[2 * rows];
            pre3 = bin[3 * rows]; pre4 = bin[4 * rows];
        }
#else
        const int jb = 0, tlo = 0, thi = ndiag - 1;
#endif
    for (int t = tlo; t <= thi; ++t) {
        const int c0 = t % 3, c1 = (t + 2) % 3, c2 = (t + 1) % 3;
        for (int x = lid; x < RW; x += WG) {
            const int j = jb + x;
#ifdef ROLL_BLOCK
            if (x == 0) {   /* border: column j0 - 1, row t - jb >= 0 */
                const int i = t - jb;
                if (j0 > 0 && i <= n) {
                    RF(0, c0, 0) = pre0;
                    RF(1, c0, 0) = pre1;
                    RF(2, c0, 0) = pre2;
                    RF(3, c0, 0) = pre3;
                    RF(4, c0, 0) = pre4;
                    if (i < n) {
                        pre0 = bin[0 * rows + i + 1];
                        pre1 = bin[1 * rows + i + 1];
                        pre2 = bin[2 * rows + i + 1];
                        pre3 = bin[3 * rows + i + 1];
                        pre4 = bin[4 * rows + i + 1];
                    }
                }
                continue;
            }
            if (j >= j1) continue;
#endif
            const int i = t - j;
            if (i < 0 || i > n) continue;
            float f0 = LNEG, f1 = LNEG, f2 = LNEG, f3 = LNEG, f4 = LNEG;
            if (i > 0 && j > 0) {
                const float e = lep[xs[i - 1] * NA + ys[j - 1]];
                if (i == 1 && j == 1) {
                    f0 = li[0] + e;
                } else {
                    const int b = x - 1;
                    f0 = lse5f(RF(0, c2, b) + lt[0 * 5 + 0],
                               RF(1, c2, b) + lt[1 * 5 + 0],
                               RF(2, c2, b) + lt[2 * 5 + 0],
                               RF(3, c2, b) + lt[3 * 5 + 0],
                               RF(4, c2, b) + lt[4 * 5 + 0]) + e;
                }
            }
            if (i > 0) {   /* insert consuming x_i, from (i-1, j) */
                const float e = les[xs[i - 1]];
                if (i == 1 && j == 0) {
                    f1 = li[1] + e;
                    f3 = li[3] + e;
                } else {
                    const float pm = RF(0, c1, x);
                    f1 = lse2f(pm + lt[0 * 5 + 1], RF(1, c1, x) + lt[1 * 5 + 1]) + e;
                    f3 = lse2f(pm + lt[0 * 5 + 3], RF(3, c1, x) + lt[3 * 5 + 3]) + e;
                }
            }
            if (j > 0) {   /* insert consuming y_j, from (i, j-1) */
                const float e = les[ys[j - 1]];
                if (i == 0 && j == 1) {
                    f2 = li[2] + e;
                    f4 = li[4] + e;
                } else {
                    const float pm = RF(0, c1, x - 1);
                    f2 = lse2f(pm + lt[0 * 5 + 2], RF(2, c1, x - 1) + lt[2 * 5 + 2]) + e;
                    f4 = lse2f(pm + lt[0 * 5 + 4], RF(4, c1, x - 1) + lt[4 * 5 + 4]) + e;
                }
            }
            RF(0, c0, x) = f0;
            RF(1, c0, x) = f1;
            RF(2, c0, x) = f2;
            RF(3, c0, x) = f3;
            RF(4, c0, x) = f4;
            fbuf[jidx(i, j, rows)] = f0;
#ifdef ROLL_BLOCK
            if (j == j1 - 1 && j1 < cols) {
                bout[0 * rows + i] = f0;
                bout[1 * rows + i] = f1;
                bout[2 * rows + i] = f2;
                bout[3 * rows + i] = f3;
                bout[4 * rows + i] = f4;
            }
#endif
        }
        STEP_BARRIER();
    }
        BLOCK_BARRIER();
    }
    float lp;
    {
        const int c = (ndiag - 1) % 3;
        lp = lse5f(RF(0, c, xend) + li[0], RF(1, c, xend) + li[1], RF(2, c, xend) + li[2],
                   RF(3, c, xend) + li[3], RF(4, c, xend) + li[4]);
    }
    STEP_BARRIER();

    /* ---- pass 4: pair-HMM backward, RMS, distance DP, sparse counts ------------------- */
    /* roll: states 0..4 as before; the suffix distance DP uses slot 5 (3 diagonals). */
    for (int i = lid; i < n; i += WG) rowcount[i] = 0;
    for (int j = lid; j < m; j += WG) colcount[j] = 0;
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    REV_BLOCKS {
#ifdef ROLL_BLOCK
        const int j1 = min(j0 + BW, cols), jb = j0, tlo = j0;
        const int thi = (j1 < cols) ? j1 + n : ndiag - 1;
        BORDERS(float);
        float pre0 = 0, pre2 = 0, pre4 = 0, pre5 = 0;   /* one diagonal ahead */
        if (lid == (j1 - jb) % WG && j1 < cols) {
            pre0 = bin[0 * rows + n]; pre2 = bin[1 * rows + n];
            pre4 = bin[2 * rows + n]; pre5 = bin[3 * rows + n];
        }
#else
        const int jb = 0, tlo = 0, thi = ndiag - 1;
#endif
    for (int t = thi; t >= tlo; --t) {
        const int r = ndiag - 1 - t;
        const int c0 = r % 3, c1 = (r + 2) % 3, c2 = (r + 1) % 3;  /* t, t+1, t+2 */
        for (int x = lid; x < RW; x += WG) {
            const int j = jb + x;
#ifdef ROLL_BLOCK
            if (j >= j1) {   /* border: column j1, row t - j1 <= n (states 0, 2, 4, distance) */
                const int i = t - j1;
                if (j == j1 && j1 < cols && i >= 0) {
                    RF(0, c0, x) = pre0;
                    RF(2, c0, x) = pre2;
                    RF(4, c0, x) = pre4;
                    RF(5, c0, x) = pre5;
                    if (i > 0) {
                        pre0 = bin[0 * rows + i - 1];
                        pre2 = bin[1 * rows + i - 1];
                        pre4 = bin[2 * rows + i - 1];
                        pre5 = bin[3 * rows + i - 1];
                    }
                }
                continue;
            }
#endif
            const int i = t - j;
            if (i < 0 || i > n) continue;
            float b0, b1, b2, b3, b4;
            if (i == n && j == m) {
                b0 = li[0]; b1 = li[1]; b2 = li[2]; b3 = li[3]; b4 = li[4];
            } else {
                float dm = LNEG, vx1 = LNEG, vx3 = LNEG, hy2 = LNEG, hy4 = LNEG;
                if (i < n && j < m)
                    dm = RF(0, c2, x + 1) + lep[xs[i] * NA + ys[j]];
                if (i < n) {
                    const float e = les[xs[i]];
                    vx1 = RF(1, c1, x) + e;
                    vx3 = RF(3, c1, x) + e;
                }
                if (j < m) {
                    const float e = les[ys[j]];
                    hy2 = RF(2, c1, x + 1) + e;
                    hy4 = RF(4, c1, x + 1) + e;
                }
                b0 = lse5f(dm + lt[0 * 5 + 0], vx1 + lt[0 * 5 + 1], hy2 + lt[0 * 5 + 2],
                           vx3 + lt[0 * 5 + 3], hy4 + lt[0 * 5 + 4]);
                b1 = lse2f(dm + lt[1 * 5 + 0], vx1 + lt[1 * 5 + 1]);
                b2 = lse2f(dm + lt[2 * 5 + 0], hy2 + lt[2 * 5 + 2]);
                b3 = lse2f(dm + lt[3 * 5 + 0], vx3 + lt[3 * 5 + 3]);
                b4 = lse2f(dm + lt[4 * 5 + 0], hy4 + lt[4 * 5 + 4]);
            }
            RF(0, c0, x) = b0;
            RF(1, c0, x) = b1;
            RF(2, c0, x) = b2;
            RF(3, c0, x) = b3;
            RF(4, c0, x) = b4;
            const long q = jidx(i, j, rows);
            float p = 0.0f;
            if (i > 0 && j > 0) {
                const float pa = fmin(FEXP(fbuf[q] + b0 - lp), 1.0f);
#ifdef HMM_ONLY
                p = pa;
#else
                const float pb = fmin(pbuf[q], 1.0f);
#ifdef HMM_WEIGHT   /* QuickProbs 2's weighted RMS (its hmm-weight option) */
                p = sqrt(HMM_WEIGHT * pa * pa + (1.0f - HMM_WEIGHT) * pb * pb);
#else
                p = sqrt(0.5f * (pa * pa + pb * pb));
#endif
#endif
                pbuf[q] = p;
                if (p >= cutoff) {   /* one cell per row and per column on a diagonal */
                    atomic_inc(&rowcount[i - 1]);   /* rows pass between work-items */
                    colcount[j - 1] += 1;           /* column j is this work-item's */
                }
            }
            /* suffix gap-free DP: D(i,j) = max(D(i+1,j), D(i,j+1), D(i+1,j+1) + P(i,j)) */
            float d = 0.0f;
            if (i > 0 && j > 0) {
                const float dd = (i < n && j < m) ? RF(5, c2, x + 1) : 0.0f;
                const float dv = (i < n) ? RF(5, c1, x) : 0.0f;
                const float dh = (j < m) ? RF(5, c1, x + 1) : 0.0f;
                d = fmax(fmax(dv, dh), dd + p);
            }
            RF(5, c0, x) = d;
#ifdef ROLL_BLOCK
            if (j == j0 && j0 > 0) {
                bout[0 * rows + i] = b0;
                bout[1 * rows + i] = b2;
                bout[2 * rows + i] = b4;
                bout[3 * rows + i] = d;
            }
#endif
        }
        STEP_BARRIER();
    }
        BLOCK_BARRIER();
    }
    if (lid == 0) {
        /* D(1,1) lies on diagonal 2, which the sweep visits at r = ndiag - 3 (slot 1 with
         * column blocks too: the last block begins at column 0) */
        const float best = (n > 0 && m > 0) ? RF(5, (ndiag - 3) % 3, 1) : 0.0f;
        const int mn = min(n, m);
        /* best <= mn holds exactly (each P <= 1, rounding is monotone), so mn - best >= 0;
         * 1 - best / mn can still come out as -6e-8 where division is not correctly rounded
         * (NVIDIA's default), and scipy then rejects the guide tree's negative heights. */
        dist[task] = (mn > 0) ? ((float)mn - best) / (float)mn : 1.0f;
    }
}

#else   /* STRIP_H: the same passes in strips of rows */

/*
 * Strips of rows (long pairs; see strip_sb). Work-item k of band g owns rows i0 .. i0 + STRIP_H - 1
 * (i0 = (g * sb + k) * STRIP_H) and walks the columns: forward passes left to right, column
 * j = step - k, cells top to bottom; reverse passes right to left, column j = m - step + (na - 1 - k),
 * bottom to top. A strip's own previous column lives in registers (arrays indexed by the
 * unrolled row h); the row above (forward) or below (reverse) comes from the neighbouring
 * work-item's exchange slot in local memory, written one step earlier (two parities, so one
 * barrier per step), or, across bands, from the border row in global scratch (read one column
 * ahead). Each cell is computed from the same operands with the same expressions as the
 * anti-diagonal kernel above, so the matrices, counts and distances are the same bits.
 * Rows are owned by one work-item in every pass: the matrices written in one pass are read back
 * by the work-item that wrote them, row counts are plain stores, column counts atomic.
 */
__kernel void posterior(__global const uchar *codes,
                        __global const int4 *tasks,
                        __global const long4 *offs,
                        SCRATCH_ARGS(),
                        __constant float *hmm,
                        __constant double *pf,
                        const float cutoff,
                        __global int *counts,
                        __global float *dist)
{
    const int task = get_group_id(0);
    const int lid = get_local_id(0);
    const int4 tk = tasks[task];
    const long4 of = offs[task];
    const int n = tk.s1, m = tk.s3;
    const int cols = m + 1;
    __global const uchar *xs = codes + tk.s0;   /* xs[i-1] = residue i of the row sequence */
    __global const uchar *ys = codes + tk.s2;
    CELL_SETUP;
    const int ns = (n + STRIP_H) / STRIP_H, nband = (ns + sb - 1) / sb;
    const long delta = TASK_DELTA;
    __global double *zbuf = TASK_SCRATCH(of);
    __global float *fbuf = (__global float *)zbuf;
    __global float *pbuf = (__global float *)(zbuf + ZWORDS(delta));
    __global pfreal *zp = (__global pfreal *)zbuf;   /* Zm of pass 1 */
    /* band borders: a band's last row (forward) or first row (reverse), state s of column j at
     * s * cols + j; two buffers, alternating between bands */
    __global double *bd0 = zbuf + ZWORDS(delta) + (delta + 1) / 2, *bd1 = bd0 + 3 * cols;
    /* exchange slots: parity, state, work-item (3 pfreal or 5 float states, 2 parities) */
    __local double xmem[6 * WG];
    __local pfreal *xpp = (__local pfreal *)xmem;
    __local float *xpf = (__local float *)xmem;
#define XPP(par, s, k) xpp[((par) * 3 + (s)) * WG + (k)]
#define XPF(par, s, k) xpf[((par) * 5 + (s)) * WG + (k)]
    __local pfreal sh_lz;     /* log Z, from the work-item owning cell (n, m) */
    __local float sh_lp, sh_best;
#ifdef TABLES_LOCAL
    __local pfreal lpf[NA * NA];
    __local float lhmm[NHMM];
    for (int x = lid; x < NA * NA; x += WG) lpf[x] = (pfreal)pf[x];
    for (int x = lid; x < NHMM; x += WG) lhmm[x] = hmm[x];
    barrier(CLK_LOCAL_MEM_FENCE);
    __local const float *li = lhmm;
#else
    __constant float *li = hmm;
#endif
    __global int *rowcount = counts + of.s1;
    __global int *colcount = counts + of.s2;

    const pfreal bgo = (pfreal)pf[NA * NA], bge = (pfreal)pf[NA * NA + 1];

#ifndef HMM_ONLY
    /* ---- pass 1: partition-function forward ------------------------------------------- */
    for (int g = 0; g < nband; ++g) {
        const int na = min(sb, ns - g * sb), i0 = (g * sb + lid) * STRIP_H;
        const bool live = lid < na;
        __global const pfreal *bin = (__global const pfreal *)((g & 1) ? bd0 : bd1);
        __global pfreal *bout = (__global pfreal *)((g & 1) ? bd1 : bd0);
        pfreal lm[STRIP_H], le[STRIP_H], lf[STRIP_H];   /* (i, j - 1) */
        int xc[STRIP_H];                                  /* residue i of each row */
#pragma unroll
        for (int h = 0; h < STRIP_H; ++h) {
            lm[h] = LNEG; le[h] = LNEG; lf[h] = LNEG;
            xc[h] = (live && i0 + h > 0 && i0 + h <= n) ? xs[i0 + h - 1] : 0;
        }
        pfreal dm = LNEG, de = LNEG, df = LNEG;          /* (i0 - 1, j - 1) */
        pfreal pre0 = LNEG, pre1 = LNEG, pre2 = LNEG;    /* (i0 - 1, j) from the band above */
        if (lid == 0 && g > 0) { pre0 = bin[0]; pre1 = bin[cols]; pre2 = bin[2 * cols]; }
        for (int s = 0; s < m + na; ++s) {
            const int j = s - lid, par = s & 1;
            if (live && j >= 0 && j <= m) {
                pfreal am, ae, af;                       /* (i - 1, j) */
                if (lid > 0) {
                    am = XPP(par ^ 1, 0, lid - 1); ae = XPP(par ^ 1, 1, lid - 1);
                    af = XPP(par ^ 1, 2, lid - 1);
                } else {
                    am = pre0; ae = pre1; af = pre2;
                    if (g > 0 && j < m) {
                        pre0 = bin[j + 1]; pre1 = bin[cols + j + 1]; pre2 = bin[2 * cols + j + 1];
                    }
                }
                pfreal um = dm, ue = de, uf = df;        /* (i - 1, j - 1) */
                dm = am; de = ae; df = af;
                const int yc = (j > 0) ? ys[j - 1] : 0;
#pragma unroll
                for (int h = 0; h < STRIP_H; ++h) {
                    const int i = i0 + h;
                    if (i <= n) {
                        pfreal zm, ze, zf;
                        if (i == 0 && j == 0) {
                            zm = (pfreal)0; ze = LNEG; zf = LNEG;
                        } else {
                            const pfreal oh = (i == 0 || i == n) ? (pfreal)0 : bgo;
                            const pfreal eh = (i == 0 || i == n) ? (pfreal)0 : bge;
                            const pfreal ov = (j == 0 || j == m) ? (pfreal)0 : bgo;
                            const pfreal ev = (j == 0 || j == m) ? (pfreal)0 : bge;
                            ze = LNEG; zf = LNEG; zm = LNEG;
                            if (j > 0)
                                ze = lse2p(lm[h] + oh, le[h] + eh);
                            if (i > 0)
                                zf = lse2p(am + ov, af + ev);
                            if (i > 0 && j > 0)
                                zm = lse3p(um, ue, uf) + PF(xc[h] * NA + yc);
                        }
                        um = lm[h]; ue = le[h]; uf = lf[h];
                        lm[h] = zm; le[h] = ze; lf[h] = zf;
                        am = zm; ae = ze; af = zf;
                        zp[CELL(i, j)] = zm;
                        if (i == n && j == m) sh_lz = lse3p(zm, ze, zf);
                    }
                }
                XPP(par, 0, lid) = am; XPP(par, 1, lid) = ae; XPP(par, 2, lid) = af;
                if (lid == na - 1 && g + 1 < nband) {
                    bout[j] = am; bout[cols + j] = ae; bout[2 * cols + j] = af;
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    }
    const pfreal lz = sh_lz;

    /* ---- pass 2: partition-function reverse, P^b = Zm * Bm / Z ------------------------ */
    for (int g = nband - 1; g >= 0; --g) {
        const int na = min(sb, ns - g * sb), i0 = (g * sb + lid) * STRIP_H, kk = na - 1 - lid;
        const bool live = lid < na;
        __global const pfreal *bin = (__global const pfreal *)((g & 1) ? bd0 : bd1);
        __global pfreal *bout = (__global pfreal *)((g & 1) ? bd1 : bd0);
        pfreal rm[STRIP_H], re[STRIP_H];                  /* (i, j + 1) */
        pfreal zn[STRIP_H];                               /* Zm of the next column */
        int xc[STRIP_H];                                  /* residue i + 1 of each row */
#pragma unroll
        for (int h = 0; h < STRIP_H; ++h) {
            const int i = i0 + h;
            rm[h] = LNEG; re[h] = LNEG;
            xc[h] = (live && i < n) ? xs[i] : 0;
            zn[h] = (live && i <= n) ? zp[CELL(i, m)] : (pfreal)0;
        }
        pfreal dm = LNEG;                                 /* (i0 + STRIP_H, j + 1), state m */
        pfreal pre0 = LNEG, pre2 = LNEG;                  /* (i0 + STRIP_H, j) from below */
        if (lid == na - 1 && g + 1 < nband) { pre0 = bin[m]; pre2 = bin[cols + m]; }
        for (int s = 0; s < m + na; ++s) {
            const int j = m - s + kk, par = s & 1;
            if (live && j >= 0 && j <= m) {
                pfreal vm, vf;                            /* (i + 1, j) */
                if (lid < na - 1) {
                    vm = XPP(par ^ 1, 0, lid + 1); vf = XPP(par ^ 1, 1, lid + 1);
                } else {
                    vm = pre0; vf = pre2;
                    if (g + 1 < nband && j > 0) { pre0 = bin[j - 1]; pre2 = bin[cols + j - 1]; }
                }
                pfreal um = dm;                           /* (i + 1, j + 1) */
                dm = vm;
                const int yc = (j < m) ? ys[j] : 0;
                /* this column's Zm was read a step ago; the next column's is read now, before
                 * this column's stores (which the compiler cannot move loads across) */
                pfreal zc[STRIP_H];
#pragma unroll
                for (int h = 0; h < STRIP_H; ++h) {
                    zc[h] = zn[h];
                    if (j > 0 && i0 + h <= n) zn[h] = zp[CELL(i0 + h, j - 1)];
                }
#pragma unroll
                for (int h = STRIP_H - 1; h >= 0; --h) {
                    const int i = i0 + h;
                    if (i <= n) {
                        pfreal bm, be, bf;
                        if (i == n && j == m) {
                            bm = (pfreal)0; be = (pfreal)0; bf = (pfreal)0;
                        } else {
                            const pfreal oh = (i == 0 || i == n) ? (pfreal)0 : bgo;
                            const pfreal eh = (i == 0 || i == n) ? (pfreal)0 : bge;
                            const pfreal ov = (j == 0 || j == m) ? (pfreal)0 : bgo;
                            const pfreal ev = (j == 0 || j == m) ? (pfreal)0 : bge;
                            pfreal dmatch = LNEG, hor_m = LNEG, hor_e = LNEG, ver_m = LNEG,
                                   ver_f = LNEG;
                            if (i < n && j < m)
                                dmatch = um + PF(xc[h] * NA + yc);
                            if (j < m) {
                                const pfreal b = re[h];
                                hor_m = b + oh; hor_e = b + eh;
                            }
                            if (i < n) {
                                const pfreal b = vf;
                                ver_m = b + ov; ver_f = b + ev;
                            }
                            bm = lse3p(dmatch, hor_m, ver_m);
                            be = lse2p(dmatch, hor_e);
                            bf = lse2p(dmatch, ver_f);
                        }
                        um = rm[h];
                        rm[h] = bm; re[h] = be;
                        vm = bm; vf = bf;
                        const long q = CELL(i, j);
                        float p = 0.0f;
                        if (i > 0 && j > 0) p = (float)PEXP(zc[h] + bm - lz);
                        pbuf[q] = p;
                    }
                }
                XPP(par, 0, lid) = vm; XPP(par, 1, lid) = vf;
                if (lid == 0 && g > 0) { bout[j] = vm; bout[cols + j] = vf; }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    }
#endif

    /* ---- pass 3: pair-HMM forward (states M, Ix, Iy, Ix2, Iy2) ------------------------ */
#ifdef TABLES_LOCAL
    __local const float *lt = li + 5, *les = li + 30, *lep = li + 30 + NA;
#else
    __constant float *lt = li + 5, *les = li + 30, *lep = li + 30 + NA;
#endif
    for (int g = 0; g < nband; ++g) {
        const int na = min(sb, ns - g * sb), i0 = (g * sb + lid) * STRIP_H;
        const bool live = lid < na;
        __global const float *bin = (__global const float *)((g & 1) ? bd0 : bd1);
        __global float *bout = (__global float *)((g & 1) ? bd1 : bd0);
        float l0[STRIP_H], l1[STRIP_H], l2[STRIP_H], l3[STRIP_H], l4[STRIP_H];   /* (i, j - 1) */
        int xc[STRIP_H];                                  /* residue i of each row */
#pragma unroll
        for (int h = 0; h < STRIP_H; ++h) {
            l0[h] = LNEG; l1[h] = LNEG; l2[h] = LNEG; l3[h] = LNEG; l4[h] = LNEG;
            xc[h] = (live && i0 + h > 0 && i0 + h <= n) ? xs[i0 + h - 1] : 0;
        }
        float d0 = LNEG, d1 = LNEG, d2 = LNEG, d3 = LNEG, d4 = LNEG;   /* (i0 - 1, j - 1) */
        float pre0 = LNEG, pre1 = LNEG, pre2 = LNEG, pre3 = LNEG, pre4 = LNEG;
        if (lid == 0 && g > 0) {
            pre0 = bin[0]; pre1 = bin[cols]; pre2 = bin[2 * cols];
            pre3 = bin[3 * cols]; pre4 = bin[4 * cols];
        }
        for (int s = 0; s < m + na; ++s) {
            const int j = s - lid, par = s & 1;
            if (live && j >= 0 && j <= m) {
                float a0, a1, a2, a3, a4;                 /* (i - 1, j) */
                if (lid > 0) {
                    a0 = XPF(par ^ 1, 0, lid - 1); a1 = XPF(par ^ 1, 1, lid - 1);
                    a2 = XPF(par ^ 1, 2, lid - 1); a3 = XPF(par ^ 1, 3, lid - 1);
                    a4 = XPF(par ^ 1, 4, lid - 1);
                } else {
                    a0 = pre0; a1 = pre1; a2 = pre2; a3 = pre3; a4 = pre4;
                    if (g > 0 && j < m) {
                        pre0 = bin[j + 1]; pre1 = bin[cols + j + 1]; pre2 = bin[2 * cols + j + 1];
                        pre3 = bin[3 * cols + j + 1]; pre4 = bin[4 * cols + j + 1];
                    }
                }
                float u0 = d0, u1 = d1, u2 = d2, u3 = d3, u4 = d4;   /* (i - 1, j - 1) */
                d0 = a0; d1 = a1; d2 = a2; d3 = a3; d4 = a4;
                const int yc = (j > 0) ? ys[j - 1] : 0;
#pragma unroll
                for (int h = 0; h < STRIP_H; ++h) {
                    const int i = i0 + h;
                    if (i <= n) {
                        float f0 = LNEG, f1 = LNEG, f2 = LNEG, f3 = LNEG, f4 = LNEG;
                        if (i > 0 && j > 0) {
                            const float e = lep[xc[h] * NA + yc];
                            if (i == 1 && j == 1) {
                                f0 = li[0] + e;
                            } else {
                                f0 = lse5f(u0 + lt[0 * 5 + 0],
                                           u1 + lt[1 * 5 + 0],
                                           u2 + lt[2 * 5 + 0],
                                           u3 + lt[3 * 5 + 0],
                                           u4 + lt[4 * 5 + 0]) + e;
                            }
                        }
                        if (i > 0) {   /* insert consuming x_i, from (i-1, j) */
                            const float e = les[xc[h]];
                            if (i == 1 && j == 0) {
                                f1 = li[1] + e;
                                f3 = li[3] + e;
                            } else {
                                const float pm = a0;
                                f1 = lse2f(pm + lt[0 * 5 + 1], a1 + lt[1 * 5 + 1]) + e;
                                f3 = lse2f(pm + lt[0 * 5 + 3], a3 + lt[3 * 5 + 3]) + e;
                            }
                        }
                        if (j > 0) {   /* insert consuming y_j, from (i, j-1) */
                            const float e = les[yc];
                            if (i == 0 && j == 1) {
                                f2 = li[2] + e;
                                f4 = li[4] + e;
                            } else {
                                const float pm = l0[h];
                                f2 = lse2f(pm + lt[0 * 5 + 2], l2[h] + lt[2 * 5 + 2]) + e;
                                f4 = lse2f(pm + lt[0 * 5 + 4], l4[h] + lt[4 * 5 + 4]) + e;
                            }
                        }
                        u0 = l0[h]; u1 = l1[h]; u2 = l2[h]; u3 = l3[h]; u4 = l4[h];
                        l0[h] = f0; l1[h] = f1; l2[h] = f2; l3[h] = f3; l4[h] = f4;
                        a0 = f0; a1 = f1; a2 = f2; a3 = f3; a4 = f4;
                        fbuf[CELL(i, j)] = f0;
                        if (i == n && j == m)
                            sh_lp = lse5f(f0 + li[0], f1 + li[1], f2 + li[2], f3 + li[3],
                                          f4 + li[4]);
                    }
                }
                XPF(par, 0, lid) = a0; XPF(par, 1, lid) = a1; XPF(par, 2, lid) = a2;
                XPF(par, 3, lid) = a3; XPF(par, 4, lid) = a4;
                if (lid == na - 1 && g + 1 < nband) {
                    bout[j] = a0; bout[cols + j] = a1; bout[2 * cols + j] = a2;
                    bout[3 * cols + j] = a3; bout[4 * cols + j] = a4;
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    }
    const float lp = sh_lp;

    /* ---- pass 4: pair-HMM backward, RMS, distance DP, sparse counts ------------------- */
    for (int j = lid; j < m; j += WG) colcount[j] = 0;
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    for (int g = nband - 1; g >= 0; --g) {
        const int na = min(sb, ns - g * sb), i0 = (g * sb + lid) * STRIP_H, kk = na - 1 - lid;
        const bool live = lid < na;
        __global const float *bin = (__global const float *)((g & 1) ? bd0 : bd1);
        __global float *bout = (__global float *)((g & 1) ? bd1 : bd0);
        float r0[STRIP_H], r2[STRIP_H], r4[STRIP_H], rd[STRIP_H];   /* (i, j + 1) */
        int rc[STRIP_H];                                             /* row counts */
        int xc[STRIP_H];                                  /* residue i + 1 of each row */
        float fn[STRIP_H], pn[STRIP_H];                   /* F_M and P^b of the next column */
#pragma unroll
        for (int h = 0; h < STRIP_H; ++h) {
            const int i = i0 + h;
            r0[h] = LNEG; r2[h] = LNEG; r4[h] = LNEG; rd[h] = 0.0f; rc[h] = 0;
            xc[h] = (live && i < n) ? xs[i] : 0;
            fn[h] = (live && i <= n) ? fbuf[CELL(i, m)] : 0.0f;
            pn[h] = 0.0f;
#ifndef HMM_ONLY
            if (live && i <= n) pn[h] = pbuf[CELL(i, m)];
#endif
        }
        float dg0 = LNEG, dgd = 0.0f;                     /* (i0 + STRIP_H, j + 1): 0, D */
        float pre0 = LNEG, pre1 = LNEG, pre3 = LNEG, pred = 0.0f;   /* (i0 + STRIP_H, j) */
        if (lid == na - 1 && g + 1 < nband) {
            pre0 = bin[m]; pre1 = bin[cols + m]; pre3 = bin[2 * cols + m]; pred = bin[3 * cols + m];
        }
        for (int s = 0; s < m + na; ++s) {
            const int j = m - s + kk, par = s & 1;
            if (live && j >= 0 && j <= m) {
                float v0, v1, v3, vd;                     /* (i + 1, j) */
                if (lid < na - 1) {
                    v0 = XPF(par ^ 1, 0, lid + 1); v1 = XPF(par ^ 1, 1, lid + 1);
                    v3 = XPF(par ^ 1, 2, lid + 1); vd = XPF(par ^ 1, 3, lid + 1);
                } else {
                    v0 = pre0; v1 = pre1; v3 = pre3; vd = pred;
                    if (g + 1 < nband && j > 0) {
                        pre0 = bin[j - 1]; pre1 = bin[cols + j - 1];
                        pre3 = bin[2 * cols + j - 1]; pred = bin[3 * cols + j - 1];
                    }
                }
                float u0 = dg0, ud = dgd;                 /* (i + 1, j + 1) */
                dg0 = v0; dgd = vd;
                int cc = 0;
                const int yc = (j < m) ? ys[j] : 0;
                float fc[STRIP_H], pc[STRIP_H];           /* as in pass 2: one step ahead */
#pragma unroll
                for (int h = 0; h < STRIP_H; ++h) {
                    fc[h] = fn[h];
                    pc[h] = pn[h];
                    if (j > 0 && i0 + h <= n) {
                        fn[h] = fbuf[CELL(i0 + h, j - 1)];
#ifndef HMM_ONLY
                        pn[h] = pbuf[CELL(i0 + h, j - 1)];
#endif
                    }
                }
#pragma unroll
                for (int h = STRIP_H - 1; h >= 0; --h) {
                    const int i = i0 + h;
                    if (i <= n) {
                        float b0, b1, b2, b3, b4;
                        if (i == n && j == m) {
                            b0 = li[0]; b1 = li[1]; b2 = li[2]; b3 = li[3]; b4 = li[4];
                        } else {
                            float dm = LNEG, vx1 = LNEG, vx3 = LNEG, hy2 = LNEG, hy4 = LNEG;
                            if (i < n && j < m)
                                dm = u0 + lep[xc[h] * NA + yc];
                            if (i < n) {
                                const float e = les[xc[h]];
                                vx1 = v1 + e;
                                vx3 = v3 + e;
                            }
                            if (j < m) {
                                const float e = les[yc];
                                hy2 = r2[h] + e;
                                hy4 = r4[h] + e;
                            }
                            b0 = lse5f(dm + lt[0 * 5 + 0], vx1 + lt[0 * 5 + 1],
                                       hy2 + lt[0 * 5 + 2], vx3 + lt[0 * 5 + 3],
                                       hy4 + lt[0 * 5 + 4]);
                            b1 = lse2f(dm + lt[1 * 5 + 0], vx1 + lt[1 * 5 + 1]);
                            b2 = lse2f(dm + lt[2 * 5 + 0], hy2 + lt[2 * 5 + 2]);
                            b3 = lse2f(dm + lt[3 * 5 + 0], vx3 + lt[3 * 5 + 3]);
                            b4 = lse2f(dm + lt[4 * 5 + 0], hy4 + lt[4 * 5 + 4]);
                        }
                        const long q = CELL(i, j);
                        float p = 0.0f;
                        if (i > 0 && j > 0) {
                            const float pa = fmin(FEXP(fc[h] + b0 - lp), 1.0f);
#ifdef HMM_ONLY
                            p = pa;
#else
                            const float pb = fmin(pc[h], 1.0f);
#ifdef HMM_WEIGHT   /* QuickProbs 2's weighted RMS (its hmm-weight option) */
                            p = sqrt(HMM_WEIGHT * pa * pa + (1.0f - HMM_WEIGHT) * pb * pb);
#else
                            p = sqrt(0.5f * (pa * pa + pb * pb));
#endif
#endif
                            pbuf[q] = p;
                            if (p >= cutoff) { rc[h] += 1; cc += 1; }
                        }
                        /* suffix gap-free DP: D(i,j) = max(D(i+1,j), D(i,j+1), D(i+1,j+1) + P(i,j)) */
                        float d = 0.0f;
                        if (i > 0 && j > 0) {
                            const float dd = (i < n && j < m) ? ud : 0.0f;
                            const float dv = (i < n) ? vd : 0.0f;
                            const float dh = (j < m) ? rd[h] : 0.0f;
                            d = fmax(fmax(dv, dh), dd + p);
                        }
                        if (i == 1 && j == 1) sh_best = d;
                        u0 = r0[h]; ud = rd[h];
                        r0[h] = b0; r2[h] = b2; r4[h] = b4; rd[h] = d;
                        v0 = b0; v1 = b1; v3 = b3; vd = d;
                    }
                }
                if (cc) atomic_add(&colcount[j - 1], cc);   /* columns pass between work-items */
                XPF(par, 0, lid) = v0; XPF(par, 1, lid) = v1;
                XPF(par, 2, lid) = v3; XPF(par, 3, lid) = vd;
                if (lid == 0 && g > 0) {
                    bout[j] = v0; bout[cols + j] = v1; bout[2 * cols + j] = v3; bout[3 * cols + j] = vd;
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
#pragma unroll
        for (int h = 0; h < STRIP_H; ++h) {   /* rows are this work-item's alone */
            const int i = i0 + h;
            if (live && i > 0 && i <= n) rowcount[i - 1] = rc[h];
        }
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        const float best = (n > 0 && m > 0) ? sh_best : 0.0f;
        const int mn = min(n, m);
        /* see the anti-diagonal kernel: (mn - best) / mn, never negative */
        dist[task] = (mn > 0) ? ((float)mn - best) / (float)mn : 1.0f;
    }
}
#endif   /* STRIP_H */

/*
 * Sparse forms of the finished P. Work-item owns rows (S_rc: rows of the row sequence, columns
 * of the column sequence) then columns (S_cr). rowptr/colptr (long) give, per row / column, the
 * absolute output position (exclusive scan over every task of the batch), as laid out in offs.
 */
__kernel void sparsify(__global const int4 *tasks,
                       __global const long4 *offs,
                       SCRATCH_ARGS(const),
                       __global const float *thresh,
                       __global const long *ptr,
                       __global int *out_col,
                       __global float *out_val)
{
    const int task = get_group_id(0);
    const int lid = get_local_id(0);
    const int4 tk = tasks[task];
    const long4 of = offs[task];
    const int n = tk.s1, m = tk.s3;
    const int rows = n + 1, cols = m + 1;
    CELL_SETUP;
    const long delta = TASK_DELTA;
    __global const float *pbuf =
        (__global const float *)(TASK_SCRATCH(of) + ZWORDS(delta));
    const float cutoff = thresh[task];
    for (int i = lid; i < n && of.s1 >= 0; i += WG) {
        long pos = ptr[of.s1 + i];
        for (int j = 1; j <= m; ++j) {
            const float p = pbuf[CELL(i + 1, j)];
            if (p >= cutoff) { out_col[pos] = j - 1; out_val[pos] = p; ++pos; }
        }
    }
    for (int j = lid; j < m && of.s2 >= 0; j += WG) {
        long pos = ptr[of.s2 + j];
        for (int i = 1; i <= n; ++i) {
            const float p = pbuf[CELL(i, j + 1)];
            if (p >= cutoff) { out_col[pos] = i - 1; out_val[pos] = p; ++pos; }
        }
    }
}

/*
 * Accurate mode (QuickProbs-acc): per task, the threshold that keeps the top fraction `keep` of
 * the n*m posterior cells, found by bisection on the value (40 halvings in [0, 1]), written to
 * thresh[task]; then counts are recomputed at that threshold.
 */
__kernel void adaptive_threshold(__global const int4 *tasks,
                                 __global const long4 *offs,
                                 SCRATCH_ARGS(const),
                                 const float keep,
                                 const float cap,
                                 __global float *thresh,
                                 __global int *counts,
                                 __local int *red)
{
    const int task = get_group_id(0);
    const int lid = get_local_id(0);
    const int4 tk = tasks[task];
    const long4 of = offs[task];
    const int n = tk.s1, m = tk.s3;
    const int rows = n + 1, cols = m + 1;
    CELL_SETUP;
    const long delta = TASK_DELTA;
    __global const float *pbuf =
        (__global const float *)(TASK_SCRATCH(of) + ZWORDS(delta));
    const long want = (long)ceil(keep * (float)n * (float)m);
    float lo = 0.0f, hi = 1.0f;
    for (int it = 0; it < 30; ++it) {
        const float mid = 0.5f * (lo + hi);
        int cnt = 0;
        for (int j = lid; j < m; j += WG)
            for (int i = 1; i <= n; ++i)
                cnt += pbuf[CELL(i, j + 1)] >= mid;
        red[lid] = cnt;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int s = WG / 2; s > 0; s >>= 1) {
            if (lid < s) red[lid] += red[lid + s];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        const long total = red[0];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (total >= want) lo = mid; else hi = mid;
    }
    const float th = fmax(fmin(lo, cap), 1e-30f);
    if (lid == 0) thresh[task] = th;
    __global int *rowcount = counts + of.s1;
    __global int *colcount = counts + of.s2;
    for (int i = lid; i < n; i += WG) {
        int c = 0;
        for (int j = 1; j <= m; ++j) c += pbuf[CELL(i + 1, j)] >= th;
        rowcount[i] = c;
    }
    for (int j = lid; j < m; j += WG) {
        int c = 0;
        for (int i = 1; i <= n; ++i) c += pbuf[CELL(i, j + 1)] >= th;
        colcount[j] = c;
    }
}
