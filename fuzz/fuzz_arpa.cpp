// ARPA n-gram model loading, and KenLM probing and trie binaries (mapped in place;
// seeds kenlm-probing-*, kenlm-*trie-*), (plain or compressed: the bytes go through a file,
// so magic-byte detection and decompression are fuzzed too), then scoring a
// short sentence with whatever loaded. Malformed models must be input errors.
#include <cstdint>
#include <cstdlib>
#include <sstream>

#include "evalcli/core/error.hpp"
#include "evalcli/metrics/ppl.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static evalcli::fuzz::ScratchFile model_file("model.arpa");
  const std::string& path = model_file.write(evalcli::fuzz::as_text(data, size));
  std::ostringstream warnings;
  std::unique_ptr<evalcli::ppl::NgramModel> model;
  try {
    model = evalcli::ppl::NgramModel::load(path, &warnings);
  } catch (const evalcli::Error& e) {
    if (e.code() != evalcli::ExitCode::input_data) std::abort();
    return 0;
  }
  auto state = model->begin_sentence_state();
  for (std::string_view word : {"a", "b", "<unk>", "</s>"}) {
    evalcli::ppl::NgramModel::State next;
    model->score(state, model->index(word), next);
    state = next;
  }
  return 0;
}
