// ROUGE-1.5.5 setups: the XML settings reader and the -z file-list reader on
// any text (they must end in a settings value or an input error naming the
// file and line, never another error or a crash), and the SEE/SPL/ISI summary
// readers on the same bytes (sentences must be non-empty pieces of their line).
#include <cstdint>
#include <cstdlib>

#include "evalcli/core/error.hpp"
#include "evalcli/metrics/rouge155_setup.hpp"
#include "fuzz_support.hpp"

namespace {

void check_setup(const evalcli::Rouge155Setup& setup) {
  if (setup.evals.empty()) std::abort();
  for (const auto& eval : setup.evals) {
    if (eval.models.empty() || (eval.format != "SEE" && eval.format != "SPL" && eval.format != "ISI")) std::abort();
    for (const auto* files : {&eval.peers, &eval.models}) {
      for (const auto& file : *files) {
        if (file.path.empty() || file.line == 0) std::abort();
      }
    }
  }
}

template <class Parse>
void parse_checked(Parse parse) {
  try {
    check_setup(parse());
  } catch (const evalcli::Error& e) {
    const std::string message = e.what();
    if (e.code() != evalcli::ExitCode::input_data || message.rfind("in.xml:", 0) != 0) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = evalcli::fuzz::as_text(data, size);
  parse_checked([&] { return evalcli::parse_rouge155_settings(text, "in.xml"); });
  parse_checked([&] { return evalcli::parse_rouge155_file_list(text, "in.xml", "SPL", "X"); });
  for (const char* format : {"SEE", "SPL", "ISI"}) {
    for (const auto& sentence : evalcli::read_rouge155_sentences(text, format)) {
      if (sentence.text.empty() || sentence.line == 0 || text.find(sentence.text) == std::string_view::npos) {
        std::abort();
      }
    }
  }
  return 0;
}
