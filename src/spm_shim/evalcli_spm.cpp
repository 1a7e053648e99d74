// libevalcli_spm.so: evalcli_spm.h over sentencepiece::SentencePieceProcessor.
#include "evalcli_spm.h"

#include <sentencepiece_processor.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

struct evalcli_spm {
  sentencepiece::SentencePieceProcessor processor;
};

namespace {

void write_error(const std::string& message, char* error, size_t error_size) {
  if (error == nullptr || error_size == 0) return;
  const size_t n = std::min(message.size(), error_size - 1);
  std::memcpy(error, message.data(), n);
  error[n] = '\0';
}

}  // namespace

extern "C" {

int evalcli_spm_abi_version(void) { return EVALCLI_SPM_ABI_VERSION; }

evalcli_spm* evalcli_spm_load(const char* path, char* error, size_t error_size) {
  try {
    auto* model = new evalcli_spm;
    const auto status = model->processor.Load(path);
    if (status.ok()) return model;
    write_error(status.ToString(), error, error_size);
    delete model;
  } catch (const std::exception& e) {
    write_error(e.what(), error, error_size);
  }
  return nullptr;
}

void evalcli_spm_free(evalcli_spm* model) { delete model; }

int evalcli_spm_piece_size(const evalcli_spm* model) { return model->processor.GetPieceSize(); }

int evalcli_spm_piece_to_id(const evalcli_spm* model, const char* piece, size_t size) {
  try {
    return model->processor.PieceToId(std::string(piece, size));
  } catch (const std::exception&) {
    return 0;
  }
}

long evalcli_spm_encode(const evalcli_spm* model, const char* text, size_t size, int* ids, size_t capacity) {
  try {
    std::vector<int> out;
    if (!model->processor.Encode(std::string(text, size), &out).ok()) return -1;
    std::copy_n(out.begin(), std::min(out.size(), capacity), ids);
    return static_cast<long>(out.size());
  } catch (const std::exception&) {
    return -1;
  }
}

}  // extern "C"
