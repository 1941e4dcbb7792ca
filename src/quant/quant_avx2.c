// quant_avx2.c — the AVX2 / FMA / F16C build of the x86 one-token kernels (quant_x86.inc, where
// they and their numerics are described). Compiled with -mavx2 -mfma -mf16c (Makefile rule for
// *_avx2.c); its kernels carry the suffix _avx2.
#include "quant/quant_x86.inc"
