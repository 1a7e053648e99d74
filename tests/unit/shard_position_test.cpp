// `--shard K/N`: a run scores one contiguous piece of the whole test set and
// records where it sits and which test set it is part of; `evalcli merge`
// refuses a missing, repeated or reordered shard and shards of other test sets.
#include <catch2/catch.hpp>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "evalcli/core/error.hpp"
#include "evalcli/stats/shard.hpp"
#include "support/test_support.hpp"

using evalcli::test::CliResult;
using evalcli::test::run_cli;
using evalcli::test::TempFile;

namespace {

// Seven segments: three shards of 2, 2 and 3 lines.
const char* kRef = "the cat sat on the mat\na dog runs in the park\nhello world\nit is raining\n"
                   "we went home early\nthe sun is out\ngood night\n";
const char* kHyp = "the cat sat on a mat\na dog ran in the park\nhello world\nit rains\n"
                   "we went home\nsun is out\ngood night all\n";

struct ShardFiles {
  std::vector<std::unique_ptr<TempFile>> files;
  std::string path(std::size_t k) const { return files[k - 1]->path(); }
};

ShardFiles write_shards(const std::string& command, const TempFile& ref, const TempFile& hyp, std::size_t count) {
  ShardFiles shards;
  for (std::size_t k = 1; k <= count; ++k) {
    shards.files.push_back(std::make_unique<TempFile>("", ".json"));
    const CliResult result = run_cli({command, "-q", "-r", ref.path(), "-i", hyp.path(), "--shard",
                                      std::to_string(k) + "/" + std::to_string(count), "--stats-out",
                                      shards.path(k)});
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
  }
  return shards;
}

}  // namespace

TEST_CASE("shard K of N: contiguous pieces in order whose sizes differ by at most one", "[stats][shard]") {
  using evalcli::stats::shard_position;
  std::size_t next_line = 1;
  for (std::size_t k = 1; k <= 3; ++k) {
    const auto position = shard_position(k, 3, 7);
    CHECK(position.first_line == next_line);
    CHECK((position.lines == 2 || position.lines == 3));
    next_line += position.lines;
  }
  CHECK(next_line == 8);
  CHECK(shard_position(1, 1, 5).lines == 5);
  CHECK_THROWS_AS(shard_position(4, 3, 7), evalcli::Error);
  CHECK_THROWS_AS(shard_position(1, 8, 7), evalcli::Error);
  CHECK(evalcli::stats::parse_shard_option("2/8") == std::pair<std::size_t, std::size_t>{2, 8});
  for (const std::string bad : {"", "2", "0/3", "4/3", "1/", "/3", "a/b", "-1/3", "1/3/4", "1.5/3", "99999999/99999999"}) {
    INFO(bad);
    CHECK_THROWS_AS(evalcli::stats::parse_shard_option(bad), evalcli::Error);
  }
}

TEST_CASE("shards written with --shard merge into the whole run's output", "[stats][shard]") {
  const TempFile ref(kRef), hyp(kHyp);
  for (const std::string command : {"bleu", "chrf", "ter", "meteor", "rouge"}) {
    INFO(command);
    const CliResult whole = run_cli({command, "-r", ref.path(), "-i", hyp.path()});
    REQUIRE(whole.exit_code == 0);
    const ShardFiles shards = write_shards(command, ref, hyp, 3);
    const CliResult merged = run_cli({"merge", shards.path(1), shards.path(2), shards.path(3)});
    INFO(merged.err);
    CHECK(merged.exit_code == 0);
    CHECK(merged.out == whole.out);
  }
}

TEST_CASE("CIDEr shards written with --shard and shared --df merge into the whole run's output", "[stats][shard][cider]") {
  const TempFile ref(kRef), hyp(kHyp), df("", ".df");
  REQUIRE(run_cli({"cider", "-q", "-r", ref.path(), "-i", hyp.path(), "--save-df", df.path()}).exit_code == 0);
  for (const std::string variant : {"cider-d", "cider"}) {
    INFO(variant);
    const std::vector<std::string> scoring = {"cider", "-r", ref.path(), "-i", hyp.path(), "--df", df.path(),
                                              "--variant", variant};
    auto with = [&](std::vector<std::string> more) {
      std::vector<std::string> args = scoring;
      args.insert(args.end(), more.begin(), more.end());
      return args;
    };
    const CliResult whole = run_cli(scoring);
    REQUIRE(whole.exit_code == 0);
    const CliResult whole_segments = run_cli(with({"--sentence-level"}));
    std::vector<std::string> merge = {"merge"};
    std::vector<std::unique_ptr<TempFile>> shards;
    for (const char* piece : {"1/3", "2/3", "3/3"}) {
      shards.push_back(std::make_unique<TempFile>("", ".json"));
      const CliResult shard = run_cli(with({"-q", "--shard", piece, "--stats-out", shards.back()->path()}));
      INFO(shard.err);
      REQUIRE(shard.exit_code == 0);
      const auto json = nlohmann::json::parse(evalcli::test::read_file(shards.back()->path()));
      CHECK(json["position"]["of"] == 3);
      CHECK(json["test_set"]["segments"] == 7);  // the whole test set, as the other metrics' shards
      merge.push_back(shards.back()->path());
    }
    const CliResult merged = run_cli(merge);
    INFO(merged.err);
    CHECK(merged.exit_code == 0);
    CHECK(merged.out == whole.out);
    // Every image's score as in the whole run (the pieces number their images from their first line).
    merge.push_back("--sentence-level");
    CHECK(run_cli(merge).out == whole_segments.out);
    // A piece left out is refused as for every metric.
    CHECK(run_cli({"merge", shards[0]->path(), shards[2]->path()}).exit_code == 2);
  }
  const TempFile jsonl("{\"id\": 1, \"refs\": [\"a b\"], \"hyp\": \"a b\"}\n", ".jsonl"), out("", ".json");
  const CliResult refused = run_cli({"cider", "--jsonl", jsonl.path(), "--df", df.path(), "--shard", "1/2", "--stats-out", out.path()});
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.err, Catch::Contains("--shard reads -r/-i files"));
  const CliResult save = run_cli({"cider", "-r", ref.path(), "-i", hyp.path(), "--df", df.path(), "--save-df", out.path(),
                                  "--shard", "1/2", "--stats-out", out.path() + ".shard"});
  CHECK(save.exit_code == 2);
}

TEST_CASE("a shard records its position and the whole test set", "[stats][shard]") {
  const TempFile ref(kRef), hyp(kHyp);
  const ShardFiles shards = write_shards("bleu", ref, hyp, 3);
  const auto json = nlohmann::json::parse(evalcli::test::read_file(shards.path(3)));
  CHECK(json["position"]["shard"] == 3);
  CHECK(json["position"]["of"] == 3);
  CHECK(json["position"]["first_line"] == 5);
  CHECK(json["position"]["lines"] == 3);
  CHECK(json["position"]["total_lines"] == 7);
  CHECK(json["test_set"]["segments"] == 7);
  CHECK(json["systems"][0]["segments"] == 3);
  CHECK(json["test_set"]["hypotheses"][0]["sha256"].get<std::string>().size() == 64);
}

TEST_CASE("merge refuses a missing, repeated or reordered shard, naming it", "[stats][shard]") {
  const TempFile ref(kRef), hyp(kHyp);
  const ShardFiles shards = write_shards("bleu", ref, hyp, 3);
  const auto refused = [](const std::vector<std::string>& args, const std::string& words) {
    const CliResult result = run_cli(args);
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.err, Catch::Contains(words));
  };
  refused({"merge", shards.path(1), shards.path(3)}, "shard 2/3 is missing");
  refused({"merge", shards.path(1), shards.path(2), shards.path(2), shards.path(3)}, "shard 2/3 is given twice");
  refused({"merge", shards.path(2), shards.path(1), shards.path(3)}, "out of order: " + shards.path(2));
}

TEST_CASE("merge refuses shards of another test set or of another split", "[stats][shard]") {
  const TempFile ref(kRef), hyp(kHyp);
  const std::string other_hyp_text = std::string(kHyp).replace(0, 3, "one");
  const TempFile other_hyp(other_hyp_text);
  const ShardFiles ours = write_shards("bleu", ref, hyp, 2);
  const ShardFiles theirs = write_shards("bleu", ref, other_hyp, 2);
  CliResult result = run_cli({"merge", ours.path(1), theirs.path(2)});
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::Contains("different test sets"));
  const ShardFiles thirds = write_shards("bleu", ref, hyp, 3);
  result = run_cli({"merge", ours.path(1), thirds.path(2), thirds.path(3)});
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::Contains("not parts of one split"));
}

TEST_CASE("shards of pieces split by hand: the same piece twice is refused", "[stats][shard]") {
  const TempFile ref(kRef), hyp(kHyp), shard("", ".json");
  REQUIRE(run_cli({"bleu", "-r", ref.path(), "-i", hyp.path(), "--stats-out", shard.path()}).exit_code == 0);
  const CliResult result = run_cli({"merge", shard.path(), shard.path()});
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::Contains("repeats"));
}

TEST_CASE("a --shard run prints no score (a piece's is not the test set's), only where the shard went",
          "[stats][shard]") {
  const TempFile ref(kRef), hyp(kHyp), out("", ".json");
  const CliResult to_file = run_cli({"bleu", "-r", ref.path(), "-i", hyp.path(), "--shard", "2/3", "--stats-out", out.path()});
  REQUIRE(to_file.exit_code == 0);
  CHECK(to_file.out.empty());
  CHECK(to_file.err == "evalcli: shard 2/3 (lines 3-4 of 7) written to " + out.path() +
                           "; merge the shards for the score (evalcli merge)\n");
  // On standard output the shard is the only thing written: valid JSON.
  const CliResult to_stdout = run_cli({"rouge", "-q", "-r", ref.path(), "-i", hyp.path(), "--shard", "3/3", "--stats-out", "-"});
  REQUIRE(to_stdout.exit_code == 0);
  CHECK(to_stdout.err.empty());
  CHECK(nlohmann::json::parse(to_stdout.out)["position"]["first_line"] == 5);
}

TEST_CASE("shard option refused where it cannot work, before any input is read", "[stats][shard]") {
  const TempFile ref(kRef), hyp(kHyp), out("", ".json");
  const auto refused = [](const std::vector<std::string>& args, const std::string& words) {
    const CliResult result = run_cli(args);
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.err, Catch::Contains(words));
  };
  refused({"bleu", "-r", ref.path(), "-i", hyp.path(), "--shard", "1/2"}, "--shard needs --stats-out");
  refused({"bleu", "-r", ref.path(), "-i", hyp.path(), "--shard", "1/2", "--stats-out", out.path(), "-f", "json"},
          "cannot be combined with --json-out or -f json");
  refused({"bleu", "-r", ref.path(), "--shard", "1/2", "--stats-out", out.path()}, "needs -i files");
  refused({"bleu", "-r", ref.path(), "-i", hyp.path(), "--shard", "8/8", "--stats-out", out.path()},
          "the test set has 7 segments");
  refused({"cider", "-r", ref.path(), "-i", hyp.path(), "--shard", "1/2", "--stats-out", out.path()},
          "--shard needs --df FILE");
  // ROUGE-1.5.5 (line files) and ppl shard: tests/unit/shard_ppl_rouge155_test.cpp, with what they refuse.
  refused({"rouge", "--bootstrap", "100", "-r", ref.path(), "-i", hyp.path(), "--shard", "1/2", "--stats-out", out.path()},
          "--shard and --bootstrap exclude each other");
  refused({"bleu", "-r", ref.path(), "-i", "/nonexistent/hyp", "--shard", "x", "--stats-out", out.path()},
          "'x' is not K/N");
}
