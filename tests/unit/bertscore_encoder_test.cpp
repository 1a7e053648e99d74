// The encoder forward pass against transformers' hidden states
// (../shared/bertscore/golden/<model>/hidden_states.en3.safetensors: every
// layer's output for three sentences, from bert_score's model in float32).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "evalcli/core/error.hpp"
#include "metrics/bertscore/model_folder.hpp"
#include "metrics/bertscore/safetensors.hpp"
#include "support/bertscore_reference.hpp"

namespace fs = std::filesystem;
using namespace evalcli::bertscore;

namespace {

std::vector<int> input_ids(const SafetensorsFile& file, const std::string& name) {
  const TensorInfo* info = file.find(name);
  REQUIRE(info != nullptr);
  std::vector<int> ids;
  for (std::int64_t i = 0; i < info->elements(); ++i) {
    std::int64_t id;
    std::memcpy(&id, info->bytes.data() + 8 * i, 8);
    ids.push_back(static_cast<int>(id));
  }
  return ids;
}

// The largest |ours - transformers'| over every layer and sentence.
double hidden_state_gap(const fs::path& model, const fs::path& golden) {
  const SafetensorsFile expected(golden.string());
  double gap = 0;
  const int layers = ModelFolder(model.string(), -1).config().num_hidden_layers;
  for (int layer = 0; layer <= layers; ++layer) {
    const ModelFolder folder(model.string(), layer);
    for (int s = 0; s < 3; ++s) {
      const std::string prefix = "s" + std::to_string(s) + ".";
      const std::vector<float> states = expected.to_float32(prefix + "hidden_states");
      const auto ours = folder.encoder().forward({input_ids(expected, prefix + "input_ids")});
      const std::size_t per_layer = ours[0].values.size();
      REQUIRE(states.size() == per_layer * (layers + 1));
      for (std::size_t i = 0; i < per_layer; ++i) {
        gap = std::max(gap, std::abs(double(ours[0].values[i]) - states[layer * per_layer + i]));
      }
    }
  }
  return gap;
}

}  // namespace

TEST_CASE("the encoder gives transformers' hidden states at every layer", "[bertscore][encoder]") {
  const auto reference = evalcli::test::bertscore_reference();
  if (!reference) return;
  for (const std::string model : {"tiny-bert-uncased", "tiny-bert-cased-zh", "tiny-roberta"}) {
    INFO(model);
    CHECK(hidden_state_gap(*reference / "models" / model, *reference / "golden" / model / "hidden_states.en3.safetensors") < 2e-5);
  }
}

TEST_CASE("hub weight names (bert. prefix, LayerNorm gamma/beta) load the same model", "[bertscore][encoder]") {
  const auto reference = evalcli::test::bertscore_reference();
  if (!reference) return;
  const ModelFolder plain((*reference / "models/tiny-bert-uncased").string(), 5);
  const ModelFolder hub((*reference / "models/tiny-bert-uncased-hubkeys").string(), 5);
  const std::vector<std::vector<int>> ids = {{2, 100, 200, 300, 3}};
  CHECK(plain.encoder().forward(ids)[0].values == hub.encoder().forward(ids)[0].values);
}

TEST_CASE("a folder with pytorch_model.bin alone says how to convert it (exit 4)", "[bertscore][encoder]") {
  const auto reference = evalcli::test::bertscore_reference();
  if (!reference) return;
  const fs::path folder = fs::temp_directory_path() / ("evalcli-bertscore-bin-" + std::to_string(::getpid()));
  fs::create_directories(folder);
  for (const char* name : {"config.json", "vocab.txt", "tokenizer_config.json", "special_tokens_map.json"}) {
    fs::copy_file(*reference / "models/tiny-bert-uncased" / name, folder / name, fs::copy_options::overwrite_existing);
  }
  std::ofstream(folder / "pytorch_model.bin") << "pickle";
  try {
    ModelFolder(folder.string(), 1);
    FAIL("no error");
  } catch (const evalcli::Error& e) {
    CHECK(e.code() == evalcli::ExitCode::missing_resource);
    CHECK(std::string(e.what()).find("pytorch_model.bin") != std::string::npos);
    CHECK(e.hint().find("safe_serialization=True") != std::string::npos);
  }
  fs::remove_all(folder);
}
