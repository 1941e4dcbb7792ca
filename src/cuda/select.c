// select.c — which device a model's plan uses (both builds: it asks cuda.cu or stub.c for
// devices). The choice is the model's (frink_model_params.device, else FRINK_DEVICE; the model
// keeps it), never a process-wide one. The default is the CPU: nothing CUDA is chosen unless a
// model or FRINK_DEVICE=cuda asks for it, and then a build or a machine that cannot honour it is
// an error, not a fallback.
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "cuda/cuda.h"

// 1 cuda, 0 cpu, -1 (cuda unavailable) or -2 (unknown name) with err; `what` names where the
// name came from, for the message.
static int parse_device(const char *what, const char *name, char *err, size_t cap) {
    if (!strcmp(name, "cpu")) return 0;
    if (strcmp(name, "cuda")) {
        if (cap) snprintf(err, cap, "%s '%s': unknown device (cuda or cpu)", what, name);
        return -2;
    }
    char why[256];
    int n = cuda_device_count(why, sizeof why);
    if (n < 0) {
        if (cap) snprintf(err, cap, "%s cuda: %s", what, why);
        return -1;
    }
    if (n == 0) {
        if (cap) snprintf(err, cap, "%s cuda: no CUDA device on this machine", what);
        return -1;
    }
    return 1;
}

int cuda_parse_device(const char *name, char *err, size_t cap) { return parse_device("device", name ? name : "", err, cap); }

int cuda_plan_device(char *err, size_t cap) {
    const char *env = getenv("FRINK_DEVICE");
    if (!env || !*env) return 0;
    return parse_device("FRINK_DEVICE", env, err, cap);
}
