#include "metrics/bertscore/sentencepiece.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include <filesystem>

#include "evalcli/core/error.hpp"
#include "evalcli/text/utf8.hpp"
#include "metrics/bertscore/unicode_classes.hpp"
#include "spm_shim/evalcli_spm.h"

namespace evalcli::bertscore {
namespace {

namespace fs = std::filesystem;

constexpr int kFairseqOffset = 1;  // fairseq's dictionary puts <s>, <pad>, </s>, <unk> first
constexpr int kBos = 0;
constexpr int kPad = 1;
constexpr int kEos = 2;
constexpr int kUnknown = 3;
constexpr const char* kShim = "libevalcli_spm.so";

struct Shim {
  decltype(&evalcli_spm_load) load = nullptr;
  decltype(&evalcli_spm_free) free = nullptr;
  decltype(&evalcli_spm_piece_size) piece_size = nullptr;
  decltype(&evalcli_spm_piece_to_id) piece_to_id = nullptr;
  decltype(&evalcli_spm_encode) encode = nullptr;
};

// Where libevalcli_spm.so may be, from the directory of the binary holding this
// code: beside it (the build tree's evalcli), one level up (the test binary in
// build/tests/) and the installed private library directory (EVALCLI_SPM_DIR,
// relative to bin/: cmake/Install.cmake).
std::vector<fs::path> shim_candidates() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&shim_candidates), &info) == 0 || info.dli_fname == nullptr) return {};
  std::error_code ec;
  fs::path binary = fs::canonical(fs::path(info.dli_fname), ec);
  if (ec) binary = info.dli_fname;
  const fs::path dir = binary.parent_path();
  return {dir / kShim, dir.parent_path() / kShim, dir / EVALCLI_SPM_DIR / kShim};
}

void* open_shim() {
  std::string errors;
  for (const fs::path& candidate : shim_candidates()) {
    if (!fs::exists(candidate)) continue;
    if (void* handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL)) return handle;
    errors += fmt::format(" {}", dlerror());  // found but unloadable: libsentencepiece missing
  }
  throw Error(ExitCode::missing_resource,
              fmt::format("cannot load {} (evalcli's SentencePiece wrapper, for XLM-R models){}", kShim,
                          errors.empty() ? std::string(": not installed beside evalcli") : ":" + errors),
              "hint: install the Debian package libsentencepiece0 and evalcli's own package in full");
}

template <typename Function>
void resolve(void* handle, const char* name, Function& out) {
  out = reinterpret_cast<Function>(dlsym(handle, name));
  if (out == nullptr) throw Error(ExitCode::missing_resource, fmt::format("{} has no {}", kShim, name));
}

Shim open_library() {
  void* handle = open_shim();  // stays open until the process ends
  decltype(&evalcli_spm_abi_version) abi_version = nullptr;
  resolve(handle, "evalcli_spm_abi_version", abi_version);
  if (abi_version() != EVALCLI_SPM_ABI_VERSION) {
    throw Error(ExitCode::missing_resource, fmt::format("{} is of another evalcli version (interface {}, not {})",
                                                        kShim, abi_version(), EVALCLI_SPM_ABI_VERSION));
  }
  Shim shim;
  resolve(handle, "evalcli_spm_load", shim.load);
  resolve(handle, "evalcli_spm_free", shim.free);
  resolve(handle, "evalcli_spm_piece_size", shim.piece_size);
  resolve(handle, "evalcli_spm_piece_to_id", shim.piece_to_id);
  resolve(handle, "evalcli_spm_encode", shim.encode);
  return shim;
}

const Shim& shim() {
  static const Shim loaded = open_library();  // thread-safe initialisation
  return loaded;
}

}  // namespace

struct SentencepieceTokenizer::Model {
  evalcli_spm* handle = nullptr;
  ~Model() {
    if (handle != nullptr) shim().free(handle);
  }
};

SentencepieceTokenizer::SentencepieceTokenizer(const std::string& model_path, SentencepieceSettings settings)
    : settings_(std::move(settings)), model_(std::make_unique<Model>()) {
  char error[512] = "";
  model_->handle = shim().load(model_path.c_str(), error, sizeof error);
  if (model_->handle == nullptr) {
    throw Error(ExitCode::missing_resource, fmt::format("{}: cannot load the SentencePiece model: {}", model_path, error));
  }
}

SentencepieceTokenizer::~SentencepieceTokenizer() = default;

// XLMRobertaTokenizer._convert_token_to_id for a special-token string.
int SentencepieceTokenizer::special_id(const std::u32string& token) const {
  if (token == U"<s>") return kBos;
  if (token == U"<pad>") return kPad;
  if (token == U"</s>") return kEos;
  if (token == U"<unk>") return kUnknown;
  if (token == U"<mask>") return shim().piece_size(model_->handle) + kFairseqOffset;
  const std::string text = utf8::encode(token);
  const int id = shim().piece_to_id(model_->handle, text.data(), text.size());
  return id == 0 ? kUnknown : id + kFairseqOffset;
}

// _tokenize then _convert_token_to_id: a piece SentencePiece maps to its <unk> (id 0) is <unk>.
void SentencepieceTokenizer::append_pieces(const std::u32string& text, std::vector<int>& ids) const {
  const std::string utf8_text = utf8::encode(text);
  std::vector<int> pieces(utf8_text.size() + 1);  // SentencePiece makes at most one piece per byte
  long n = shim().encode(model_->handle, utf8_text.data(), utf8_text.size(), pieces.data(), pieces.size());
  if (n > static_cast<long>(pieces.size())) {
    pieces.resize(static_cast<std::size_t>(n));
    n = shim().encode(model_->handle, utf8_text.data(), utf8_text.size(), pieces.data(), pieces.size());
  }
  if (n < 0) throw input_error("SentencePiece could not encode a sentence");
  for (long i = 0; i < n; ++i) ids.push_back(pieces[i] == 0 ? kUnknown : pieces[i] + kFairseqOffset);
}

std::vector<int> SentencepieceTokenizer::encode(std::u32string_view sentence) const {
  std::vector<int> ids;
  for (const TextPiece& piece : split_special_tokens(python_strip(sentence), settings_.specials)) {
    if (piece.special) {
      ids.push_back(special_id(piece.text));
    } else {
      append_pieces(piece.text, ids);
    }
  }
  // truncation=True at model_max_length counts <s> and </s>: the end goes.
  const std::size_t room = settings_.model_max_length > 2 ? settings_.model_max_length - 2 : 0;
  if (ids.size() > room) ids.resize(room);
  ids.insert(ids.begin(), kBos);
  ids.push_back(kEos);
  return ids;
}

}  // namespace evalcli::bertscore
