// `evalcli bleu` end to end on arbitrary hypothesis and reference bytes:
// the bytes before the first 0x01 are the references (a file), the rest the
// hypotheses (standard input: universal newlines, tab-separated systems).
// Any input must give a score or a documented error (fuzz_support.hpp).
// Copy this file for another metric's subcommand.
#include <cstdint>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static evalcli::fuzz::ScratchFile refs("bleu-refs.txt");
  const auto [ref_text, hyp_text] = evalcli::fuzz::split_once(evalcli::fuzz::as_text(data, size), '\x01');
  const std::string& ref_path = refs.write(ref_text);
  evalcli::fuzz::run_cli_checked({"bleu", "-r", ref_path, "--sentence-level"}, hyp_text);
  evalcli::fuzz::run_cli_checked({"bleu", "-r", ref_path, "-tok", "char", "-f", "json"}, hyp_text);
  return 0;
}
