// Statistics shards are checked against their metric's statistics domain
// (StatsModel::stat_domain) when read: a corrupt or hand-edited shard is an
// input error naming the file and the field, for merge and check alike.
#include <catch2/catch.hpp>
#include <functional>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

using evalcli::test::CliResult;
using evalcli::test::run_cli;
using evalcli::test::TempFile;

namespace {

const char* kRef = "the cat sat on the mat\na dog runs in the park\nhello world\n";
const char* kHyp = "the cat sat on a mat\na dog ran in the park\nhello world\n";

// A copy of the shard `shard`, changed by `edit`.
std::unique_ptr<TempFile> edited_copy(const TempFile& shard, const std::function<void(nlohmann::json&)>& edit) {
  auto json = nlohmann::json::parse(evalcli::test::read_file(shard.path()));
  edit(json);
  return std::make_unique<TempFile>(json.dump(), ".json");
}

// A shard written by `evalcli COMMAND`, changed by `edit`, as a file.
std::unique_ptr<TempFile> edited_shard(const std::string& command, const std::function<void(nlohmann::json&)>& edit) {
  const TempFile ref(kRef), hyp(kHyp), shard("", ".json");
  REQUIRE(run_cli({command, "-r", ref.path(), "-i", hyp.path(), "--stats-out", shard.path()}).exit_code == 0);
  return edited_copy(shard, edit);
}

void check_refused(const TempFile& shard, const std::string& words) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"merge", shard.path()}, std::vector<std::string>{"check", "--baseline", shard.path(),
                                                                                  "--current", shard.path()}}) {
    INFO(args[0]);
    const CliResult result = run_cli(args);
    CHECK(result.exit_code == 3);
    CHECK_THAT(result.err, Catch::Contains(shard.path()) && Catch::Contains(words));
  }
}

}  // namespace

TEST_CASE("a shard as written is read back", "[stats][shard]") {
  for (const std::string command : {"bleu", "chrf", "ter", "rouge", "meteor", "cider"}) {
    INFO(command);
    const auto shard = edited_shard(command, [](nlohmann::json&) {});
    CHECK(run_cli({"merge", shard->path()}).exit_code == 0);
  }
}

TEST_CASE("impossible statistics in a shard are refused, naming file and field", "[stats][shard]") {
  auto row0 = [](nlohmann::json& json) -> nlohmann::json& { return json["systems"][0]["rows"][0]; };
  auto totals = [](nlohmann::json& json) -> nlohmann::json& { return json["systems"][0]["totals"]; };
  SECTION("a negative count") {
    check_refused(*edited_shard("bleu", [&](nlohmann::json& j) { row0(j)[0] = -1.0; }), "row 1: hyp_len = -1");
  }
  SECTION("a fractional count") {
    check_refused(*edited_shard("bleu", [&](nlohmann::json& j) { row0(j)[2] = 2.5; }), "correct_1 = 2.5 is not a whole");
  }
  SECTION("matches above totals") {
    check_refused(*edited_shard("bleu",
                                [&](nlohmann::json& j) {
                                  row0(j)[2] = 99.0;
                                  totals(j)[2] = totals(j)[2].get<double>() + 99.0 - 5.0;
                                }),
                  "correct_1 = 99 is more than total_1");
  }
  SECTION("totals that disagree with the rows") {
    check_refused(*edited_shard("bleu", [&](nlohmann::json& j) { totals(j)[0] = 1000.0; }),
                  "totals hyp_len = 1000 differs from the sum of its rows");
  }
  SECTION("a length beyond any corpus") {
    check_refused(*edited_shard("bleu",
                                [&](nlohmann::json& j) {
                                  row0(j)[1] = 1e300;
                                  totals(j)[1] = 1e300;
                                }),
                  "ref_len = 1e+300 is not a whole number from 0 to 2^53");
  }
  SECTION("a negative chrF match count, a negative TER length") {
    check_refused(*edited_shard("chrf", [&](nlohmann::json& j) { row0(j)[2] = -3.0; }), "char1_match = -3");
    check_refused(*edited_shard("ter", [&](nlohmann::json& j) { row0(j)[1] = -6.0; }), "ref_len = -6");
  }
  SECTION("counts that are no whole numbers (1e300 was converted unchecked: undefined behaviour)") {
    check_refused(*edited_shard("bleu", [](nlohmann::json& j) { j["nrefs"] = 1e300; }), "nrefs must be a whole number");
    check_refused(*edited_shard("bleu", [](nlohmann::json& j) { j["systems"][0]["segments"] = -2; }),
                  "segments must be a whole number");
  }
  SECTION("nrefs contradicting the signature") {
    check_refused(*edited_shard("bleu", [](nlohmann::json& j) { j["nrefs"] = 2; }), "nrefs 2 contradicts");
  }
  SECTION("statistic names of another option set") {
    check_refused(*edited_shard("bleu", [](nlohmann::json& j) { j["stat_names"][0] = "sys_len"; }), "stat_names");
  }
}

TEST_CASE("METEOR and perplexity shards are checked against their domains", "[stats][shard]") {
  auto row0 = [](nlohmann::json& json) -> nlohmann::json& { return json["systems"][0]["rows"][0]; };
  SECTION("a negative METEOR match count") {
    check_refused(*edited_shard("meteor", [&](nlohmann::json& j) { row0(j)[2] = -1.0; }), "matches = -1");
  }
  // A small bigram model and a text it scores: ARPA-mode rows are
  // [log10_total, oov_log10_total, tokens, oovs, words, lines, chars, bytes].
  const TempFile lm(
      "\\data\\\nngram 1=5\nngram 2=3\n\n\\1-grams:\n-1.0\t<unk>\n-99\t<s>\t-0.5\n-0.7\t</s>\n-0.5\ta\t-0.3\n"
      "-0.6\tb\t-0.2\n\n\\2-grams:\n-0.1\t<s> a\n-0.1\ta b\n-0.2\tb </s>\n\n\\end\\\n",
      ".arpa");
  const TempFile text("a b\nb a c\n"), shard("", ".json");
  REQUIRE(run_cli({"ppl", "--lm", lm.path(), "-i", text.path(), "--stats-out", shard.path()}).exit_code == 0);
  const auto edited = [&](const std::function<void(nlohmann::json&)>& edit) { return edited_copy(shard, edit); };
  SECTION("a fractional token count") {
    check_refused(*edited([&](nlohmann::json& j) {
      row0(j)[2] = 2.5;
      j["systems"][0]["totals"][2] = j["systems"][0]["totals"][2].get<double>() - 3.0 + 2.5;
    }),
                  "tokens = 2.5 is not a whole number");
  }
  SECTION("more OOVs than tokens") {
    check_refused(*edited([&](nlohmann::json& j) {
      row0(j)[3] = 7.0;
      j["systems"][0]["totals"][3] = j["systems"][0]["totals"][3].get<double>() + 7.0;
    }),
                  "oovs = 7 is more than tokens");
  }
}

TEST_CASE("ROUGE and METEOR 1.5 shards are checked against their domains", "[stats][shard]") {
  auto row0 = [](nlohmann::json& json) -> nlohmann::json& { return json["systems"][0]["rows"][0]; };
  auto totals = [](nlohmann::json& json) -> nlohmann::json& { return json["systems"][0]["totals"]; };
  SECTION("rouge-score: a pair's precision above 1 (its sum above the pairs), a negative recall") {
    check_refused(*edited_shard("rouge",
                                [&](nlohmann::json& j) {
                                  totals(j)[0] = totals(j)[0].get<double>() + 5.0 - row0(j)[0].get<double>();
                                  row0(j)[0] = 5.0;
                                }),
                  "is more than pairs");
    check_refused(*edited_shard("rouge", [&](nlohmann::json& j) { row0(j)[1] = -0.5; }), "rouge1_recall = -0.5");
  }
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;  // METEOR 1.5's resources are in ../shared
  const std::string resources = (*parent / "shared/corpora/meteor15").string();
  const TempFile ref(kRef), hyp(kHyp), shard("", ".json");
  REQUIRE(run_cli({"meteor", "--compat", "meteor15", "--meteor-resources", resources, "-m", "exact stem synonym", "-r",
                   ref.path(), "-i", hyp.path(), "--stats-out", shard.path()})
              .exit_code == 0);
  const auto edited = [&](const std::function<void(nlohmann::json&)>& edit) { return edited_copy(shard, edit); };
  SECTION("METEOR 1.5: more matched test words than test words") {
    check_refused(*edited([&](nlohmann::json& j) {
      const double words = row0(j)[0].get<double>();
      totals(j)[21] = totals(j)[21].get<double>() - row0(j)[21].get<double>() + words + 1;
      row0(j)[21] = words + 1;
    }),
                  "test_word_matches = ");
  }
  SECTION("METEOR 1.5: a fractional chunk count") {
    check_refused(*edited([&](nlohmann::json& j) {
      totals(j)[20] = totals(j)[20].get<double>() - row0(j)[20].get<double>() + 0.5;
      row0(j)[20] = 0.5;
    }),
                  "chunks = 0.5 is not a whole number");
  }
}

namespace {

// `evalcli check --baseline REPORT --current REPORT`, the report edited first.
CliResult check_edited_report(const std::string& command, const std::function<void(nlohmann::json&)>& edit) {
  const TempFile ref(kRef), hyp(kHyp);
  const CliResult run = run_cli({command, "-r", ref.path(), "-i", hyp.path(), "-f", "json"});
  REQUIRE(run.exit_code == 0);
  auto report = nlohmann::json::parse(run.out);
  const TempFile current(report.dump(), ".json");
  edit(report);
  const TempFile baseline(report.dump(), ".json");
  return run_cli({"check", "--baseline", baseline.path(), "--current", current.path()});
}

}  // namespace

TEST_CASE("a JSON report's statistics are checked as a shard's: domain and score", "[stats][check]") {
  for (const std::string command : {"bleu", "chrf", "ter", "rouge", "meteor", "cider", "coco-bleu", "coco-rouge"}) {
    INFO(command);
    CHECK(check_edited_report(command, [](nlohmann::json&) {}).exit_code == 0);  // as written: passes
    const CliResult score = check_edited_report(command, [](nlohmann::json& r) { r["score"] = -5.0; });
    CHECK(score.exit_code == 3);
    CHECK_THAT(score.err, Catch::Contains("score -5 is not the score of its statistics"));
    const CliResult stat = check_edited_report(command, [](nlohmann::json& r) { r["stats"].begin().value() = -1.0; });
    CHECK(stat.exit_code == 3);
    CHECK_THAT(stat.err, Catch::Contains("stats: ") && Catch::Contains(" = -1 is not"));
    const CliResult missing = check_edited_report(command, [](nlohmann::json& r) { r["stats"].erase(r["stats"].begin()); });
    CHECK(missing.exit_code == 3);
  }
}
