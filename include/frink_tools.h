// frink_tools.h — developer tools of libfrink, beside its public interface (frink.h): GGUF
// files with random weights and the real shapes of named models (`frink gen`), and the
// measurements `frink bench` reads its figures against (the machine's read bandwidth, each
// weight type's matrix-vector speed).
//
// Installed with frink.h and exported by the same libraries (every name starts with frink_),
// because the frink program is a client of the library like any other and calls them; but
// they are tools for working on frink and on models, not part of the contract frink.h states:
// they may change between versions without notice. Errors, ownership and FRINK_API are as in
// frink.h.
#ifndef FRINK_TOOLS_H
#define FRINK_TOOLS_H

#include "frink.h"

#ifdef __cplusplus
extern "C" {
#endif

// ---- generating models ----------------------------------------------------------------------
// Random-weight GGUF files with the real shapes of named models (F16 matrices, the
// tokenizer copied from a vocabulary file), for parity and speed checks at sizes no
// fixture has. One seed gives one file, byte for byte.

// What frink_gen_model reports while it writes (to frink_gen_params.progress).
typedef struct frink_gen_progress {
    const char *preset, *arch; // the preset written and its general.architecture
    const char *vocab_path;    // where the tokenizer came from
    const char *out_path;
    int n_layers, n_vocab, n_tensors;
    uint64_t total_bytes;      // tensor data, padding not counted
    int percent;               // -1: the header is written and tensor data follows; then
                               // each multiple of 5 the writing reaches, and 100
    const char *tensor;        // the tensor being written (NULL while percent is -1)
} frink_gen_progress;

// Zero-initialize, then set at least preset and out_path.
typedef struct frink_gen_params {
    const char *preset;     // a name from frink_gen_preset_name()
    const char *out_path;   // the GGUF to write (replaced if it exists)
    const char *vocab_path; // GGUF whose tokenizer.* keys are copied (its token count is the
                            // vocabulary size); NULL: the preset's default, a relative path
                            // into frink's source tree, or the embedded model's tokenizer when
                            // that is missing (run elsewhere) or the preset has none
    int n_layers;           // 0: the preset's layer count; otherwise 1..512
    uint64_t seed;          // weights are a function of (seed, tensor name, row); `frink gen`
                            // uses 1 unless told otherwise
    void (*progress)(void *ud, const frink_gen_progress *p); // NULL: no reports
    void *progress_ud;      // handed to progress
} frink_gen_params;

// Writes the file. Fails naming the reason: a bad parameter or unknown preset
// (FRINK_ERR_ARG); a vocabulary that cannot be read (gguf's status, the message
// starting "vocabulary: ") or holds no token list (FRINK_ERR_FORMAT); out_path not
// writable (FRINK_ERR_IO; a partly written file is left behind); FRINK_ERR_NOMEM.
FRINK_API frink_status frink_gen_model(const frink_gen_params *p);
// The preset table, row i (NULL past the end): its name, its architecture, one line
// about it. Static strings.
FRINK_API const char *frink_gen_preset_name(int i);
FRINK_API const char *frink_gen_preset_arch(int i);
FRINK_API const char *frink_gen_preset_about(int i);

// ---- measurement tools ---------------------------------------------------------------------
// What `frink bench` measures below the engine, so that its figures can be read as fractions of
// what the machine and the kernels allow. Each call runs on a thread pool of its own (n_threads
// 0: every hardware thread) and takes seconds.

typedef struct frink_bandwidth {
    double read_gbps;   // the best pass, GB/s
    int threads;        // threads that read
} frink_bandwidth;

// The machine's read bandwidth: reps (>= 1) passes over a 1 GiB buffer (allocated, touched
// and freed by the call) split across the threads; *out gets the best pass.
FRINK_API frink_status frink_measure_bandwidth(int n_threads, int reps, frink_bandwidth *out);

typedef struct frink_kernel_speed {
    const char *type;     // the weight type ("Q4_K"; static)
    int threads;
    double fast_gbps;     // the kernel set in use, GB/s of the type's bytes
    double ref_gbps;      // the scalar reference twins
    double packed_gbps;   // the layout repacked at load; 0 when the type has none on this CPU
} frink_kernel_speed;

// The weight types frink_measure_kernel knows: the name of the i-th, NULL past the end.
FRINK_API const char *frink_kernel_type(int i);
// Matrix-vector throughput of the i-th weight type on a 4096 x 4096 matrix of arbitrary bytes
// (best of 8 runs, 2 for the reference): the kernel set a context runs by default and the
// scalar reference twins. Contexts, evaluating or not, are unaffected.
FRINK_API frink_status frink_measure_kernel(int i, int n_threads, frink_kernel_speed *out);

#ifdef __cplusplus
}
#endif
#endif
