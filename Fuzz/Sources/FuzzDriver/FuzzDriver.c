#include "FuzzDriver.h"

// libFuzzer's driver, in the runtime that -sanitize=fuzzer links (LLVM 12 and later).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *, size_t));

int msa_fuzz_run(int argc, char **argv, msa_fuzz_callback callback) {
  return LLVMFuzzerRunDriver(&argc, &argv, callback);
}
