// quant_avx512.c — the integer kernels of quant_x86.inc again, with AVX-512 VL + VNNI.
//
// Compiled with -mavx512vl -mavx512vnni (Makefile rule for *_avx512.c) and selected only after
// quant.c has seen AVX-512 F/BW/VL/DQ and VNNI on the CPU. The vectors stay 256 bits wide: the
// gain is vpdpbusd / vpdpwssd fusing the widening multiply-add with the accumulation, not
// width (on CPUs that split 512-bit operations in two, wider vectors buy nothing for these
// kernels). The results are bit-identical to the AVX2 kernels, so the numerics, and every golden
// file the parity tests hold, do not depend on which of the two a machine runs.
#define QUANT_X86_VNNI 1
#include "quant/quant_x86.inc"
