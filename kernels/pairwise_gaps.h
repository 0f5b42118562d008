/* Gap scores of the pairwise kernels, read from an array `gaps` in
 * bioplug.alphabet.GAP_FIELDS order (A = target, down the rows; B = query, along the columns;
 * O open, E extend; L / R the left / right end gaps); and the substitution matrix copied to
 * local memory for the reverse passes. */
#ifndef BIOPLUG_PAIRWISE_GAPS_H
#define BIOPLUG_PAIRWISE_GAPS_H
#define G_OA   gaps[0]
#define G_EA   gaps[1]
#define G_OB   gaps[2]
#define G_EB   gaps[3]
#define G_LOA  gaps[4]
#define G_LEA  gaps[5]
#define G_LOB  gaps[6]
#define G_LEB  gaps[7]
#define G_ROA  gaps[8]
#define G_REA  gaps[9]
#define G_ROB  gaps[10]
#define G_REB  gaps[11]

/* The K x K substitution matrix in local memory as maxk x maxk, zero-padded (the reverse
 * passes index it by code pairs). Every work-item of the group must call it (barrier). */
inline void local_matrix(__local int *rmat, __global const int *matrix, const int K,
                         const int maxk)
{
    for (int q = get_local_id(0); q < maxk * maxk; q += get_local_size(0)) {
        const int a = q / maxk, b = q % maxk;
        rmat[q] = (a < K && b < K) ? matrix[a * K + b] : 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}
#endif
