// Caption inputs of `evalcli cider`: the JSONL reader on the bytes before the
// first 0x01, the COCO reader on the rest (annotations, then results after a
// 0x02). Malformed files must be input errors.
#include <cstdint>
#include <cstdlib>

#include "evalcli/core/error.hpp"
#include "evalcli/io/caption_inputs.hpp"
#include "fuzz_support.hpp"

namespace {

template <typename Read>
void expect_input_error_or_success(Read read) {
  try {
    read();
  } catch (const evalcli::Error& e) {
    if (e.code() != evalcli::ExitCode::input_data) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static evalcli::fuzz::ScratchFile jsonl("captions.jsonl"), annotations("annotations.json"),
      results("results.json");
  const auto [jsonl_text, coco_text] = evalcli::fuzz::split_once(evalcli::fuzz::as_text(data, size), '\x01');
  const auto [annotations_text, results_text] = evalcli::fuzz::split_once(coco_text, '\x02');
  const std::string& jsonl_path = jsonl.write(jsonl_text);
  expect_input_error_or_success([&] {
    evalcli::io::check_every_item_has_references(evalcli::io::read_jsonl_captions(jsonl_path, {}), jsonl_path);
  });
  const std::string& annotations_path = annotations.write(annotations_text);
  const std::string& results_path = results.write(results_text);
  expect_input_error_or_success([&] { evalcli::io::read_coco_captions(annotations_path, results_path); });
  return 0;
}
