// --shard K/N for `evalcli ppl` (both modes) and ROUGE-1.5.5 mode (`evalcli rouge
// --compat rouge155` with -r/-i line files): `evalcli merge` of the N pieces prints
// byte for byte what one run over the whole input prints, text and JSON, and a
// missing, repeated or reordered piece, or a piece of another input, is refused
// (docs/sharding.md).
#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "support/scoped_env.hpp"
#include "support/test_support.hpp"

using evalcli::test::run_cli;
using evalcli::test::shared_parent;
using evalcli::test::source_dir;
using evalcli::test::TempFile;

namespace {

std::string data(const std::string& folder, const std::string& name) {
  return (source_dir() / "tests/data" / folder / name).string();
}

// Scratch shard files, removed at the end.
class ShardFiles {
 public:
  explicit ShardFiles(std::size_t count) {
    for (std::size_t k = 0; k < count; ++k) files_.push_back(std::make_unique<TempFile>("", ".json"));
  }
  std::string path(std::size_t k) const { return files_[k]->path(); }

 private:
  std::vector<std::unique_ptr<TempFile>> files_;
};

// `command` with "--shard k/N --stats-out FILE" for every k: the shard files.
void write_shards(const std::vector<std::string>& command, const ShardFiles& shards, std::size_t count) {
  for (std::size_t k = 1; k <= count; ++k) {
    auto args = command;
    for (const std::string& more : {std::string("-q"), std::string("--shard"), std::to_string(k) + "/" +
                                    std::to_string(count), std::string("--stats-out"), shards.path(k - 1)}) {
      args.push_back(more);
    }
    const auto result = run_cli(args);
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    CHECK(result.out.empty());  // a piece prints no score
  }
}

std::vector<std::string> merge_args(const ShardFiles& shards, const std::vector<std::size_t>& order,
                                    const std::vector<std::string>& options = {}) {
  std::vector<std::string> args = {"merge"};
  for (const std::size_t k : order) args.push_back(shards.path(k));
  args.insert(args.end(), options.begin(), options.end());
  return args;
}

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// One run of `command` and the merge of its 3 pieces print the same bytes, for each output form
// (the command's options, and the merge's for the same output).
void check_merge_equals_one_run(const std::vector<std::string>& command,
                                const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>>& forms) {
  ShardFiles shards(3);
  write_shards(command, shards, 3);
  for (const auto& [run_options, merge_options] : forms) {
    const auto one = run_cli(with(command, run_options));
    const auto merged = run_cli(merge_args(shards, {0, 1, 2}, merge_options));
    INFO(fmt::format("{} | {}\n{}", fmt::join(run_options, " "), fmt::join(merge_options, " "), merged.err));
    REQUIRE(one.exit_code == 0);
    REQUIRE(merged.exit_code == 0);
    CHECK(merged.out == one.out);
  }
  // A piece missing, given twice, out of order.
  const auto missing = run_cli(merge_args(shards, {0, 2}));
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.err, Catch::Contains("shard 2/3 is missing"));
  const auto twice = run_cli(merge_args(shards, {0, 1, 1, 2}));
  CHECK(twice.exit_code == 2);
  CHECK_THAT(twice.err, Catch::Contains("shard 2/3 is given twice"));
  const auto reordered = run_cli(merge_args(shards, {1, 0, 2}));
  CHECK(reordered.exit_code == 2);
  CHECK_THAT(reordered.err, Catch::Contains("shards are out of order"));
}

const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> kPplForms = {
    {{}, {}},
    {{"-f", "json"}, {"-f", "json"}},
    {{"--confidence", "--confidence-n", "200", "-f", "json"}, {"--confidence", "--confidence-n", "200", "-f", "json"}},
    {{"--confidence", "--stats"}, {"--confidence", "--stats"}},
};

}  // namespace

TEST_CASE("ppl --lm --shard K/N: the merged pieces print what one run prints", "[ppl][shard]") {
  const std::vector<std::string> command = {"ppl", "--lm", data("ppl_paired", "good.arpa"), "-i",
                                            data("ppl_paired", "clear.txt")};
  check_merge_equals_one_run(command, kPplForms);
  // The pieces of another text are refused next to this text's.
  TempFile other("the cat\nsat\nthe\ncat sat\n");
  ShardFiles mine(3), theirs(3);
  write_shards(command, mine, 3);
  write_shards({"ppl", "--lm", data("ppl_paired", "good.arpa"), "-i", other.path()}, theirs, 3);
  const auto mixed = run_cli({"merge", mine.path(0), theirs.path(1), mine.path(2)});
  CHECK(mixed.exit_code == 2);
  CHECK_THAT(mixed.err, Catch::Contains("are shards of different test sets"));
}

TEST_CASE("ppl --logprobs --shard K/N: documents are the pieces, the merge prints one run's report", "[ppl][shard]") {
  check_merge_equals_one_run({"ppl", "--logprobs", data("ppl_paired", "a.jsonl")}, kPplForms);
  // Blank lines carry no document: 5 documents on 7 lines are cut 1 + 2 + 2 (shard_position's pieces).
  TempFile jsonl("{\"text\": \"a\", \"logprobs\": [-1]}\n\n{\"text\": \"b\", \"logprobs\": [-2]}\n"
                 "{\"text\": \"c\", \"logprobs\": [-3]}\n\n{\"text\": \"d\", \"logprobs\": [-4]}\n"
                 "{\"text\": \"e\", \"logprobs\": [-5]}\n",
                 ".jsonl");
  TempFile shard("", ".json");
  const auto third = run_cli({"ppl", "--logprobs", jsonl.path(), "--shard", "3/3", "--stats-out", shard.path()});
  REQUIRE(third.exit_code == 0);
  const auto written = nlohmann::json::parse(evalcli::test::read_file(shard.path()));
  CHECK(written["position"]["first_line"] == 4);
  CHECK(written["position"]["total_lines"] == 5);
  REQUIRE(written["systems"][0]["rows"].size() == 2);
  CHECK(written["systems"][0]["rows"][0][0] == -4.0);  // the 4th document ("d", on line 6)
  CHECK(written["systems"][0]["rows"][1][0] == -5.0);
}

TEST_CASE("ppl --shard: what it refuses", "[ppl][shard]") {
  const std::string lm = data("ppl_paired", "good.arpa");
  const std::string text = data("ppl_paired", "clear.txt");
  const auto from_stdin = run_cli({"ppl", "--lm", lm, "--shard", "1/2", "--stats-out", "-"}, "the cat\n");
  CHECK(from_stdin.exit_code == 2);
  CHECK_THAT(from_stdin.err, Catch::Contains("--shard needs the input as a file (-i FILE)"));
  const auto json = run_cli({"ppl", "--lm", lm, "-i", text, "--shard", "1/2", "--stats-out", "-", "-f", "json"});
  CHECK(json.exit_code == 2);
  CHECK_THAT(json.err, Catch::Contains("--shard cannot be combined with --json-out or -f json"));
  const auto no_stats = run_cli({"ppl", "--lm", lm, "-i", text, "--shard", "1/2"});
  CHECK(no_stats.exit_code == 2);
  CHECK_THAT(no_stats.err, Catch::Contains("--shard needs --stats-out"));
  const auto too_many = run_cli({"ppl", "--lm", lm, "-i", text, "--shard", "1/21", "--stats-out", "-"});
  CHECK(too_many.exit_code == 2);
  TempFile empty("");
  const auto nothing = run_cli({"ppl", "--lm", lm, "-i", empty.path(), "--shard", "1/2", "--stats-out", "-"});
  CHECK(nothing.exit_code == 3);
  CHECK_THAT(nothing.err, Catch::Contains(empty.path() + ": empty input: no lines to score"));
  CHECK(run_cli({"ppl", "--lm", lm, "-i", text, "--kenlm-output", "--shard", "1/2", "--stats-out", "-"}).exit_code == 2);
}

TEST_CASE("rouge --compat rouge155 --shard K/N: the merged pieces print what one run prints", "[rouge155][shard]") {
  const auto parent = shared_parent();
  if (!parent) return;
  const std::string rouge_data = (*parent / "shared/corpora/rouge155-data").string();
  // The merging machine finds ROUGE-1.5.5's data folder as the command does without --rouge155-data.
  const evalcli::test::ScopedEnv home("ROUGE_EVAL_HOME", rouge_data);
  // ROUGE-1.5.5's averages over documents (-f A: of the models' scores, -f B: the best model's), its
  // per-document lines (-d) and its own bootstrap intervals (-c 95 -r 200), all from the merged rows.
  for (const std::string flags : {"-c 95 -2 -1 -U -r 200 -n 2 -w 1.2 -a -d", "-c 95 -r 300 -n 2 -f B -a"}) {
    SECTION(flags) {
      const std::vector<std::string> command = {
          "rouge", "--compat", "rouge155", "--rouge155-data", rouge_data, "--rouge155-flags", flags,
          "-r", data("rouge155", "modelA.txt"), "-r", data("rouge155", "modelB.txt"),
          "-i", data("rouge155", "sysA.txt"), data("rouge155", "sysB.txt"), "--sentence-sep", "tab"};
      // -d is not in the signature (it changes no number): the merge prints its lines with --sentence-level.
      const std::vector<std::string> per_doc = flags.find("-d") != std::string::npos
                                                   ? std::vector<std::string>{"--sentence-level"}
                                                   : std::vector<std::string>{};
      check_merge_equals_one_run(command, {{{}, per_doc}, {{"-f", "json"}, {"-f", "json"}}});
    }
  }
  const auto settings = run_cli({"rouge", "--compat", "rouge155", "--rouge155-data", rouge_data, "--rouge155-config",
                                 data("rouge155", "modelA.txt"), "--shard", "1/2", "--stats-out", "-"});
  CHECK(settings.exit_code == 2);
  CHECK_THAT(settings.err, Catch::Contains("--shard needs -r/-i line files"));
}

TEST_CASE("bleu --shard: the merged JSON records the whole test set, as the one run's JSON", "[stats][shard]") {
  check_merge_equals_one_run({"bleu", "-r", data("rouge155", "modelA.txt"), "-i", data("rouge155", "sysA.txt"),
                              data("rouge155", "sysB.txt")},
                             {{{}, {}}, {{"-f", "json"}, {"-f", "json"}}});
}
