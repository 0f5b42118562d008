/* Shared definitions for every bioplug kernel. */
#ifndef BIOPLUG_COMMON_H
#define BIOPLUG_COMMON_H

/* "Minus infinity" for integer DP: far below any real score, far enough from INT_MIN that a
 * few additions of gap scores cannot wrap around. */
#define NEG_INF (-(1 << 29))

#endif
