// path_cuda.h — the "cuda" layer path's step entry points on the seam (model/path.h).
#ifndef FRINK_PATH_CUDA_H
#define FRINK_PATH_CUDA_H

#include "model/path.h"

// begin uploads the run's rows to the executor's device buffer, end downloads them; layers
// has nothing to run yet (the path implements no feature, path.c, so no run is ever planned on
// it) and fails naming the layer if one is. Both builds: without CUDA, state_create fails as
// every device call does (src/cuda/stub.c).
extern const struct path_ops cuda_path_ops;

#endif
