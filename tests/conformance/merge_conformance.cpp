// Shard and merge (docs/sharding.md): `evalcli merge` of 1, 2 and 7 shards of
// WMT22 data prints exactly what one run over the whole data prints, for every
// metric command available; mismatched shards are refused; `evalcli check`
// passes and fails on crafted baselines.
#include <memory>

#include "support/test_support.hpp"

namespace evalcli::test {
namespace {

std::vector<std::string> read_lines(const std::filesystem::path& path) {
  std::vector<std::string> lines;
  std::istringstream in(read_file(path));
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Contiguous pieces of `lines`, the first ones one line longer when it does not divide.
std::vector<std::unique_ptr<TempFile>> split(const std::vector<std::string>& lines, std::size_t parts) {
  std::vector<std::unique_ptr<TempFile>> files;
  std::size_t start = 0;
  for (std::size_t p = 0; p < parts; ++p) {
    const std::size_t size = lines.size() / parts + (p < lines.size() % parts ? 1 : 0);
    std::string text;
    for (std::size_t i = start; i < start + size; ++i) text += lines[i] + "\n";
    files.push_back(std::make_unique<TempFile>(text));
    start += size;
  }
  return files;
}

struct Case {
  std::string command;
  std::vector<std::string> options;
};

// Every native metric command on main whose statistics are additive.
const std::vector<Case> kCases = {
    {"bleu", {}},
    {"bleu", {"--tokenize", "intl", "--lowercase"}},
};

}  // namespace

TEST_CASE("merge of 1, 2 and 7 shards equals one run", "[stats][merge][conformance]") {
  const auto parent = shared_parent();
  if (!parent) return;
  const auto dir = *parent / "shared/corpora/wmt22/en-de";
  const auto ref_lines = read_lines(dir / "ref.A.de");
  const auto hyp_lines = read_lines(dir / "hyp.Online-B.de");
  for (const auto& c : kCases) {
    std::vector<std::string> whole = {c.command, "-r", (dir / "ref.A.de").string(), "-i",
                                      (dir / "hyp.Online-B.de").string(), "-w", "17"};
    whole.insert(whole.end(), c.options.begin(), c.options.end());
    const CliResult single_text = run_cli(whole);
    REQUIRE(single_text.exit_code == 0);
    auto single_json_args = whole;
    single_json_args.insert(single_json_args.end(), {"-f", "json", "--confidence", "--confidence-n", "200"});
    auto single_json = nlohmann::json::parse(run_cli(single_json_args).out);
    for (std::size_t parts : {1, 2, 7}) {
      INFO(c.command << " " << parts << " shard(s)");
      const auto refs = split(ref_lines, parts);
      const auto hyps = split(hyp_lines, parts);
      std::vector<std::unique_ptr<TempFile>> shards;
      std::vector<std::string> merge = {"merge", "-w", "17"};
      for (std::size_t p = 0; p < parts; ++p) {
        shards.push_back(std::make_unique<TempFile>("", ".json"));
        std::vector<std::string> args = {c.command, "-r", refs[p]->path(), "-i", hyps[p]->path(),
                                         "--stats-out", shards.back()->path()};
        args.insert(args.end(), c.options.begin(), c.options.end());
        REQUIRE(run_cli(args).exit_code == 0);
        merge.push_back(shards.back()->path());
      }
      const CliResult merged = run_cli(merge);
      CHECK(merged.exit_code == 0);
      CHECK(merged.out == single_text.out);
      merge.insert(merge.end(), {"-f", "json", "--confidence", "--confidence-n", "200"});
      auto merged_json = nlohmann::json::parse(run_cli(merge).out);
      merged_json.erase("system");  // shards are named after their own files
      single_json.erase("system");
      CHECK(merged_json == single_json);
    }
  }
}

TEST_CASE("merge refuses shards whose signatures differ, naming the field", "[stats][merge]") {
  const TempFile ref("a b c\nd e f\n"), hyp("a b c\nd e x\n");
  const TempFile cased("", ".json"), lowered("", ".json");
  REQUIRE(run_cli({"bleu", "-r", ref.path(), "-i", hyp.path(), "--stats-out", cased.path()}).exit_code == 0);
  REQUIRE(run_cli({"bleu", "-r", ref.path(), "-i", hyp.path(), "--lowercase", "--stats-out", lowered.path()})
              .exit_code == 0);
  const CliResult result = run_cli({"merge", cased.path(), lowered.path()});
  CHECK(result.exit_code == 2);
  CHECK(result.err.find("case: 'mixed' vs 'lc'") != std::string::npos);
  const TempFile broken("{\"schema\": \"evalcli-stats/1\"}", ".json");
  CHECK(run_cli({"merge", broken.path()}).exit_code == 3);
  const TempFile not_json("nope", ".json");
  CHECK(run_cli({"merge", not_json.path()}).exit_code == 3);
}

TEST_CASE("check passes, fails with exit 5, refuses other signatures", "[stats][check]") {
  const TempFile ref("the cat sat on the mat\na quick brown fox jumps\nit is a sunny day today\n");
  const TempFile good("the cat sat on the mat\na quick brown fox jumps\nit is a sunny day today\n");
  const TempFile worse("the cat sat on a hat\na slow brown fox jumps\nit was a rainy day\n");
  const TempFile report("", ".json"), shard("", ".json");
  REQUIRE(run_cli({"bleu", "-r", ref.path(), "-i", good.path(), "--json-out", report.path(), "--stats-out",
                   shard.path()})
              .exit_code == 0);
  CHECK(run_cli({"check", "--baseline", report.path(), "-r", ref.path(), "-i", good.path()}).exit_code == 0);
  const CliResult drop = run_cli({"check", "--baseline", report.path(), "-r", ref.path(), "-i", worse.path()});
  CHECK(drop.exit_code == 5);
  CHECK(drop.err.find("check failed") != std::string::npos);
  CHECK(run_cli({"check", "--baseline", report.path(), "-r", ref.path(), "-i", worse.path(), "--max-drop", "100"})
            .exit_code == 0);
  CHECK(run_cli({"check", "--baseline", shard.path(), "-r", ref.path(), "-i", worse.path(), "--significance",
                 "0.05", "--paired-bs-n", "50"})
            .exit_code != 2);
  // The report's signature has nrefs:1; two references make the scores incomparable.
  const CliResult refused =
      run_cli({"check", "--baseline", report.path(), "-r", ref.path(), "-r", ref.path(), "-i", good.path()});
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find("nrefs") != std::string::npos);
  // --significance needs segment statistics, which a report does not hold.
  CHECK(run_cli({"check", "--baseline", report.path(), "-r", ref.path(), "-i", good.path(), "--significance", "0.05"})
            .exit_code == 2);
}

TEST_CASE("native commands: --stats and --confidence; JSON always describes sentence scores",
          "[stats][cli]") {
  const TempFile ref("the cat sat on the mat\na quick brown fox jumps\n"), hyp("the cat sat on a mat\na fox\n");
  const CliResult text = run_cli({"bleu", "-r", ref.path(), "-i", hyp.path(), "--stats", "--confidence",
                                  "--confidence-n", "20", "--seed", "3"});
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("|bs:20|seed:3|") != std::string::npos);
  CHECK(text.out.find("sentence-level BLEU (n = 2; their mean is not the corpus score)") != std::string::npos);
  const auto json = nlohmann::json::parse(run_cli({"bleu", "-r", ref.path(), "-i", hyp.path(), "-f", "json"}).out);
  CHECK(json["sentence_scores"]["n"] == 2);
  CHECK(json["sentence_scores"].contains("note"));
  CHECK(run_cli({"bleu", "-r", ref.path(), "-i", hyp.path(), "--paired-bs"}).exit_code == 2);  // one system
  CHECK(run_cli({"bleu", "-r", ref.path(), "-i", hyp.path(), "--seed", "x", "--confidence"}).exit_code == 2);
}

}  // namespace evalcli::test
