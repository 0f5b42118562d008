/* Optimal alignment of three sequences (seed 004, Li, Ranka & Sahni): the SLOPED partitioning.
 *
 * H has a cell (i, j, k) for every prefix triple of A (length n1), B (n2), C (n3). A column of
 * the alignment has a type t = 1..7, the mask of the rows holding a residue (bit 0 A, bit 1 B,
 * bit 2 C); a column of type t ends at cell c and starts at c - delta(t).
 *
 * Linear gaps (the seed's recurrence, eq. 1-7): H(c) = max_t H(c - delta(t)) + obj(t), where
 * obj sums the substitution scores of the pairs with two residues and G2 = 2 * gap for the two
 * residue-gap pairs of every column but type 7.
 *
 * Affine gaps (beyond the seed): sum-of-pairs with one column of memory (Gotoh 1986). A pair
 * with one residue in a column pays `extend` when the column before gives the pair the same
 * status (the same row gapped, the other row a residue), else `open`; two gaps cost nothing.
 * A cell keeps one value per type of the column ending there, H_t; what it hands to the next
 * column is P_u(c) = max_t (H_t(c) + gap(t -> u)) = NG(u) * open + max_t (H_t(c) + NCONT(t, u)
 * * (extend - open)) for every type u of the next column (NG = pairs gapped in u: 2, or 0 for
 * u = 7; NCONT = pairs whose gap goes on), so a successor reads one value from each of its
 * seven predecessors, and H_t(c) = colsub(t) + P_t(c - delta(t)). P_7 = max_t H_t is the
 * score. The start (cell 0,0,0) opens every gap: P_u = NG(u) * open.
 *
 * Partitioning. SLOPED computes plane q = i + j + k after plane q - 1 (a cell needs planes q-1,
 * q-2, q-3). Tiles are prisms in (i, j, q): RT = R * S rows, TJ columns, TQ planes; tile
 * (ci, cj, cq) needs only tiles with each coordinate one lower or equal, so one launch per
 * tile diagonal ci + cj + cq runs every tile of it, one work-group each, and no work-group
 * waits for another (nothing assumes co-resident work-groups). Every work-item of a tile is
 * busy at every plane; only cells with k outside 0..n3 are wasted, at the ends of the k axis.
 * Work-item (s, jl) owns column J0 + jl of strip s, R rows: the rows are independent within
 * a plane (row r needs row r - 1's previous planes, kept in registers), column jl - 1's last
 * planes come through local memory (one barrier a plane), and so does the last row of strip
 * s - 1. Neighbouring tiles hand over faces through global memory, indexed by k so that they
 * are the size of the face and no more:
 *   iface[ci][j][k]  the last row of tile row ci (what row I0 of tile row ci + 1 reads),
 *   jface[cj][i][k]  the last column of tile column cj,
 *   qf1/qf2/qf3      planes Q0+TQ-1, -2, -3 of a tile (what the next tile in q reads): one
 *                    slot per tile (traceback) or one per tile column, overwritten (score).
 * three_trace recomputes only the tiles on the optimal path from those faces (the seed's
 * BT2/BT3 phase 3) with a move per cell, walking back one tile at a time.
 *
 * Defines: R (rows per work-item), S (strips per work-group), TJ (columns), TQ (planes),
 * AFFINE (0 or 1). Residue codes index a 32 x 32 substitution matrix (alphabet.MAXK).
 */
#include "common.h"

#define RT (R * S)
#define WG (S * TJ)
#define NP (TQ + 2)            /* planes of the input faces: Q0-3 .. Q0+TQ-2 */
#define NC (TQ + RT + TJ)      /* residue codes of C a tile reads */
#define ALPHA 32

#if AFFINE
typedef int8 cell_t;   /* P1..P7 in s0..s6 */
typedef int4 xrec;     /* column j -> j+1: P2 P6 P3 P7 */
typedef int2 urec;     /* row i -> i+1, same column: P1 P5 */
typedef int2 vrec;     /* row i -> i+1, next column: P3 P7 */
typedef int4 irec;     /* a stored row: P1 P5 P3 P7 */
typedef int4 q2rec;    /* plane Q0-2: P5 P6 P3 P7 */
typedef uint dir_t;    /* per next-column type u, 3 bits: the best type of the column ending here */
#define X_OF(c) ((int4)((c).s1, (c).s5, (c).s2, (c).s6))
#define U_OF(c) ((int2)((c).s0, (c).s4))
#define I_OF(c) ((int4)((c).s0, (c).s4, (c).s2, (c).s6))
#define Q2_OF(c) ((int4)((c).s4, (c).s5, (c).s2, (c).s6))
#define Q3_OF(c) ((c).s6)
#define P1_OF(c) ((c).s0)
#define P4_OF(c) ((c).s3)
#define P5_OF(c) ((c).s4)
#define XP2(x) ((x).s0)
#define XP6(x) ((x).s1)
#define XP3(x) ((x).s2)
#define XP7(x) ((x).s3)
#define X_V(x) ((x).s23)
#define I_U(r) ((r).s01)
#define I_V(r) ((r).s23)
#define UP1(u) ((u).s0)
#define UP5(u) ((u).s1)
#define VP3(v) ((v).s0)
#define VP7(v) ((v).s1)
#define Q2P5(q) ((q).s0)
#define Q2_X(q) ((int4)(NEG_INF, (q).s1, (q).s2, (q).s3))  /* P2 of plane q-2 is never read */
#define Q2_V(q) ((q).s23)
#define NEG_CELL ((int8)(NEG_INF))
#define NEG_X ((int4)(NEG_INF))
#define NEG_U ((int2)(NEG_INF))
#define NEG_I ((int4)(NEG_INF))
#define NEG_Q2 ((int4)(NEG_INF))
#define SCORE_OF(c) ((c).s6)
#else
typedef int cell_t;    /* H */
typedef int xrec;
typedef int urec;
typedef int vrec;
typedef int irec;
typedef int q2rec;
typedef uchar dir_t;   /* the type of the column ending here */
#define X_OF(c) (c)
#define U_OF(c) (c)
#define I_OF(c) (c)
#define Q2_OF(c) (c)
#define Q3_OF(c) (c)
#define P1_OF(c) (c)
#define P4_OF(c) (c)
#define P5_OF(c) (c)
#define XP2(x) (x)
#define XP6(x) (x)
#define XP3(x) (x)
#define XP7(x) (x)
#define X_V(x) (x)
#define I_U(r) (r)
#define I_V(r) (r)
#define UP1(u) (u)
#define UP5(u) (u)
#define VP3(v) (v)
#define VP7(v) (v)
#define Q2P5(q) (q)
#define Q2_X(q) (q)
#define Q2_V(q) (q)
#define NEG_CELL NEG_INF
#define NEG_X NEG_INF
#define NEG_U NEG_INF
#define NEG_I NEG_INF
#define NEG_Q2 NEG_INF
#define SCORE_OF(c) (c)
#endif

/* Scores of one call: linear g2 = 2 * gap; affine o2 = 2 * open, de = extend - open. */
typedef struct {
    int g2;
    int o2;
    int de;
} gaps_t;

#define FIRST_MAX(best, cand, t, d) if ((cand) == (best) && (d) == 0) (d) = (t)

/* One cell from what its seven predecessors hand over (v_t: across a column of type t). */
inline cell_t cell_value(int v1, int v2, int v3, int v4, int v5, int v6, int v7,
                         int sab, int sac, int sbc, const gaps_t g, const int want_dir,
                         dir_t *dir)
{
#if AFFINE
    const int h1 = v1, h2 = v2, h4 = v4;
    const int h3 = v3 + sab, h5 = v5 + sac, h6 = v6 + sbc;
    const int h7 = v7 + sab + sac + sbc;
    const int d = g.de, dd = 2 * g.de;
    /* NCONT(t, u): pair gaps of a type-u column that go on from a type-t column */
    int8 p;
    p.s0 = g.o2 + max(max(max(h1 + dd, h3 + d), max(h5 + d, h2)), max(max(h4, h6), h7));
    p.s1 = g.o2 + max(max(max(h2 + dd, h3 + d), max(h6 + d, h1)), max(max(h4, h5), h7));
    p.s2 = g.o2 + max(max(max(h3 + dd, h1 + d), max(h2 + d, h4)), max(max(h5, h6), h7));
    p.s3 = g.o2 + max(max(max(h4 + dd, h5 + d), max(h6 + d, h1)), max(max(h2, h3), h7));
    p.s4 = g.o2 + max(max(max(h5 + dd, h1 + d), max(h4 + d, h2)), max(max(h3, h6), h7));
    p.s5 = g.o2 + max(max(max(h6 + dd, h2 + d), max(h4 + d, h1)), max(max(h3, h5), h7));
    p.s6 = max(max(max(h1, h2), max(h3, h4)), max(max(h5, h6), h7));
    p.s7 = 0;
    if (want_dir) {
        /* the first type t reaching each P_u, 3 bits (t - 1) per u */
        const int h[7] = {h1, h2, h3, h4, h5, h6, h7};
        const int nc[7][7] = {{2, 0, 1, 0, 1, 0, 0}, {0, 2, 1, 0, 0, 1, 0},
                              {1, 1, 2, 0, 0, 0, 0}, {0, 0, 0, 2, 1, 1, 0},
                              {1, 0, 0, 1, 2, 0, 0}, {0, 1, 0, 1, 0, 2, 0},
                              {0, 0, 0, 0, 0, 0, 0}};
        const int ps[7] = {p.s0, p.s1, p.s2, p.s3, p.s4, p.s5, p.s6};
        uint bits = 0;
        for (int u = 0; u < 7; u++) {
            const int base = (u == 6) ? 0 : g.o2;
            int best = 0;
            for (int t = 6; t >= 0; t--)
                if (base + h[t] + nc[u][t] * g.de == ps[u]) best = t;
            bits |= (uint)best << (3 * u);
        }
        *dir = bits;
    }
    return p;
#else
    const int c7 = v7 + sab + sac + sbc;
    const int c3 = v3 + sab + g.g2;
    const int c5 = v5 + sac + g.g2;
    const int c6 = v6 + sbc + g.g2;
    const int c1 = v1 + g.g2, c2 = v2 + g.g2, c4 = v4 + g.g2;
    const int h = max(max(max(c7, c3), max(c5, c6)), max(max(c1, c2), c4));
    if (want_dir) {
        uchar d = 0;
        FIRST_MAX(h, c7, 7, d);
        FIRST_MAX(h, c3, 3, d);
        FIRST_MAX(h, c5, 5, d);
        FIRST_MAX(h, c6, 6, d);
        FIRST_MAX(h, c1, 1, d);
        FIRST_MAX(h, c2, 2, d);
        FIRST_MAX(h, c4, 4, d);
        *dir = d;
    }
    return h;
#endif
}

inline cell_t origin_cell(const gaps_t g)
{
#if AFFINE
    return (int8)(g.o2, g.o2, g.o2, g.o2, g.o2, g.o2, 0, 0);
#else
    return 0;
#endif
}

/* Everything one tile needs to know about the problem. */
typedef struct {
    int n1, n2, n3, nj;          /* lengths; tile columns */
    gaps_t g;
} geom_t;

/* Plane p of cell (i, j) of a neighbouring tile's face, read at a tile's start. */
inline int face_k(int p, int i, int j, int n3)
{
    const int k = p - i - j;
    return (k >= 0 && k <= n3) ? k : -1;
}

/* One tile, fill (store faces, score) or trace (store a move per cell) mode.
 * slot_in < 0: the tile is its column's first in q, everything before it lies at k < 0. */
inline void tile(const int ci, const int cj, const int cq, const long slot_in,
                 const long slot_out, const int trace, const geom_t G,
                 __global const uchar *sa, __global const uchar *sb, __global const uchar *sc,
                 __global const int *sub,
                 __global irec *iface, __global xrec *jface,
                 __global cell_t *qf1, __global q2rec *qf2, __global int *qf3,
                 __global int *result, __global dir_t *dirs,
                 __local int *subl, __local uchar *ccl, __local xrec *xb, __local urec *ub,
                 __local irec *il, __local xrec *jl)
{
    const int lid = get_local_id(0);
    const int s = lid / TJ, jl_ = lid % TJ;
    const int I0 = ci * RT, J0 = cj * TJ, Q0 = cq * TQ;
    const int j = J0 + jl_;
    const int i0 = I0 + s * R;   /* this work-item's first row */
    const int n1 = G.n1, n2 = G.n2, n3 = G.n3;

    /* -- load the substitution matrix, C's codes and the faces of the tiles before ---------- */
    for (int x = lid; x < ALPHA * ALPHA; x += WG) subl[x] = sub[x];
    const int kmin = Q0 - (I0 + RT - 1) - (J0 + TJ - 1);
    for (int x = lid; x < NC; x += WG) {
        const int k = kmin + x;
        ccl[x] = (k >= 1 && k <= n3) ? sc[k - 1] : 0;
    }
    for (int x = lid; x < (TJ + 1) * NP; x += WG) {
        const int col = x / NP, p = Q0 - 3 + x % NP;
        const int jj = J0 - 1 + col;
        const int k = face_k(p, I0 - 1, jj, n3);
        irec v = NEG_I;
        if (I0 > 0 && jj >= 0 && jj <= n2 && k >= 0)
            v = iface[((long)(ci - 1) * (n2 + 1) + jj) * (n3 + 1) + k];
        il[x] = v;
    }
    for (int x = lid; x < RT * NP; x += WG) {
        const int row = x / NP, p = Q0 - 3 + x % NP;
        const int ii = I0 + row;
        const int k = face_k(p, ii, J0 - 1, n3);
        xrec v = NEG_X;
        if (J0 > 0 && ii <= n1 && k >= 0)
            v = jface[((long)(cj - 1) * (n1 + 1) + ii) * (n3 + 1) + k];
        jl[x] = v;
    }

    /* -- this work-item's rows: codes, A x B scores, the planes before the tile ---------- */
    const int bcode = (j >= 1 && j <= n2) ? sb[j - 1] : 0;
    int arow[R], sab[R];
    cell_t own1[R];      /* plane q-1, own cells */
    int own2[R];         /* plane q-2, own cells: P5 */
    xrec xa[R];          /* plane q-2, column j-1 */
    int xb7[R];          /* plane q-3, column j-1: P7 */
    const long qbase_in = slot_in * (RT * TJ);
#pragma unroll
    for (int r = 0; r < R; r++) {
        const int i = i0 + r;
        arow[r] = ((i >= 1 && i <= n1) ? sa[i - 1] : 0) * ALPHA;
        const long at = qbase_in + (s * R + r) * TJ + jl_;
        own1[r] = (slot_in >= 0) ? qf1[at] : NEG_CELL;
        own2[r] = (slot_in >= 0) ? Q2P5(qf2[at]) : NEG_INF;
        if (jl_ > 0) {
            xa[r] = (slot_in >= 0) ? Q2_X(qf2[at - 1]) : NEG_X;
            xb7[r] = (slot_in >= 0) ? qf3[at - 1] : NEG_INF;
        }
    }
    /* the row above this strip: (i0 - 1, j) and (i0 - 1, j - 1) */
    int up5;             /* plane q-2: P5 of (i0-1, j) */
    vrec uxa;            /* plane q-2: P3 P7 of (i0-1, j-1) */
    int uxb7;            /* plane q-3: P7 of (i0-1, j-1) */
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);   /* il, jl, subl, ccl */
#pragma unroll
    for (int r = 0; r < R; r++) sab[r] = subl[arow[r] + bcode];
    if (jl_ == 0) {
#pragma unroll
        for (int r = 0; r < R; r++) {
            xa[r] = jl[(s * R + r) * NP + 1];      /* plane Q0-2 */
            xb7[r] = XP7(jl[(s * R + r) * NP]);    /* plane Q0-3 */
        }
    }
    if (s == 0) {
        up5 = UP5(I_U(il[(jl_ + 1) * NP + 1]));
        uxa = I_V(il[jl_ * NP + 1]);
        uxb7 = VP7(I_V(il[jl_ * NP]));
    } else {
        const long at = qbase_in + (s * R - 1) * TJ + jl_;
        up5 = (slot_in >= 0) ? Q2P5(qf2[at]) : NEG_INF;
        if (jl_ > 0) {
            uxa = (slot_in >= 0) ? Q2_V(qf2[at - 1]) : NEG_U;
            uxb7 = (slot_in >= 0) ? qf3[at - 1] : NEG_INF;
        } else {
            uxa = X_V(jl[(s * R - 1) * NP + 1]);
            uxb7 = XP7(jl[(s * R - 1) * NP]);
        }
    }
    /* residue codes of C move down one row a plane: keep them (and B x C) in registers */
    int cc[R], sbc[R];
#pragma unroll
    for (int r = 0; r + 1 < R; r++) {
        /* row r + 1 at plane Q0, shifted into row r + 1 by the first plane */
        const int x = (RT - 1 - s * R - (r + 1)) + (TJ - 1 - jl_);
        cc[r] = ccl[x];
        sbc[r] = subl[bcode * ALPHA + cc[r]];
    }
    cc[R - 1] = 0;
    sbc[R - 1] = 0;
    /* hand plane Q0-1 to the neighbours as if it had just been computed */
    {
        const int par = (Q0 - 1) & 1;
#pragma unroll
        for (int r = 0; r < R; r++)
            xb[((par * S + s) * R + r) * TJ + jl_] = X_OF(own1[r]);
        ub[(par * S + s) * TJ + jl_] = U_OF(own1[R - 1]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    const long qbase_out = slot_out * (RT * TJ);
    for (int st = 0; st < TQ; st++) {
        const int q = Q0 + st;
        const int par = (q - 1) & 1;
        /* what column j-1 and the row above computed at plane q-1 */
        xrec xn[R];
#pragma unroll
        for (int r = 0; r < R; r++)
            xn[r] = (jl_ > 0) ? xb[((par * S + s) * R + r) * TJ + jl_ - 1]
                              : jl[(s * R + r) * NP + st + 2];
        urec un;
        vrec vn;
        if (s > 0) {
            un = ub[(par * S + s - 1) * TJ + jl_];
            vn = (jl_ > 0) ? X_V(xb[((par * S + s - 1) * R + R - 1) * TJ + jl_ - 1])
                           : X_V(jl[(s * R - 1) * NP + st + 2]);
        } else {
            un = I_U(il[(jl_ + 1) * NP + st + 2]);
            vn = I_V(il[jl_ * NP + st + 2]);
        }
        /* C's codes: row 0 reads the next one, the others take the row above's */
#pragma unroll
        for (int r = R - 1; r > 0; r--) {
            cc[r] = cc[r - 1];
            sbc[r] = sbc[r - 1];
        }
        cc[0] = ccl[st + (RT - 1 - s * R) + (TJ - 1 - jl_)];
        sbc[0] = subl[bcode * ALPHA + cc[0]];
        /* rows from the last: row r reads row r - 1's older planes before they move on */
        const int kb = q - i0 - j;     /* k of row 0 */
#pragma unroll
        for (int r = R - 1; r >= 0; r--) {
            const int k = kb - r;
            const int v1 = (r > 0) ? P1_OF(own1[r - 1]) : UP1(un);
            const int v5 = (r > 0) ? own2[r - 1] : up5;
            const int v3 = (r > 0) ? XP3(xa[r - 1]) : VP3(uxa);
            const int v7 = (r > 0) ? xb7[r - 1] : uxb7;
            const int sac = subl[arow[r] + cc[r]];
            dir_t d = 0;
            cell_t c = cell_value(v1, XP2(xn[r]), v3, P4_OF(own1[r]), v5, XP6(xa[r]), v7,
                                  sab[r], sac, sbc[r], G.g, trace, &d);
            const int i = i0 + r;
            if (k < 0) c = NEG_CELL;
            if (k == 0 && i == 0 && j == 0) c = origin_cell(G.g);
            own2[r] = P5_OF(own1[r]);
            own1[r] = c;
            xb7[r] = XP7(xa[r]);
            xa[r] = xn[r];
            const int inside = (k >= 0 && k <= n3 && i <= n1 && j <= n2);
            if (trace) {
                dirs[((st * S + s) * R + r) * TJ + jl_] = d;
            } else {
                if (inside && jl_ == TJ - 1 && cj + 1 < G.nj)
                    jface[((long)cj * (n1 + 1) + i) * (n3 + 1) + k] = X_OF(c);
                if (inside && s == S - 1 && r == R - 1 && i < n1)
                    iface[((long)ci * (n2 + 1) + j) * (n3 + 1) + k] = I_OF(c);
                if (inside && i == n1 && j == n2 && k == n3)
                    result[0] = SCORE_OF(c);
                const long at = qbase_out + (s * R + r) * TJ + jl_;
                if (st == TQ - 1) qf1[at] = c;
                if (st == TQ - 2) qf2[at] = Q2_OF(c);
                if (st == TQ - 3) qf3[at] = Q3_OF(c);
            }
        }
        uxb7 = VP7(uxa);
        uxa = vn;
        up5 = UP5(un);
        /* hand plane q on */
        const int pw = q & 1;
#pragma unroll
        for (int r = 0; r < R; r++)
            xb[((pw * S + s) * R + r) * TJ + jl_] = X_OF(own1[r]);
        ub[(pw * S + s) * TJ + jl_] = U_OF(own1[R - 1]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

#define TILE_LOCALS                                                                         \
    __local int subl[ALPHA * ALPHA];                                                        \
    __local uchar ccl[NC];                                                                  \
    __local xrec xb[2 * S * R * TJ];                                                        \
    __local urec ub[2 * S * TJ];                                                            \
    __local irec il[(TJ + 1) * NP];                                                         \
    __local xrec jl[RT * NP]

/* The q-face slot of tile (ci, cj, cq) when every tile keeps its own: base[] numbers the tile
 * columns' first tiles, a column's tiles start at plane I0 + J0. */
inline long tile_slot(int ci, int cj, int cq, int nj, __global const int *base)
{
    return (long)base[ci * nj + cj] + (cq - (ci * RT + cj * TJ) / TQ);
}

/* One launch per tile diagonal: tiles[first + group] = (ci, cj, cq, -). per_tile: the
 * traceback keeps every tile's q-face; otherwise a tile column reuses one slot. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void three_fill(const int n1, const int n2, const int n3, const int nj,
                const int g2, const int o2, const int de,
                __global const uchar *sa, __global const uchar *sb, __global const uchar *sc,
                __global const int *sub, __global const int4 *tiles, const int first,
                const int per_tile, __global const int *base,
                __global irec *iface, __global xrec *jface,
                __global cell_t *qf1, __global q2rec *qf2, __global int *qf3,
                __global int *result)
{
    TILE_LOCALS;
    const int4 t = tiles[first + get_group_id(0)];
    const int lo = (t.x * RT + t.y * TJ) / TQ;
    long slot_in, slot_out;
    if (per_tile) {
        slot_out = tile_slot(t.x, t.y, t.z, nj, base);
        slot_in = (t.z > lo) ? slot_out - 1 : -1;
    } else {
        slot_out = (long)t.x * nj + t.y;
        slot_in = (t.z > lo) ? slot_out : -1;
    }
    const geom_t G = {n1, n2, n3, nj, {g2, o2, de}};
    tile(t.x, t.y, t.z, slot_in, slot_out, 0, G, sa, sb, sc, sub, iface, jface, qf1, qf2,
         qf3, result, 0, subl, ccl, xb, ub, il, jl);
}

/* Phase 3 in one work-group: recompute the tile holding the path's current cell with a move
 * per cell, follow the moves until the path leaves the tile, go on in the tile it enters.
 * pos = (i, j, k, u): the current cell and the type of the column after it (7 at the end).
 * moves[0..count) receive the column types from the last column to the first. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void three_trace(const int n1, const int n2, const int n3, const int nj,
                 const int g2, const int o2, const int de,
                 __global const uchar *sa, __global const uchar *sb, __global const uchar *sc,
                 __global const int *sub, __global const int *base,
                 __global irec *iface, __global xrec *jface,
                 __global cell_t *qf1, __global q2rec *qf2, __global int *qf3,
                 __global dir_t *dirs, __global int *pos, __global uchar *moves,
                 __global int *count)
{
    TILE_LOCALS;
    __local int cur[5];
    const int lid = get_local_id(0);
    if (lid == 0) {
        cur[0] = pos[0]; cur[1] = pos[1]; cur[2] = pos[2]; cur[3] = pos[3]; cur[4] = 0;
    }
    const geom_t G = {n1, n2, n3, nj, {g2, o2, de}};
    const int limit = n1 + n2 + n3 + 1;
    for (int round = 0; round < limit; round++) {
        barrier(CLK_LOCAL_MEM_FENCE);
        const int i = cur[0], j = cur[1], k = cur[2];
        if ((i | j | k) == 0) break;
        const int ci = i / RT, cj = j / TJ, cq = (i + j + k) / TQ;
        const int lo = (ci * RT + cj * TJ) / TQ;
        const long slot = tile_slot(ci, cj, cq, nj, base);
        tile(ci, cj, cq, (cq > lo) ? slot - 1 : -1, slot, 1, G, sa, sb, sc, sub, iface, jface,
             qf1, qf2, qf3, 0, dirs, subl, ccl, xb, ub, il, jl);
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        if (lid == 0) {
            int ii = i, jj = j, kk = k, u = cur[3], n = cur[4];
            const int I0 = ci * RT, J0 = cj * TJ, Q0 = cq * TQ;
            while ((ii | jj | kk) != 0 && ii >= I0 && jj >= J0 && ii + jj + kk >= Q0) {
                const int li = ii - I0;
                const int at = (((ii + jj + kk - Q0) * S + li / R) * R + li % R) * TJ + jj - J0;
#if AFFINE
                const int t = (int)((dirs[at] >> (3 * (u - 1))) & 7u) + 1;
#else
                const int t = dirs[at];
#endif
                moves[n++] = (uchar)t;
                ii -= t & 1;
                jj -= (t >> 1) & 1;
                kk -= (t >> 2) & 1;
                u = t;
            }
            cur[0] = ii; cur[1] = jj; cur[2] = kk; cur[3] = u; cur[4] = n;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) count[0] = cur[4];
}
