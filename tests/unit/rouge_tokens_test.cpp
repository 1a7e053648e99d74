// ROUGE's rule for the tokens of a shared tokenizer, the same in both modes
// (issue #25 item 1, issue #19 item 4): lowercased, kept iff a letter, a digit
// or a Han character (radicals included). Expected values:
// tests/data/rouge_chinese.json, made by rouge-score 0.1.2 and ROUGE-1.5.5.pl
// with tests/data/make_rouge_chinese.py (each case keeps its command).
#include <filesystem>
#include <fstream>

#include "evalcli/metrics/rouge.hpp"
#include "evalcli/text/utf8.hpp"
#include "evalcli/tokenize/tokenizer.hpp"
#include "support/test_support.hpp"

using nlohmann::json;

namespace {

json expected() {
  return json::parse(evalcli::test::read_file(evalcli::test::source_dir() / "tests/data/rouge_chinese.json"));
}

std::string lines_of(const json& pairs, const char* side) {
  std::string text;
  for (const auto& pair : pairs) text += pair[side].get<std::string>() + "\n";
  return text;
}

std::string rouge155_data() {
  return (*evalcli::test::shared_parent() / "shared/corpora/rouge155-data").string();
}

// One SPL file per document and side, and the -z file list "peer model" naming them.
struct FileList {
  std::filesystem::path dir;
  explicit FileList(const json& pairs) {
    dir = std::filesystem::temp_directory_path() / ("evalcli-rouge-tokens-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::ofstream list(dir / "list.txt");
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const auto peer = dir / ("peer" + std::to_string(i) + ".txt");
      const auto model = dir / ("model" + std::to_string(i) + ".txt");
      std::ofstream(peer) << pairs[i]["hyp"].get<std::string>() << "\n";
      std::ofstream(model) << pairs[i]["ref"].get<std::string>() << "\n";
      list << peer.string() << " " << model.string() << "\n";
    }
  }
  ~FileList() { std::filesystem::remove_all(dir); }
  std::string path() const { return (dir / "list.txt").string(); }
};

}  // namespace

TEST_CASE("ROUGE token rule: lowercase, keep letters, digits and Han (radicals too)", "[rouge][tokenizer]") {
  const json data = expected();
  for (const auto& c : data["cases"]) {
    const auto tokenizer = evalcli::make_tokenizer(c["tokenize"].get<std::string>());
    for (std::size_t i = 0; i < data["pairs"].size(); ++i) {
      for (const char* side : {"ref", "hyp"}) {
        const auto text = evalcli::utf8::decode_or_throw(data["pairs"][i][side].get<std::string>(), "test");
        INFO(c["tokenize"] << " pair " << i << " " << side);
        CHECK(json(evalcli::rouge_pipeline_words(tokenizer->tokenize(text))) == c["tokens"][i][side]);
      }
    }
  }
  CHECK(evalcli::rouge_pipeline_words(U"SD ， 。 ⼩ ⻔ 々 〇 ! ε") == evalcli::RougeTokens{"sd", "⼩", "⻔", "々", "〇", "ε"});
}

TEST_CASE("evalcli rouge --tokenize zh-char/zh-jieba: rouge-score's numbers", "[rouge][tokenizer]") {
  const json data = expected();
  const evalcli::test::TempFile ref(lines_of(data["pairs"], "ref")), hyp(lines_of(data["pairs"], "hyp"));
  for (const auto& c : data["cases"]) {
    const std::string tokenizer = c["tokenize"];
    const auto run = evalcli::test::run_cli({"rouge", "-r", ref.path(), "-i", hyp.path(), "--tokenize", tokenizer,
                                             "--types", "rouge1,rouge2,rougeL", "--sentence-level", "-f", "json"});
    INFO(tokenizer << ": " << run.err);
    REQUIRE(run.exit_code == 0);
    const json report = json::parse(run.out);
    const auto& pairs = report["sentences"];
    REQUIRE(pairs.size() == c["rouge_score_per_pair"].size());
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      for (const auto& [type, prf] : c["rouge_score_per_pair"][i].items()) {
        INFO("pair " << i << " " << type);
        CHECK(pairs[i][type]["precision"].get<double>() == prf[0].get<double>());
        CHECK(pairs[i][type]["recall"].get<double>() == prf[1].get<double>());
        CHECK(pairs[i][type]["fmeasure"].get<double>() == prf[2].get<double>());
      }
    }
  }
}

TEST_CASE("evalcli rouge --compat rouge155 --tokenize zh-char/zh-jieba: ROUGE-1.5.5.pl's report", "[rouge][tokenizer]") {
  if (!evalcli::test::shared_parent()) return;
  const json data = expected();
  const FileList list(data["pairs"]);
  for (const auto& c : data["cases"]) {
    const std::string tokenizer = c["tokenize"];
    const auto run = evalcli::test::run_cli(
        {"rouge", "--compat", "rouge155", "--rouge155-data", rouge155_data(), "--rouge155-flags",
         "-z SPL " + c["rouge155_flags"].get<std::string>(), "--rouge155-config", list.path(), "--tokenize", tokenizer,
         "--rouge155-output"});
    INFO(tokenizer << ": " << run.err);
    REQUIRE(run.exit_code == 0);
    CHECK(run.out == c["rouge155_stdout"].get<std::string>());
  }
}

TEST_CASE("ROUGE signatures name the token rule and jieba's dictionary, --jieba-dict", "[rouge][tokenizer]") {
  const evalcli::test::TempFile ref("SD卡很好\n"), hyp("sd卡\n");
  auto signature_of = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"rouge", "-r", ref.path(), "-i", hyp.path(), "-f", "json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto run = evalcli::test::run_cli(args);
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    return json::parse(run.out)["signature"].get<std::string>();
  };
  const std::string jieba = signature_of({"--tokenize", "zh-jieba"});
  CHECK_THAT(jieba, Catch::Contains("|tok:zh-jieba-v1+words-v2|dict:jieba-0.42.1-sha256.7197c3211ddd|"));
  CHECK_THAT(signature_of({"--tokenize", "zh-char"}), Catch::Contains("|tok:zh-char-v1+words-v2|"));
  CHECK_THAT(signature_of({}), Catch::Contains("|tok:rouge-ascii-v1|"));

  // Read back: the same run; an older rule or another dictionary is refused by name.
  CHECK(evalcli::test::run_cli({"rouge", "-r", ref.path(), "-i", hyp.path(), "--signature", jieba}).exit_code == 0);
  std::string old_rule = jieba;
  old_rule.replace(old_rule.find("+words-v2"), 9, "");
  const auto old = evalcli::test::run_cli({"rouge", "-r", ref.path(), "-i", hyp.path(), "--signature", old_rule});
  CHECK(old.exit_code == 2);
  CHECK_THAT(old.err, Catch::Contains("words-v1"));
  std::string other_dict = jieba;
  other_dict.replace(other_dict.find("sha256.") + 7, 12, "000000000000");
  CHECK(evalcli::test::run_cli({"rouge", "-r", ref.path(), "-i", hyp.path(), "--signature", other_dict}).exit_code == 2);

  // A user dictionary is used and named (user-sha256.), in both modes.
  const evalcli::test::TempFile dictionary("SD卡 100 n\n卡 5 n\n很好 10 a\n");
  const std::string user = signature_of({"--tokenize", "zh-jieba", "--jieba-dict", dictionary.path()});
  CHECK_THAT(user, Catch::Contains("|dict:user-sha256."));
  if (!evalcli::test::shared_parent()) return;
  const std::string r155 = signature_of({"--compat", "rouge155", "--rouge155-data", rouge155_data(), "--tokenize",
                                         "zh-jieba", "--jieba-dict", dictionary.path()});
  CHECK_THAT(r155, Catch::Contains("|tok:zh-jieba-v1+words-v2+hexids|dict:user-sha256."));
}
