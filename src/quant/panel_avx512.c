// panel_avx512.c — the panel and packed-weight kernels of panel_x86.inc with AVX-512 VL + VNNI:
// vpdpbusd / vpdpwssd as single instructions, 32 vector registers (four tokens per pass), and
// the Q8_0 panel. The same results as the AVX2 build, and as the one-token kernels.
#define QUANT_X86_VNNI 1
#include "quant/panel_x86.inc"
