/* The embedded default model (models/stories260K.gguf, MIT; see models/README.md),
   linked into libfrink so `frink run` works with no file at hand. */
    .section .rodata
    .balign 64
    .globl frink_default_model_data
    .hidden frink_default_model_data
frink_default_model_data:
    .incbin "models/stories260K.gguf"
    .globl frink_default_model_end
    .hidden frink_default_model_end
frink_default_model_end:
    .byte 0
    .section .note.GNU-stack,"",@progbits
