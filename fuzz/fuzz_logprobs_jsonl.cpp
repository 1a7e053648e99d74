// The log-probability JSONL reader of `evalcli ppl --logprobs`: every line of
// the input is one document; invalid JSON, wrong fields or inconsistent
// lengths must be input errors naming the line.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "evalcli/core/error.hpp"
#include "evalcli/metrics/ppl.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view rest = evalcli::fuzz::as_text(data, size);
  std::vector<std::string> warnings;
  const auto base = size > 0 && data[0] % 3 == 1 ? evalcli::ppl::LogBase::ten : evalcli::ppl::LogBase::e;
  for (;;) {
    const auto end = rest.find('\n');
    try {
      evalcli::ppl::score_document(rest.substr(0, end), base, "fuzz.jsonl:1", warnings);
    } catch (const evalcli::Error& e) {
      if (e.code() != evalcli::ExitCode::input_data) std::abort();
    }
    if (end == std::string_view::npos) break;
    rest.remove_prefix(end + 1);
  }
  return 0;
}
