// panel_avx2.c — the AVX2 build of the panel and packed-weight kernels (panel_x86.inc, where
// they, their layouts and their numerics are described). Compiled with -mavx2 -mfma -mf16c
// (Makefile rule for *_avx2.c).
#include "quant/panel_x86.inc"
