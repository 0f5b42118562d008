/* HMM Viterbi decoding in log space (max-plus), with the state path.
 *
 * The model (hmmlearn's convention, the thesis's TROPVITERBI with the emission charged on the
 * state entered; thesis §2.4 eqs 2.13-2.22 charge it on the state left, the same optimum):
 *   V[0][i] = pi[i] + E[o_0][i]
 *   V[t][i] = max_j (V[t-1][j] + T[j][i]) + E[o_t][i]          t = 1 .. n-1
 *   log P   = max_i V[n-1][i]
 * T is l x l (T[j*l + i] = log p(j -> i)); E is stored symbol-major (E[o*l + i]) so that the
 * items of a step read adjacent words. A "frame" model (per-step emission scores, as hmmlearn
 * passes) is the same with E = the frame matrix and o_t = t.
 *
 * viterbi_steps: the step-wise recurrence (thesis TROPMATVECPRODVITERBI), parallel over states
 *   and over sequences. A work-group owns BMS = G*R sequences and every state: its items are
 *   SP (along states) x G (sequence groups); an item computes, for its states i = sx + q*SP,
 *   R sequences at once, so one read of T[j][i] serves R sums. The group keeps both lattice
 *   rows in local memory (LAT_GLOBAL: in a global scratch area when they do not fit) and
 *   needs no other group, so it runs steps t0 .. t1-1 in one launch; the lattice is saved to
 *   `state` at the end and loaded at the start of the next launch.
 *   Backpointers bp[bp_off[s] + t*l + i] = argmax_j, ties to the HIGHEST j, all -inf giving
 *   l - 1: exactly the state hmmlearn's traceback (std::max over (value, j) pairs) picks.
 * viterbi_trace: one item per sequence: the end state is the FIRST argmax of the last row
 *   (std::max_element in hmmlearn), then the path is read back through bp on the device.
 * viterbi_leaves / viterbi_split: the thesis's product chain (TROPMATPRODVITERBI): per-step
 *   matrices M_t[j][i] = T[j][i] + E[o_t][i], multiplied as a tree by tropical_mm (which keeps
 *   argmax indices); viterbi_split walks the tree top-down, one launch per level, filling the
 *   state at each node's split from its index matrix and the states at its two ends.
 *
 * Defines: REAL_IS_DOUBLE, BP_T (uchar / ushort / uint), SP, G, R, LAT_GLOBAL.
 */
#include "real.h"

#define BMS (G * R)
#define WGS (SP * G)

__kernel __attribute__((reqd_work_group_size(SP, G, 1)))
void viterbi_steps(__global const real *T, __global const real *E, __global const real *pi,
                   __global const int *obs, __global const ulong *obs_off,
                   __global const int *lens, __global const int *seq_ids, uint nseq, uint l,
                   __global BP_T *bp, __global const ulong *bp_off, __global real *state,
                   uint t0, uint t1, __local real *llat, __global real *glat) {
    uint sx = get_local_id(0), gy = get_local_id(1);
    uint wg = get_group_id(0);
#if LAT_GLOBAL
    __global real *lat = glat + (ulong)wg * 2 * l * BMS;
#define LAT_FENCE CLK_GLOBAL_MEM_FENCE
#else
    __local real *lat = llat;
#define LAT_FENCE CLK_LOCAL_MEM_FENCE
#endif
    /* Sequence slot g*R + r of this group; -1 pads the last group. */
    int sid[R];
    uint len[R];
    ulong ooff[R], boff[R];
    uint tmax = 0;
    for (uint r = 0; r < R; r++) {
        uint slot = wg * BMS + gy * R + r;
        sid[r] = slot < nseq ? seq_ids[slot] : -1;
        len[r] = sid[r] >= 0 ? (uint)lens[sid[r]] : 0;
        ooff[r] = sid[r] >= 0 ? obs_off[sid[r]] : 0;
        boff[r] = sid[r] >= 0 ? bp_off[sid[r]] : 0;
    }
    for (uint s = 0; s < BMS; s++) { /* the group's longest sequence bounds its loop */
        uint slot = wg * BMS + s;
        if (slot < nseq) tmax = max(tmax, (uint)lens[seq_ids[slot]]);
    }
    uint tend = min(t1, tmax);

    /* lattice of time t in half (t & 1): lat[(t&1)*l*BMS + i*BMS + slot] */
    if (t0 == 0) {
        for (uint i = sx; i < l; i += SP)
            for (uint r = 0; r < R; r++)
                lat[i * BMS + gy * R + r] =
                    sid[r] >= 0 ? pi[i] + E[(ulong)obs[ooff[r]] * l + i] : -INFINITY;
    } else {
        uint h = (t0 - 1) & 1;
        for (uint i = sx; i < l; i += SP)
            for (uint r = 0; r < R; r++)
                lat[(h * l + i) * BMS + gy * R + r] =
                    sid[r] >= 0 ? state[(ulong)sid[r] * l + i] : -INFINITY;
    }
    barrier(LAT_FENCE);

    for (uint t = max(t0, 1u); t < tend; t++) {
        uint cur = ((t - 1) & 1) * l * BMS, nxt = (t & 1) * l * BMS;
        for (uint i = sx; i < l; i += SP) {
            real best[R];
            uint arg[R];
            for (uint r = 0; r < R; r++) { best[r] = -INFINITY; arg[r] = 0; }
            for (uint j = 0; j < l; j++) {
                real tji = T[(ulong)j * l + i];
                for (uint r = 0; r < R; r++) {
                    real v = lat[cur + j * BMS + gy * R + r] + tji;
                    if (v >= best[r]) { best[r] = v; arg[r] = j; }
                }
            }
            for (uint r = 0; r < R; r++) {
                uint at = i * BMS + gy * R + r;
                if (t < len[r]) {
                    lat[nxt + at] = best[r] + E[(ulong)obs[ooff[r] + t] * l + i];
                    bp[boff[r] + (ulong)t * l + i] = (BP_T)arg[r];
                } else { /* finished: carry its last row along */
                    lat[nxt + at] = lat[cur + at];
                }
            }
        }
        barrier(LAT_FENCE);
    }

    uint h = ((max(tend, t0 == 0 ? 1u : t0)) - 1) & 1;
    for (uint i = sx; i < l; i += SP)
        for (uint r = 0; r < R; r++)
            if (sid[r] >= 0) state[(ulong)sid[r] * l + i] = lat[(h * l + i) * BMS + gy * R + r];
}

/* One item per sequence: log P, end state, and the path back through bp. */
__kernel void viterbi_trace(__global const real *state, __global const int *lens,
                            __global const ulong *out_off, __global const BP_T *bp,
                            __global const ulong *bp_off, uint nseq, uint l,
                            __global int *path, __global real *logp) {
    uint s = get_global_id(0);
    if (s >= nseq) return;
    __global const real *row = state + (ulong)s * l;
    uint best = 0;
    real v = row[0];
    for (uint i = 1; i < l; i++)
        if (row[i] > v) { v = row[i]; best = i; }
    logp[s] = v;
    uint n = (uint)lens[s];
    ulong o = out_off[s], b = bp_off[s];
    path[o + n - 1] = (int)best;
    for (uint t = n - 1; t > 0; t--) {
        best = bp[b + (ulong)t * l + best];
        path[o + t - 1] = (int)best;
    }
}

/* Product chain leaves: M[leaf][j][i] = T[j][i] + E[o_t][i] for leaf = (sequence s, step t),
 * t = 1 .. n-1; one item per matrix entry (a flat range: leaves can outnumber a grid row). */
__kernel void viterbi_leaves(__global const real *T, __global const real *E,
                             __global const int *obs, __global const ulong *obs_off,
                             __global const uint *leaf_seq, __global const uint *leaf_t,
                             ulong nleaves, uint l, __global real *M) {
    ulong gid = get_global_id(0);
    ulong ll = (ulong)l * l;
    if (gid >= nleaves * ll) return;
    ulong leaf = gid / ll;
    uint e = (uint)(gid % ll); /* j*l + i */
    uint s = leaf_seq[leaf], t = leaf_t[leaf];
    M[gid] = T[e] + E[(ulong)obs[obs_off[s] + t] * l + e % l];
}

/* One level of the product tree, top-down: node v splits at position mid[v] with the state
 * there = I[ioff[v] + path[left[v]] * l + path[right[v]]] (positions into path). */
__kernel void viterbi_split(__global int *path, __global const ulong *left,
                            __global const ulong *right, __global const ulong *mid,
                            __global const ulong *ioff, __global const int *I, uint nodes,
                            uint l) {
    uint v = get_global_id(0);
    if (v >= nodes) return;
    path[mid[v]] = I[ioff[v] + (ulong)path[left[v]] * l + (ulong)path[right[v]]];
}

/* Whole l x l matrices from[v] -> to[v] (block indices), v < count: the product tree's odd
 * node out, carried to the next level. */
__kernel void copy_blocks(__global const real *src, __global real *dst,
                          __global const ulong *from, __global const ulong *to, ulong count,
                          uint ll) {
    ulong gid = get_global_id(0);
    if (gid >= count * ll) return;
    ulong v = gid / ll, e = gid % ll;
    dst[to[v] * ll + e] = src[from[v] * ll + e];
}
