// Signature parsing: parse_signature on any text, then the whole
// `evalcli bleu --signature TEXT` path, which must end in a one-line usage
// error or a score: never an internal error or a crash.
#include <cstdint>

#include "evalcli/core/error.hpp"
#include "evalcli/core/signature.hpp"
#include "fuzz_support.hpp"

namespace {

const std::string& tiny_corpus() {
  static evalcli::fuzz::ScratchFile file("signature-corpus.txt");
  static const std::string path = file.write("the cat sat on the mat\nhello world\n");
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(evalcli::fuzz::as_text(data, size));
  try {
    evalcli::parse_signature(text);
  } catch (const evalcli::Error& e) {
    if (e.code() != evalcli::ExitCode::usage) std::abort();
  }
  if (text.find('\0') != std::string::npos) return 0;  // not passable on a command line
  evalcli::fuzz::run_cli_checked({"bleu", "-r", tiny_corpus(), "-i", tiny_corpus(), "--signature", text});
  return 0;
}
