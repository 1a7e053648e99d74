// Replays every golden in shared/golden/segment/: jieba 0.42.1 segmentation
// token for token (HMM on and off) and word-level BLEU / chrF++ on jieba words.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <sstream>

#include "support/test_support.hpp"

namespace {

using evalcli::test::run_cli;

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string path_of(const std::filesystem::path& parent, const nlohmann::json& relative) {
  return (parent / relative.get<std::string>()).string();
}

// A golden of jieba.cut output: every line must be identical.
void check_segmentation(const std::filesystem::path& parent, const nlohmann::json& golden) {
  const bool hmm = golden["options"]["HMM"].get<bool>();
  REQUIRE_FALSE(golden["options"]["cut_all"].get<bool>());
  const auto result = run_cli({"tokenize", "--tokenize", "zh-jieba", "--jieba-hmm", hmm ? "on" : "off", "-i",
                               path_of(parent, golden["inputs"]["text"])});
  REQUIRE(result.exit_code == 0);
  const auto ours = split_lines(result.out);
  const auto& expected = golden["expected"]["lines"];
  REQUIRE(ours.size() == expected.size());
  REQUIRE(expected.size() == golden["expected"]["n_lines"].get<std::size_t>());
  std::size_t identical = 0, tokens = 0;
  for (std::size_t i = 0; i < ours.size(); ++i) {
    const auto want = expected[i].get<std::string>();
    if (ours[i] == want) {
      ++identical;
    } else if (identical + 5 > i) {  // show the first few differences only
      UNSCOPED_INFO(fmt::format("line {}:\n  evalcli: {}\n  jieba:   {}", i + 1, ours[i], want));
    }
    if (!ours[i].empty()) tokens += 1 + static_cast<std::size_t>(std::count(ours[i].begin(), ours[i].end(), ' '));
  }
  INFO(fmt::format("{}: {} of {} lines identical", golden["id"].get<std::string>(), identical, ours.size()));
  CHECK(identical == ours.size());
  CHECK(tokens == golden["expected"]["n_tokens"].get<std::size_t>());
}

// BLEU (and chrF++) over jieba words: evalcli segments inside the metric.
void check_word_bleu(const std::filesystem::path& parent, const nlohmann::json& golden) {
  REQUIRE(golden["options"]["segmentation"].get<std::string>().find("HMM=True") != std::string::npos);
  const std::string hyp = path_of(parent, golden["inputs"]["hyp"]);
  const std::string ref = path_of(parent, golden["inputs"]["refs"][0]);
  const auto& expected = golden["expected"];

  const auto score = run_cli({"bleu", "-tok", "zh-jieba", "-r", ref, "-i", hyp, "-w", "13", "-b"});
  REQUIRE(score.exit_code == 0);
  CHECK(score.out == fmt::format("{:.13f}\n", expected["score"].get<double>()));

  const auto json = run_cli({"bleu", "-tok", "zh-jieba", "-r", ref, "-i", hyp, "--format", "json"});
  REQUIRE(json.exit_code == 0);
  const auto report = nlohmann::json::parse(json.out);
  CHECK(report["score"].get<double>() == expected["score"].get<double>());
  CHECK(report["counts"] == expected["counts"]);
  CHECK(report["totals"] == expected["totals"]);
  CHECK(report["sys_len"].get<double>() == expected["sys_len"].get<double>());
  CHECK(report["ref_len"].get<double>() == expected["ref_len"].get<double>());
}

// chrF++ on jieba words (expected.chrfpp_on_words of the BLEU golden): chrF
// over the zh-jieba pipeline's output, i.e. the words joined by spaces.
void check_word_chrf(const std::filesystem::path& parent, const nlohmann::json& golden) {
  const auto& chrf = golden["expected"]["chrfpp_on_words"];
  const auto run = run_cli({"chrf", "-tok", "zh-jieba", "--chrf-word-order", "2", "-r",
                            path_of(parent, golden["inputs"]["refs"][0]), "-i",
                            path_of(parent, golden["inputs"]["hyp"]), "--format", "json"});
  INFO("evalcli chrf -tok zh-jieba -cw 2: exit " << run.exit_code << ": " << run.err);
  REQUIRE(run.exit_code == 0);
  const auto report = nlohmann::json::parse(run.out);
  CHECK(report["score"].get<double>() == chrf["score"].get<double>());
  CHECK_THAT(report["signature"].get<std::string>(),
             Catch::Contains("|nc:6|nw:2|space:no|beta:2|tok:zh-jieba-v1|ngrams:tok-text-v1|dict:jieba-"));
}

}  // namespace

TEST_CASE("segment goldens: jieba segmentation and word-level scores", "[conformance][segment]") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  const auto files = evalcli::test::golden_files(*parent, "segment");
  REQUIRE_FALSE(files.empty());
  for (const auto& file : files) {
    const auto golden = evalcli::test::read_json(file);
    SECTION(file.filename().string()) {
      if (golden["tool"]["name"] == "jieba") {
        check_segmentation(*parent, golden);
      } else if (golden["tool"]["name"] == "sacrebleu") {
        check_word_bleu(*parent, golden);
      } else {
        FAIL("unknown golden kind in " << file);
      }
    }
  }
}

// chrF++ on jieba words: SacreBLEU's CHRF(word_order=2) over the jieba-segmented
// text joined by spaces, i.e. `evalcli chrf -tok zh-jieba -cw 2` (docs/chrf-ter.md).
TEST_CASE("segment golden: chrF++ on jieba words", "[conformance][segment][chrf]") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  int checked = 0;
  for (const auto& file : evalcli::test::golden_files(*parent, "segment")) {
    const auto golden = evalcli::test::read_json(file);
    if (golden["expected"].contains("chrfpp_on_words")) {
      check_word_chrf(*parent, golden);
      ++checked;
    }
  }
  CHECK(checked == 1);
}
