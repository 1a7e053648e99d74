#pragma once
// Functions compiled twice, one copy picked when the program loads (GCC's
// target_clones, an ifunc): with an instruction set extension where the
// processor has it, else for the x86-64 baseline.
//   EVALCLI_CLONES_FOR_AVX2    AVX2 (twice SSE2's lanes)
//   EVALCLI_CLONES_FOR_POPCNT  POPCNT (the baseline counts bits in a libgcc call)
// EVALCLI_TARGET_CLONES is 1 where the attribute is used. It is not under
// ThreadSanitizer: the instrumented ifunc resolver would run before the
// sanitizer's runtime is set up and crash at load. Elsewhere (not x86-64, not
// GCC/Clang) the macros are empty: one baseline copy.
// Code written with intrinsics of one extension instead marks its functions
// [[gnu::target("avx2")]] and calls them after __builtin_cpu_supports (the
// text scan, BERTScore's kernels): it needs no clone for the baseline.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define EVALCLI_DETAIL_THREAD_SANITIZER 1
#endif
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(__SANITIZE_THREAD__) && \
    !defined(EVALCLI_DETAIL_THREAD_SANITIZER)
#define EVALCLI_TARGET_CLONES 1
#define EVALCLI_CLONES_FOR_AVX2 __attribute__((target_clones("avx2", "default")))
#define EVALCLI_CLONES_FOR_POPCNT __attribute__((target_clones("popcnt", "default")))
#else
#define EVALCLI_TARGET_CLONES 0
#define EVALCLI_CLONES_FOR_AVX2
#define EVALCLI_CLONES_FOR_POPCNT
#endif
