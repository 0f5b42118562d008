/* The floating type of distance kernels: float64 by default (same trees as scikit-bio),
 * float32 when REAL_IS_DOUBLE is 0. */
#ifndef BIOPLUG_REAL_H
#define BIOPLUG_REAL_H

#if REAL_IS_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real;
#else
typedef float real;
#endif

#endif
