#include "metrics/bertscore/blas.hpp"

#include <dlfcn.h>

#include <mutex>
#include <string>

#include "evalcli/core/error.hpp"

namespace evalcli::bertscore {
namespace {

using Sgemm = void (*)(CBLAS_ORDER, CBLAS_TRANSPOSE, CBLAS_TRANSPOSE, blasint, blasint, blasint, float, const float*,
                       blasint, const float*, blasint, float, float*, blasint);
using Dgemm = void (*)(CBLAS_ORDER, CBLAS_TRANSPOSE, CBLAS_TRANSPOSE, blasint, blasint, blasint, double, const double*,
                       blasint, const double*, blasint, double, double*, blasint);

struct Library {
  Sgemm sgemm = nullptr;
  Dgemm dgemm = nullptr;
};

// Debian's libopenblas0 (the pthread build through the alternatives system).
constexpr const char* kLibrary = "libopenblas.so.0";

Library open_library() {
  void* handle = dlopen(kLibrary, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    throw Error(ExitCode::missing_resource, std::string("cannot load OpenBLAS (") + kLibrary + "): " + dlerror(),
                "hint: install the Debian package libopenblas0");
  }
  Library library;
  library.sgemm = reinterpret_cast<Sgemm>(dlsym(handle, "cblas_sgemm"));
  library.dgemm = reinterpret_cast<Dgemm>(dlsym(handle, "cblas_dgemm"));
  if (library.sgemm == nullptr || library.dgemm == nullptr) {
    throw Error(ExitCode::missing_resource, std::string(kLibrary) + " has no cblas_sgemm/cblas_dgemm");
  }
  return library;  // the handle stays open until the process ends
}

const Library& library() {
  static const Library loaded = open_library();  // thread-safe initialisation
  return loaded;
}

}  // namespace

void load_blas() { library(); }

void sgemm(CBLAS_TRANSPOSE trans_a, CBLAS_TRANSPOSE trans_b, int m, int n, int k, float alpha, const float* a, int lda,
           const float* b, int ldb, float beta, float* c, int ldc) {
  library().sgemm(CblasRowMajor, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void dgemm(CBLAS_TRANSPOSE trans_a, CBLAS_TRANSPOSE trans_b, int m, int n, int k, double alpha, const double* a,
           int lda, const double* b, int ldb, double beta, double* c, int ldc) {
  library().dgemm(CblasRowMajor, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

}  // namespace evalcli::bertscore
