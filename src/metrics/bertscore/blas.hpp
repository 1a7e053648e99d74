#pragma once
// OpenBLAS, loaded when evalcli bertscore first multiplies (dlopen), not at
// every start: linked in, its thread pool started with every evalcli process
// (memory and start-up of commands that never use it), and under an
// address-space limit its start-up hung. Only the two products the encoder
// and the similarity matrices need.
#include <cblas.h>

namespace evalcli::bertscore {

// C = alpha * op(A) op(B) + beta * C, row-major, as cblas_sgemm / cblas_dgemm.
void sgemm(CBLAS_TRANSPOSE trans_a, CBLAS_TRANSPOSE trans_b, int m, int n, int k, float alpha, const float* a, int lda,
           const float* b, int ldb, float beta, float* c, int ldc);
void dgemm(CBLAS_TRANSPOSE trans_a, CBLAS_TRANSPOSE trans_b, int m, int n, int k, double alpha, const double* a,
           int lda, const double* b, int ldb, double beta, double* c, int ldc);

// Loads the library now; throws Error(missing_resource) with a hint when it is absent.
void load_blas();

}  // namespace evalcli::bertscore
