// The entry point of a fuzz target built by SwiftPM. SwiftPM links an executable with `main`
// defined as `<Module>_main`, so libFuzzer's own `main` is not used; each target's
// `<Module>_main` hands its LLVMFuzzerTestOneInput to libFuzzer's driver through this call.
#ifndef MSA_FUZZ_DRIVER_H
#define MSA_FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// What libFuzzer calls with each input; returns 0.
typedef int (*msa_fuzz_callback)(const uint8_t *data, size_t size);

/// Runs libFuzzer's driver (flags and corpus directories from argv) on `callback`.
int msa_fuzz_run(int argc, char **argv, msa_fuzz_callback callback);

#endif
