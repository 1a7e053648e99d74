// METEOR 1.5 pieces: normaliser, Java hashing, the paraphrase module on a
// small hand-written table, multi-reference choice, configuration errors.
// Expected values were printed by METEOR 1.5 built from cmu-mtlab/meteor@57a9ec5
// (Normalizer main, and Meteor with -a on the gzipped table below).
#include "evalcli/metrics/meteor15.hpp"

#include <cmath>

#include "metrics/meteor/meteor15_internal.hpp"
#include "evalcli/core/error.hpp"
#include "evalcli/text/utf8.hpp"
#include "support/test_support.hpp"

namespace {

namespace m15 = evalcli::meteor15;
using evalcli::Meteor15;
using evalcli::Meteor15Options;

std::filesystem::path resources() {
  return evalcli::test::source_dir().parent_path() / "shared" / "corpora" / "meteor15";
}

std::string normalize(const std::string& line, bool keep_punctuation) {
  Meteor15Options options;
  options.resources_dir = resources();
  options.normalization = keep_punctuation ? evalcli::Meteor15Normalization::norm
                                           : evalcli::Meteor15Normalization::norm_nopunct;
  options.modules = {"exact"};
  const Meteor15 metric(options);
  std::string out;
  for (const auto& w : metric.words(evalcli::utf8::decode_or_throw(line, "test"))) {
    if (!out.empty()) out += ' ';
    out += evalcli::utf8::encode(w);
  }
  return out;
}

}  // namespace

TEST_CASE("METEOR 1.5: Java String.hashCode and StringTokenizer", "[meteor15]") {
  CHECK(m15::java_hash(U"hello") == 99162322);
  CHECK(m15::java_hash(U"") == 0);
  CHECK(m15::java_hash(U"\U0001F600") == 1772899);  // a surrogate pair: 0xD83D, 0xDE00
  CHECK(m15::java_length(U"a\U0001F600") == 3);
  CHECK(m15::string_tokenizer_split(U" a\tb\u00A0c  ") == std::vector<std::u32string>{U"a", U"b\u00A0c"});
}

TEST_CASE("METEOR 1.5: -norm and -norm -noPunct as Normalizer.normalizeLine (+ lowercasing)", "[meteor15]") {
  if (!std::filesystem::is_directory(resources())) {
    CHECK_FALSE(evalcli::test::running_in_ci());
    return;
  }
  CHECK(normalize("Mr. Smith's car isn't red.", true) == "mr. smith 's car isn 't red .");
  CHECK(normalize("The U.S.-based firm paid 3,5 dollars... \"really\" -- ok!", true) ==
        "the us based firm paid 3,5 dollars ... \" really \" - ok !");
  CHECK(normalize("It's 1990's e.g. fine. No. 5 is here", true) == "it 's 1990 's eg fine . no. 5 is here");
  CHECK(normalize("Mr. Smith's car isn't red.", false) == "mr smith s car isn t red");
  CHECK(normalize("The U.S.-based firm paid 3,5 dollars... \"really\" -- ok!", false) ==
        "the us based firm paid 3 5 dollars really ok");
}

TEST_CASE("METEOR 1.5: paraphrase module on a small table", "[meteor15]") {
  if (!std::filesystem::is_directory(resources())) {
    CHECK_FALSE(evalcli::test::running_in_ci());
    return;
  }
  // METEOR's table format: probability, reference phrase, paraphrase (3 lines per entry).
  evalcli::test::TempFile table("0.5\nthe car\nthe automobile\n0.3\nvery big\nhuge\n0.2\nquickly\nfast\n");
  evalcli::test::TempFile hyp("the automobile is huge\nhe ran fast and the car was very big\nnothing matches here\n");
  evalcli::test::TempFile ref("the car is very big\nhe ran quickly and the automobile was huge\nnothing at all\n");
  const auto result = evalcli::test::run_cli(
      {"meteor", "--compat", "meteor15", "--meteor-resources", resources().string(), "--norm", "norm", "-m",
       "exact paraphrase", "--paraphrase-table", table.path(), "-r", ref.path(), "-i", hyp.path(), "-f", "json",
       "--sentence-level"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto report = nlohmann::json::parse(result.out);
  CHECK(report["eval_id"] == "meteor-1.5-wo-en-norm-0.85_0.2_0.6_0.75-ex_pa-1.0_0.6");
  CHECK(report["sentences"][0]["score"].get<double>() == 0.6383725008768852);
  CHECK(report["sentences"][1]["score"].get<double>() == 0.7463493780421848);
  CHECK(report["sentences"][2]["score"].get<double>() == 0.2142857142857143);
  CHECK(report["score"].get<double>() == 0.43599361278821025);
}

TEST_CASE("METEOR 1.5: identical sentences score 1, empty ones 0", "[meteor15]") {
  if (!std::filesystem::is_directory(resources())) {
    CHECK_FALSE(evalcli::test::running_in_ci());
    return;
  }
  Meteor15Options options;
  options.resources_dir = resources();
  options.modules = {"exact", "stem", "synonym"};
  const Meteor15 metric(options);
  CHECK(metric.score_pair(U"the cat sat on the mat", U"the cat sat on the mat").score == 1.0);
  CHECK(metric.score_pair(U"", U"").score == 0.0);
  CHECK(metric.score_pair(U"cat", U"").score == 0.0);
  // Perfect segments store 0 chunks: METEOR leaves them out of system sums.
  CHECK(metric.score_pair(U"a b", U"a b").stats[Meteor15::kNumStats - 3] == 0);
}

TEST_CASE("METEOR 1.5: configuration errors", "[meteor15]") {
  evalcli::test::TempFile hyp("a b\n"), ref("a b\n");
  auto run = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"meteor", "--compat", "meteor15", "-r", ref.path(), "-i", hyp.path()};
    args.insert(args.end(), extra.begin(), extra.end());
    return evalcli::test::run_cli(args).exit_code;
  };
  const std::string dir = resources().string();
  CHECK(run({}) == 4);                                                  // no resources folder given
  CHECK(run({"--meteor-resources", "/nonexistent"}) == 4);
  CHECK(run({"--meteor-resources", dir, "--lang", "klingon"}) == 2);
  CHECK(run({"--meteor-resources", dir, "-m", "exact teleport"}) == 2);
  CHECK(run({"--meteor-resources", dir, "--norm", "norm", "--lang", "other"}) == 2);
  CHECK(run({"--meteor-resources", dir, "--norm", "bogus"}) == 2);
  CHECK(run({"--meteor-resources", dir, "--wordnet", "/usr/share/wordnet"}) == 2);
  CHECK(run({"--meteor-resources", dir, "--alpha", "0.5"}) == 2);         // all four parameters or none
  if (std::filesystem::is_directory(resources())) {
    CHECK(run({"--meteor-resources", dir}) == 4);  // default English modules include paraphrase: no table
    CHECK(run({"--meteor-resources", dir, "-m", "exact stem synonym"}) == 0);
  }
}

TEST_CASE("METEOR 1.5 from a signature: scores summed statistics, refuses a garbled eval-id", "[meteor15][merge]") {
  const std::string fields =
      "meteor:cmu-1.5|eval-id:meteor-1.5-wo-en-norm-0.85_0.2_0.6_0.75-ex_st_sy-1.0_0.6_0.8|tok:meteor-stringtokenizer";
  const auto metric = evalcli::meteor15_from_signature("nrefs:1|" + fields + "|version:evalcli-0.1.0");
  CHECK(metric->signature() == fields);
  CHECK(metric->stat_names().size() == Meteor15::kNumStats);
  // A perfect 2-word segment: every word an exact content match, one chunk.
  std::vector<double> stats(Meteor15::kNumStats, 0.0);
  stats[0] = stats[1] = 2;     // test_len, ref_len
  stats[4] = stats[5] = 2;     // stage 1 content matches
  stats[Meteor15::kNumStats - 3] = 1;
  stats[Meteor15::kNumStats - 2] = stats[Meteor15::kNumStats - 1] = 2;
  CHECK(metric->score(stats) == 1.0);
  // Half the words matched, in one chunk: fmean 0.5, fragmentation 1/1, penalty gamma = 0.6.
  stats[4] = stats[5] = 1;
  stats[Meteor15::kNumStats - 3] = 1;
  stats[Meteor15::kNumStats - 2] = stats[Meteor15::kNumStats - 1] = 1;
  CHECK(metric->score(stats) == Approx(0.5 * (1 - 0.6 * std::pow(1.0, 0.2))));
  // A statistics model only: it cannot score text (that needs the resources).
  CHECK(dynamic_cast<const evalcli::Metric*>(metric.get()) == nullptr);

  for (const char* eval_id : {"meteor-1.5-wo-en-norm-0.85_0.2_0.6-ex_st_sy-1.0_0.6_0.8",      // 3 parameters
                              "meteor-1.5-wo-en-norm-0.85_0.2_0.6_0.75-ex_st_sy-1.0_0.6",     // 2 weights, 3 modules
                              "meteor-1.5-wo-en-norm-0.85_0.2_0.6_x-ex_st_sy-1.0_0.6_0.8",    // not a number
                              "meteor-1.5-wo-en-norm-0.850_0.2_0.6_0.75-ex_st_sy-1.0_0.6_0.8",  // not as printed
                              "meteor-1.4-wo-en-norm-0.85_0.2_0.6_0.75-ex_st_sy-1.0_0.6_0.8", ""}) {
    INFO(eval_id);
    CHECK_THROWS_AS(evalcli::meteor15_from_signature(std::string("meteor:cmu-1.5|eval-id:") + eval_id), evalcli::Error);
  }
}
