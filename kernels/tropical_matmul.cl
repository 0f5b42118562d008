/* Tropical (max-plus / min-plus) matrix products, batched: C = A (x) B with
 *   max-plus: C[i][j] = max_k A[i][k] + B[k][j]      min-plus: C[i][j] = min_k A[i][k] + B[k][j]
 * (thesis §2.3: the min-plus semiring on -log probabilities; max-plus is the same on log
 * probabilities).
 *
 * Tiling as in a GEMM: a work-group of TN x TM items computes a BM x BN tile of C (BM = TM*RM,
 * BN = TN*RN; each item an RM x RN block held in registers), staging TK columns of A and TK
 * rows of B in local memory per step. An item's RN columns are NCN chunks of VW adjacent
 * columns, chunk c at c*TN*VW + tx*VW, so that one vector load from local memory serves a
 * chunk and the items of a warp read adjacent vectors (no bank conflicts); rows likewise.
 *
 * Each item walks k in increasing order, so with WANT_IDX the index kept is the lowest k
 * reaching the optimum (TIE_LAST: the highest, the rule of hmmlearn's Viterbi traceback).
 *
 * ACCUM (needs WANT_IDX, not TIE_LAST): C starts from Cin (in place when Cin == C) and an
 * entry is only written on a strict improvement, which sets *changed; I is not written.
 * PRED (Floyd-Warshall / squaring predecessors, with ACCUM): an improved entry (i, j) takes
 * Pin[pred_base + k][j] as its predecessor (the path i -> k -> j ends as k's path to j does).
 * WRITE_ALL (with ACCUM, out of place): unchanged entries are copied too (C from Cin, P from
 * Pin), so the output buffers need no copy beforehand.
 * skip: tiles in this tile row or column do nothing (the pivot panel of blocked
 * Floyd-Warshall, read by the others); ~0 for none.
 *
 * Batch b uses element offsets offs[4b .. 4b+2] into A, B and C (I shares C's layout), so
 * broadcast operands are not copied.
 *
 * Defines: REAL_IS_DOUBLE, MAXPLUS (1 max-plus, 0 min-plus), WANT_IDX, TIE_LAST, ACCUM, PRED,
 *          WRITE_ALL,
 *          TM, TN, RM, RN, TK, VW (vector width: divides RM and RN; 1, 2 or 4).
 */
#include "real.h"

#define BM (TM * RM)
#define BN (TN * RN)
#define NCM (RM / VW)
#define NCN (RN / VW)

/* OPT(acc, v): fmax / fmin for float32; a compare and select for float64, which measured
 * faster than fmax on the H100 (both skip a NaN v). */
#if MAXPLUS
#define NEUTRAL (-INFINITY)
#if REAL_IS_DOUBLE
#define OPT(acc, v) ((v) > (acc) ? (v) : (acc))
#else
#define OPT(acc, v) fmax(acc, v)
#endif
#if TIE_LAST
#define BETTER(v, best) ((v) >= (best))
#else
#define BETTER(v, best) ((v) > (best))
#endif
#define STRICT(v, best) ((v) > (best))
#else
#define NEUTRAL (INFINITY)
#if REAL_IS_DOUBLE
#define OPT(acc, v) ((v) < (acc) ? (v) : (acc))
#else
#define OPT(acc, v) fmin(acc, v)
#endif
#if TIE_LAST
#define BETTER(v, best) ((v) <= (best))
#else
#define BETTER(v, best) ((v) < (best))
#endif
#define STRICT(v, best) ((v) < (best))
#endif

#if VW == 4
#if REAL_IS_DOUBLE
typedef double4 realv;
#else
typedef float4 realv;
#endif
#define UNPACK(v, arr, o) { arr[o] = (v).s0; arr[o + 1] = (v).s1; arr[o + 2] = (v).s2; arr[o + 3] = (v).s3; }
#elif VW == 2
#if REAL_IS_DOUBLE
typedef double2 realv;
#else
typedef float2 realv;
#endif
#define UNPACK(v, arr, o) { arr[o] = (v).s0; arr[o + 1] = (v).s1; }
#else
typedef real realv;
#define UNPACK(v, arr, o) { arr[o] = (v); }
#endif

/* Row of the tile that an item's r-th register row maps to (same rule for columns). */
#define ROW_OF(ty, r) (((r) / VW) * (TM * VW) + (ty) * VW + (r) % VW)
#define COL_OF(tx, c) (((c) / VW) * (TN * VW) + (tx) * VW + (c) % VW)

#if WANT_IDX
#define RELAX(kk_global)                                                              \
    for (uint r = 0; r < RM; r++)                                                     \
        for (uint c = 0; c < RN; c++) {                                               \
            real v = a[r] + b[c];                                                     \
            if (BETTER(v, acc[r][c])) { acc[r][c] = v; idx[r][c] = (int)(kk_global); } \
        }
#else
#define RELAX(kk_global)                                                              \
    for (uint r = 0; r < RM; r++)                                                     \
        for (uint c = 0; c < RN; c++) acc[r][c] = OPT(acc[r][c], a[r] + b[c]);
#endif

#define LOAD_AB(kk)                                                                   \
    for (uint q = 0; q < NCM; q++) {                                                  \
        realv v = As[kk][q * TM + ty];                                                \
        UNPACK(v, a, q * VW)                                                          \
    }                                                                                 \
    for (uint q = 0; q < NCN; q++) {                                                  \
        realv v = Bs[kk][q * TN + tx];                                                \
        UNPACK(v, b, q * VW)                                                          \
    }

__kernel __attribute__((reqd_work_group_size(TN, TM, 1)))
void tropical_mm(__global const real *A, __global const real *B, __global const real *Cin,
                 __global real *C, __global int *I, __global const ulong *offs,
                 uint batch0, uint M, uint N, uint K, uint lda, uint ldb, uint ldc, uint skip,
                 __global const int *Pin, __global int *P, uint pred_base,
                 __global int *changed) {
    uint bj = get_group_id(0), bi = get_group_id(1);
    if (bi == skip || bj == skip) return; /* the whole group leaves: no barrier reached */
    uint batch = batch0 + get_group_id(2);
    uint tx = get_local_id(0), ty = get_local_id(1);
    uint lid = ty * TN + tx;
    __global const real *Ab = A + offs[4 * batch];
    __global const real *Bb = B + offs[4 * batch + 1];
    ulong coff = offs[4 * batch + 2];
    uint row0 = bi * BM, col0 = bj * BN;

    /* A's rows carry one spare vector: the transposing stores below then spread over the
     * banks instead of hitting one bank TK times. */
    __local realv As[TK][BM / VW + 1];
    __local realv Bs[TK][BN / VW];
    __local real *as = (__local real *)As;
    __local real *bs = (__local real *)Bs;

    real acc[RM][RN];
#if WANT_IDX
    int idx[RM][RN];
#endif
    for (uint r = 0; r < RM; r++)
        for (uint c = 0; c < RN; c++) {
#if ACCUM
            uint i = row0 + ROW_OF(ty, r), j = col0 + COL_OF(tx, c);
            acc[r][c] = (i < M && j < N) ? Cin[coff + (ulong)i * ldc + j] : NEUTRAL;
#else
            acc[r][c] = NEUTRAL;
#endif
#if WANT_IDX
#if ACCUM
            idx[r][c] = -1;
#else
            idx[r][c] = 0;
#endif
#endif
        }

    real a[RM], b[RN];
    for (uint k0 = 0; k0 < K; k0 += TK) {
        /* A's tile is stored transposed (As[k][m]) so that the compute loop reads rows of
         * As and Bs alike; global reads run along k (A) and along n (B), both contiguous. */
        for (uint e = lid; e < BM * TK; e += TM * TN) {
            uint m = e / TK, kk = e % TK;
            uint gi = row0 + m, gk = k0 + kk;
            as[kk * (BM + VW) + m] =
                (gi < M && gk < K) ? Ab[(ulong)gi * lda + gk] : NEUTRAL;
        }
        for (uint e = lid; e < BN * TK; e += TM * TN) {
            uint kk = e / BN, n = e % BN;
            uint gj = col0 + n, gk = k0 + kk;
            bs[kk * BN + n] =
                (gj < N && gk < K) ? Bb[(ulong)gk * ldb + gj] : NEUTRAL;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (k0 + TK <= K) {
#pragma unroll
            for (uint kk = 0; kk < TK; kk++) {
                LOAD_AB(kk)
                RELAX(k0 + kk)
            }
        } else { /* the last, partial step: padded k must never be chosen as an index */
            for (uint kk = 0; kk < K - k0; kk++) {
                LOAD_AB(kk)
                RELAX(k0 + kk)
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    int any = 0;
    for (uint r = 0; r < RM; r++)
        for (uint c = 0; c < RN; c++) {
            uint i = row0 + ROW_OF(ty, r), j = col0 + COL_OF(tx, c);
            if (i >= M || j >= N) continue;
            ulong at = coff + (ulong)i * ldc + j;
#if ACCUM && WANT_IDX
            if (idx[r][c] < 0) {
#if WRITE_ALL
                C[at] = acc[r][c];
#if PRED
                P[at] = Pin[at];
#endif
#endif
                continue; /* unchanged */
            }
            any = 1;
#if PRED
            P[at] = Pin[(ulong)(pred_base + idx[r][c]) * ldc + j];
#endif
#endif
            C[at] = acc[r][c];
#if WANT_IDX && !ACCUM
            I[at] = idx[r][c];
#endif
        }
#if ACCUM && WANT_IDX
    if (any) *changed = 1;
#endif
}
