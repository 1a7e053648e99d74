// evalcli/cli/library.hpp: in-memory scoring gives the command's numbers,
// signature and --stats-out shard; merging shard texts gives one run's result.
#include "evalcli/cli/library.hpp"

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "evalcli/core/error.hpp"
#include "evalcli/text/utf8.hpp"
#include "support/test_support.hpp"

namespace evalcli {
namespace {

const std::vector<std::string> kHyps = {"The cat sat on the mat .", "A dog barks loudly", "Zürich liegt am See."};
const std::vector<std::string> kRefs = {"The cat sat on a mat.", "The dog barks loudly", "Zürich liegt am Zürichsee."};

cli::SegmentTexts texts(std::size_t first, std::size_t count) {
  cli::SegmentTexts t;
  for (std::size_t i = first; i < first + count; ++i) {
    t.hyps.push_back(utf8::decode_or_throw(kHyps[i], "hyp"));
    t.refs.push_back({utf8::decode_or_throw(kRefs[i], "ref")});
  }
  return t;
}

std::string lines(const std::vector<std::string>& texts) {
  std::string out;
  for (const auto& text : texts) out += text + "\n";
  return out;
}

TEST_CASE("library: a session scores as the command and writes its shard") {
  const test::TempFile hyp(lines(kHyps)), ref(lines(kRefs)), shard("", ".json");
  const auto run = test::run_cli({"chrf", "-i", hyp.path(), "-r", ref.path(), "--chrf-word-order", "2", "--format",
                                  "json", "--stats-out", shard.path()});
  REQUIRE(run.exit_code == 0);
  const auto report = nlohmann::json::parse(run.out);

  const cli::MetricSession session("chrf", {{"chrf-word-order", {"2"}}}, "");
  const cli::MetricResult result = session.score(texts(0, 3));
  CHECK(result.scores.front().score == report["score"].get<double>());
  CHECK(result.signature == report["signature"].get<std::string>());
  CHECK(result.sacrebleu_signature.rfind("nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:evalcli-", 0) == 0);
  CHECK(result.scores.front().sentence_scores.size() == 3);

  auto written = nlohmann::json::parse(test::read_file(shard.path()));
  written.erase("test_set");
  written["systems"][0]["system"] = "hyp";
  CHECK(nlohmann::json::parse(result.shard_json) == written);

  const cli::MetricResult summary = session.score(texts(0, 3), /*details=*/false);
  CHECK(summary.scores.front().score == result.scores.front().score);
  CHECK(summary.shard_json.empty());
  CHECK(summary.scores.front().sentence_scores.empty());
}

TEST_CASE("library: merged shard texts are one run's result") {
  const cli::MetricSession session("bleu", {{"tokenize", {"intl"}}}, "");
  const auto whole = session.score(texts(0, 3));
  const auto first = session.score(texts(0, 2));
  const auto second = session.score(texts(2, 1));
  const auto merged = cli::merge_shard_texts({first.shard_json, second.shard_json}, {"a", "b"});
  CHECK(merged.scores.front().score == whole.scores.front().score);
  CHECK(merged.stats.totals == whole.stats.totals);
  CHECK(merged.shard_json == whole.shard_json);
  const cli::MetricSession other("bleu", {}, "");
  CHECK_THROWS_WITH(cli::merge_shard_texts({first.shard_json, other.score(texts(2, 1)).shard_json}, {"a", "b"}),
                    Catch::Contains("tok"));
}

TEST_CASE("library: options and signatures are checked as on the command line") {
  CHECK_THROWS_WITH(cli::MetricSession("bleu", {{"max-ngram-order", {"99"}}}, ""), Catch::Contains("max-ngram-order"));
  CHECK_THROWS_WITH(cli::MetricSession("bleu", {{"no-such", {"1"}}}, ""), Catch::Contains("has no option --no-such"));
  CHECK_THROWS_WITH(cli::MetricSession("bleu", {{"lowercase", {"maybe"}}}, ""), Catch::Contains("true or false"));
  CHECK_THROWS_WITH(cli::MetricSession("blue", {}, ""), Catch::Contains("unknown metric 'blue'"));
  const cli::MetricSession plain("bleu", {{"tokenize", {"char"}}}, "");
  const auto result = plain.score(texts(0, 3));
  const cli::MetricSession signed_session("bleu", {}, result.signature);
  CHECK(signed_session.score(texts(0, 3)).scores.front().score == result.scores.front().score);
  CHECK_THROWS_WITH(cli::MetricSession("bleu", {{"tokenize", {"intl"}}}, result.signature),
                    Catch::Contains("cannot be combined"));
  cli::SegmentTexts two_refs = texts(0, 3);
  for (auto& refs : two_refs.refs) refs.push_back(refs.front());
  CHECK_THROWS_WITH(signed_session.score(two_refs), Catch::Contains("nrefs"));
  cli::SegmentTexts none = texts(0, 1);
  none.refs.front().clear();
  CHECK_THROWS_WITH(plain.score(none), Catch::Contains("segment 1 has no reference"));
}

TEST_CASE("library: SacreBLEU's Score.format of a session's totals") {
  const cli::MetricSession session("bleu", {}, "");
  const auto result = session.score(texts(0, 3));
  const std::string text = session.sacrebleu_format(result.stats.totals, 2, false, "", false);
  CHECK(text.rfind("BLEU = ", 0) == 0);
  CHECK(text.find("(BP = ") != std::string::npos);
  CHECK(session.sacrebleu_format(result.stats.totals, 1, true, "", false).find('=') == std::string::npos);
  CHECK_THROWS_WITH(session.sacrebleu_format(std::vector<double>{1.0}, 2, false, "", false), Catch::Contains("statistics given"));
}

}  // namespace
}  // namespace evalcli

namespace evalcli {
namespace {

// Captions whose PTB tokens depend on the caption after them ("wii U." before
// "A ..." loses its period): images alternate which side has it.
cli::SegmentTexts look_ahead_texts(std::size_t images, std::string& ref1, std::string& ref2, std::string& hyp) {
  cli::SegmentTexts t;
  for (std::size_t k = 0; k < images; ++k) {
    const char* const ref_end = k % 3 == 1 ? "U." : "u";
    const std::string r1 = fmt::format("A kid holds the wii {}", ref_end);
    const std::string r2 = fmt::format("A person {} plays with a wii {}", k, ref_end);
    const std::string h = fmt::format("A person {} plays with a wii {}", k, k % 3 == 1 ? "u" : "U.");
    ref1 += r1 + "\n";
    ref2 += r2 + "\n";
    hyp += h + "\n";
    t.hyps.push_back(utf8::decode_or_throw(h, "hyp"));
    t.refs.push_back({utf8::decode_or_throw(r1, "ref"), utf8::decode_or_throw(r2, "ref")});
  }
  return t;
}

TEST_CASE("library: coco-bleu/coco-rouge read the captions after each image, also across a Run's blocks") {
  std::string ref1, ref2, hyp;
  const cli::SegmentTexts all = look_ahead_texts(25, ref1, ref2, hyp);
  const test::TempFile ref1_file(ref1), ref2_file(ref2), hyp_file(hyp);
  for (const std::string command : {"coco-bleu", "coco-rouge"}) {
    INFO(command);
    const auto cli_run = test::run_cli({command, "-f", "json", "-r", ref1_file.path(), "-r", ref2_file.path(), "-i",
                                        hyp_file.path()});
    REQUIRE(cli_run.exit_code == 0);
    const auto report = nlohmann::json::parse(cli_run.out);
    const cli::MetricSession session(command, {}, "");
    const cli::MetricResult whole = session.score(all);
    CHECK(whole.scores.front().score == report["score"].get<double>());
    // In blocks of 4 (a block's last image waits for the next block's first).
    cli::MetricSession::Run run(session, true);
    for (std::size_t first = 0; first < all.hyps.size(); first += 4) {
      cli::SegmentTexts block;
      for (std::size_t i = first; i < std::min(first + 4, all.hyps.size()); ++i) {
        block.hyps.push_back(all.hyps[i]);
        block.refs.push_back(all.refs[i]);
      }
      run.add(block);
    }
    const cli::MetricResult in_blocks = run.finish();
    CHECK(in_blocks.scores.front().score == whole.scores.front().score);
    CHECK(in_blocks.scores.front().sentence_scores == whole.scores.front().sentence_scores);
    // score_segments: each image's row as in the corpus run.
    const auto segments = session.score_segments(all);
    CHECK(segments.sentence_scores == whole.scores.front().sentence_scores);
  }
}

}  // namespace
}  // namespace evalcli
