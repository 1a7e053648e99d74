// `evalcli bertscore --lang L`: bert_score's score(lang=L) without model_type
// when the folder is bert_score's model for L (recognised by its name, its
// Hugging Face cache name or config.json's _name_or_path): that model's
// default layer (model2layers) and its name in bert_score's hash. The tiny
// models of ../shared/bertscore are copied under the names of those models;
// their 5 layers show the layer chosen (8 for zh: "the model has 5 layers").
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "support/bertscore_reference.hpp"

namespace fs = std::filesystem;

namespace {

// A copy of a tiny model at `relative` inside a temporary folder (removed at the end).
class ModelCopy {
 public:
  ModelCopy(const fs::path& source, const std::string& relative) {
    static int counter = 0;
    root_ = fs::temp_directory_path() / ("evalcli-lang-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    path_ = root_ / relative;
    fs::create_directories(path_.parent_path());
    fs::copy(source, path_, fs::copy_options::recursive);
  }
  ~ModelCopy() { fs::remove_all(root_); }
  ModelCopy(const ModelCopy&) = delete;
  ModelCopy& operator=(const ModelCopy&) = delete;
  std::string path() const { return path_.string(); }
  // Sets config.json's _name_or_path, as save_pretrained writes it.
  void set_name_or_path(const std::string& origin) const {
    const fs::path config = path_ / "config.json";
    nlohmann::json json = nlohmann::json::parse(std::ifstream(config));
    json["_name_or_path"] = origin;
    std::ofstream(config) << json.dump(2);
  }

 private:
  fs::path root_, path_;
};

evalcli::test::CliResult run_zh(const fs::path& reference, const std::string& model, std::vector<std::string> extra) {
  std::vector<std::string> args = {"bertscore", "--model", model, "-i", (reference / "data/zh.cand").string(),
                                   "-r", (reference / "data/zh.ref").string()};
  args.insert(args.end(), extra.begin(), extra.end());
  return evalcli::test::run_cli(args);
}

}  // namespace

TEST_CASE("bertscore --lang zh: a bert-base-chinese folder gets bert_score's layer 8", "[bertscore]") {
  const auto reference = evalcli::test::bertscore_reference();
  if (!reference) return;
  const fs::path tiny_zh = *reference / "models/tiny-bert-cased-zh";
  const ModelCopy named(tiny_zh, "bert-base-chinese");
  const ModelCopy cached(tiny_zh, "hub/models--google-bert--bert-base-chinese/snapshots/8d2a91f91cc38c96bb8b4556ba70c392f8d5ee55");
  const ModelCopy saved(tiny_zh, "my-chinese-model");
  saved.set_name_or_path("google-bert/bert-base-chinese");
  for (const ModelCopy* copy : {&named, &cached, &saved}) {
    INFO(copy->path());
    const auto run = run_zh(*reference, copy->path(), {"--lang", "zh"});
    CHECK(run.exit_code == 2);
    CHECK(run.err.find("--num-layers 8: the model has 5 layers") != std::string::npos);
  }
  // Upper case as bert_score lower-cases it.
  CHECK(run_zh(*reference, named.path(), {"--lang", "ZH"}).err.find("--num-layers 8:") != std::string::npos);
}

TEST_CASE("bertscore --lang zh --num-layers 5 is bert_score's score(lang='zh', num_layers=5)", "[bertscore]") {
  const auto reference = evalcli::test::bertscore_reference();
  if (!reference) return;
  const ModelCopy named(*reference / "models/tiny-bert-cased-zh", "bert-base-chinese");
  const auto run = run_zh(*reference, named.path(), {"--lang", "zh", "--num-layers", "5", "-f", "json", "-q"});
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  const auto report = nlohmann::json::parse(run.out);
  CHECK(report["bert_score_hash"] == "bert-base-chinese_L5_no-idf_version=0.3.12(hug_trans=4.29.2)");
  const std::string signature = report["signature"];
  CHECK(signature.find("|model:bert-base-chinese|lang:zh|weights:") != std::string::npos);
  // The same numbers as without --lang (the golden of zh.L5.noidf was made with lang='zh').
  const auto plain = run_zh(*reference, (*reference / "models/tiny-bert-cased-zh").string(),
                            {"--num-layers", "5", "-f", "json", "-q"});
  REQUIRE(plain.exit_code == 0);
  CHECK(nlohmann::json::parse(plain.out)["score"] == report["score"]);
  // The signature reads back: given with --signature, the run checks the folder against it.
  const auto again = run_zh(*reference, named.path(), {"--signature", signature, "-q"});
  INFO(again.err);
  CHECK(again.exit_code == 0);
  const auto other = run_zh(*reference, named.path(), {"--signature", signature, "--lang", "en"});
  CHECK(other.exit_code == 2);
}

TEST_CASE("bertscore --lang with a folder that is not the language's model", "[bertscore]") {
  const auto reference = evalcli::test::bertscore_reference();
  if (!reference) return;
  const std::string tiny_zh = (*reference / "models/tiny-bert-cased-zh").string();
  // No default layer: the error says which model the language means and what to give.
  const auto missing = run_zh(*reference, tiny_zh, {"--lang", "zh"});
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("bert_score's model for zh is bert-base-chinese (layer 8)") != std::string::npos);
  CHECK(missing.err.find("give --num-layers") != std::string::npos);
  // With --num-layers it is bert_score's score(model_type=<folder>, lang='zh'): lang changes nothing.
  const auto given = run_zh(*reference, tiny_zh, {"--lang", "zh", "--num-layers", "5", "-f", "json"});
  REQUIRE(given.exit_code == 0);
  CHECK(given.err.find("note: --lang zh changes nothing here") != std::string::npos);
  const auto report = nlohmann::json::parse(given.out);
  CHECK(report["bert_score_hash"] == "tiny-bert-cased-zh_L5_no-idf_version=0.3.12(hug_trans=4.29.2)");
  CHECK(std::string(report["signature"]).find("lang:") == std::string::npos);
  // A language code is letters, digits, '-' and '_' (it is a signature field).
  CHECK(run_zh(*reference, tiny_zh, {"--lang", "z|h", "--num-layers", "5"}).exit_code == 2);
}

TEST_CASE("bertscore --lang en, de and tr name roberta-large, bert-base-multilingual-cased and Turkish BERT",
          "[bertscore]") {
  const auto reference = evalcli::test::bertscore_reference();
  if (!reference) return;
  const ModelCopy roberta(*reference / "models/tiny-roberta", "roberta-large");
  CHECK(run_zh(*reference, roberta.path(), {"--lang", "en"}).err.find("--num-layers 17: the model has 5 layers") !=
        std::string::npos);
  const ModelCopy multilingual(*reference / "models/tiny-bert-cased-zh", "bert-base-multilingual-cased");
  CHECK(run_zh(*reference, multilingual.path(), {"--lang", "de"}).err.find("--num-layers 9: the model has 5 layers") !=
        std::string::npos);
  // bert_score's model for tr has no model2layers entry: bert_score itself needs num_layers.
  const ModelCopy turkish(*reference / "models/tiny-bert-cased-zh", "bert-base-turkish-cased");
  const auto tr = run_zh(*reference, turkish.path(), {"--lang", "tr"});
  CHECK(tr.exit_code == 2);
  CHECK(tr.err.find("bert_score has no default layer for its model dbmdz/bert-base-turkish-cased") != std::string::npos);
  const auto tr5 = run_zh(*reference, turkish.path(), {"--lang", "tr", "--num-layers", "5", "-f", "json", "-q"});
  REQUIRE(tr5.exit_code == 0);
  CHECK(nlohmann::json::parse(tr5.out)["bert_score_hash"] ==
        "dbmdz/bert-base-turkish-cased_L5_no-idf_version=0.3.12(hug_trans=4.29.2)");
}
