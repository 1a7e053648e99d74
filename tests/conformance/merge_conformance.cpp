// Shard and merge (docs/sharding.md): `evalcli merge` of 1, 2 and 7 shards of
// WMT22 data prints exactly what one run over the whole data prints, for every
// metric command available (every registered segment metric with its
// defaults, too); mismatched shards are refused; `evalcli check`
// passes and fails on crafted baselines.
#include <algorithm>
#include <cstdlib>
#include <memory>

#include "support/registered_metrics.hpp"
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

std::string join_lines(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& line : lines) text += line + "\n";
  return text;
}

// One metric command over one WMT22 pair of files. `max_lines` keeps the
// slow ones (METEOR with WordNet, ROUGE-1.5.5's bootstrap) to the first lines.
struct Case {
  std::string command;
  std::vector<std::string> options;
  std::string pair = "en-de";
  std::string ref = "ref.A.de";
  std::string hyp = "hyp.Online-B.de";
  std::size_t max_lines = 0;
  bool ppl = false;        // `evalcli ppl --lm MODEL -i HYP` (no references)
  bool cider_df = false;   // shards share document frequencies (--df) saved over all references
};

// Every metric command: all their statistics merge into exactly one run's numbers.
std::vector<Case> all_cases() {
  std::vector<Case> cases = {
      {"bleu", {}},
      {"bleu", {"--tokenize", "intl", "--lowercase"}},
      {"chrf", {}},
      {"chrf", {"--chrf-word-order", "2"}},
      {"ter", {}},
      {"rouge", {}, "de-en", "ref.A.en", "hyp.Online-B.en"},
      {"rouge", {"--stem", "--types", "rouge1,rougeL"}, "de-en", "ref.A.en", "hyp.Online-B.en"},
      {"rouge", {"--compat", "rouge155", "--rouge155-flags", "-c 95 -r 100 -n 2 -a"}, "de-en", "ref.A.en",
       "hyp.Online-B.en", 300},
      {"meteor", {}, "de-en", "ref.A.en", "hyp.Online-B.en", 300},
      {"meteor", {"--aggregate", "summed-stats", "--lang", "de"}, "en-de", "ref.A.de", "hyp.Online-B.de", 300},
      {"meteor", {"--compat", "meteor15", "--norm", "norm", "-m", "exact stem synonym"}, "de-en", "ref.A.en",
       "hyp.Online-B.en", 300},
      {"cider", {}, "de-en", "ref.A.en", "hyp.Online-B.en"},
      {"ppl", {}, "de-en", "", "hyp.Online-B.en"},
  };
  cases[11].cider_df = true;
  cases[12].ppl = true;
  // Every registered segment metric with its defaults, unless listed above: a metric that lands is covered.
  for (const auto& command : registered_segment_commands()) {
    const bool listed = std::any_of(cases.begin(), cases.end(),
                                    [&](const Case& c) { return c.command == command && c.options.empty(); });
    if (!listed) cases.push_back({command, {}});
  }
  return cases;
}

std::vector<std::string> limited(std::vector<std::string> lines, std::size_t max_lines) {
  if (max_lines > 0 && lines.size() > max_lines) lines.resize(max_lines);
  return lines;
}

}  // namespace

TEST_CASE("merge of 1, 2 and 7 shards equals one run, for every metric", "[stats][merge][conformance]") {
  const auto parent = shared_parent();
  if (!parent) return;
  const auto model = (*parent / "shared/corpora/lm/arpa/toy.en.o3.arpa").string();
  // ROUGE-1.5.5's data folder: given to the command, and to merge (which has no
  // --rouge155-data) through the environment, as docs/sharding.md says.
  const auto rouge155_data = (*parent / "shared/corpora/rouge155-data").string();
  ::setenv("ROUGE_EVAL_HOME", rouge155_data.c_str(), 1);
  // METEOR 1.5's resources are needed to score the shards, not to merge them.
  const auto meteor15_resources = (*parent / "shared/corpora/meteor15").string();
  for (const auto& c : all_cases()) {
    const auto dir = *parent / "shared/corpora/wmt22" / c.pair;
    const auto hyp_lines = limited(read_lines(dir / c.hyp), c.max_lines);
    const auto ref_lines = c.ppl ? std::vector<std::string>{} : limited(read_lines(dir / c.ref), c.max_lines);
    const TempFile whole_ref(join_lines(ref_lines)), whole_hyp(join_lines(hyp_lines));
    auto command = [&](const std::string& ref, const std::string& hyp) {
      std::vector<std::string> args = {c.command};
      if (c.ppl) {
        args.insert(args.end(), {"--lm", model, "-i", hyp});
      } else {
        args.insert(args.end(), {"-r", ref, "-i", hyp, "-w", "17"});
      }
      args.insert(args.end(), c.options.begin(), c.options.end());
      if (c.options.size() > 1 && c.options[1] == "rouge155") args.insert(args.end(), {"--rouge155-data", rouge155_data});
      if (c.options.size() > 1 && c.options[1] == "meteor15") args.insert(args.end(), {"--meteor-resources", meteor15_resources});
      return args;
    };
    std::unique_ptr<TempFile> df;
    std::vector<std::string> df_option;
    if (c.cider_df) {
      // CIDEr's document frequencies come from all references: counted once, shared by every shard.
      df = std::make_unique<TempFile>("", ".df");
      auto save = command(whole_ref.path(), whole_hyp.path());
      save.insert(save.end(), {"--save-df", df->path()});
      REQUIRE(run_cli(save).exit_code == 0);
      df_option = {"--df", df->path()};
    }
    auto whole = command(whole_ref.path(), whole_hyp.path());
    whole.insert(whole.end(), df_option.begin(), df_option.end());
    const CliResult single_text = run_cli(whole);
    INFO(c.command << " " << (c.options.empty() ? "" : c.options[0]) << ": " << single_text.err);
    REQUIRE(single_text.exit_code == 0);
    auto single_json_args = whole;
    single_json_args.insert(single_json_args.end(), {"-f", "json", "--confidence", "--confidence-n", "200"});
    if (c.command == "rouge") single_json_args[single_json_args.size() - 3] = "--ci";
    auto single_json = nlohmann::json::parse(run_cli(single_json_args).out);
    for (std::size_t parts : {1, 2, 7}) {
      INFO(parts << " shard(s)");
      const auto refs = split(ref_lines, parts);
      const auto hyps = split(hyp_lines, parts);
      std::vector<std::unique_ptr<TempFile>> shards;
      std::vector<std::string> merge = {"merge"};
      if (!c.ppl) merge.insert(merge.end(), {"-w", "17"});
      for (std::size_t p = 0; p < parts; ++p) {
        shards.push_back(std::make_unique<TempFile>("", ".json"));
        auto args = command(c.ppl ? "" : refs[p]->path(), hyps[p]->path());
        args.insert(args.end(), df_option.begin(), df_option.end());
        args.insert(args.end(), {"--stats-out", shards.back()->path()});
        const CliResult shard = run_cli(args);
        INFO(shard.err);
        REQUIRE(shard.exit_code == 0);
        merge.push_back(shards.back()->path());
      }
      const CliResult merged = run_cli(merge);
      INFO(merged.err);
      CHECK(merged.exit_code == 0);
      CHECK(merged.out == single_text.out);
      merge.insert(merge.end(), {"-f", "json", "--confidence", "--confidence-n", "200"});
      auto merged_json = nlohmann::json::parse(run_cli(merge).out);
      for (auto* json : {&merged_json, &single_json}) {
        json->erase("system");     // shards are named after their own files
        json->erase("documents");  // CIDEr's df document count: known to the command only
        // The hashes of the whole test set's files: shards do not record them (yet).
        json->erase("test_set");
        json->erase("hypothesis");
      }
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
  CHECK(run_cli({"check", "--baseline", report.path(), "-r", ref.path(), "-i", worse.path(), "--max-drop", "100",
                 "--allow-large-drop"})
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

TEST_CASE("native commands: --stats and --confidence, JSON always describes sentence scores",
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

TEST_CASE("merge refuses mismatched shards of other metrics, naming the field", "[stats][merge]") {
  const TempFile ref("the cat sat on the mat\na quick brown fox\n"), hyp("the cat sat on a mat\na fox\n");
  auto shard_of = [&](std::vector<std::string> args) {
    auto file = std::make_unique<TempFile>("", ".json");
    args.insert(args.end(), {"-r", ref.path(), "-i", hyp.path(), "--stats-out", file->path()});
    const CliResult result = run_cli(args);
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    return file;
  };
  const auto chrf = shard_of({"chrf"}), chrf_space = shard_of({"chrf", "--chrf-whitespace"});
  CliResult result = run_cli({"merge", chrf->path(), chrf_space->path()});
  CHECK(result.exit_code == 2);
  CHECK(result.err.find("space: 'no' vs 'yes'") != std::string::npos);
  const auto rouge = shard_of({"rouge"}), rouge_stem = shard_of({"rouge", "--stem"});
  result = run_cli({"merge", rouge->path(), rouge_stem->path()});
  CHECK(result.exit_code == 2);
  CHECK(result.err.find("stem: 'no' vs") != std::string::npos);
  const auto ter = shard_of({"ter"});
  result = run_cli({"merge", chrf->path(), ter->path()});
  CHECK(result.exit_code == 2);
  CHECK(result.err.find("metric 'chrF2' vs 'TER'") != std::string::npos);
  // CIDEr shards that counted their own document frequencies are not parts of one run.
  const auto cider_a = shard_of({"cider"});
  const TempFile ref_b("one more caption\n"), hyp_b("one caption\n"), cider_b("", ".json");  // another piece
  REQUIRE(run_cli({"cider", "-r", ref_b.path(), "-i", hyp_b.path(), "--stats-out", cider_b.path()}).exit_code == 0);
  result = run_cli({"merge", cider_a->path(), cider_b.path()});
  CHECK(result.exit_code == 2);
  CHECK(result.err.find("--df") != std::string::npos);
  CHECK(run_cli({"merge", cider_a->path()}).exit_code == 0);  // one shard is the whole run
}

TEST_CASE("check passes and fails on crafted baselines for chrF, TER and ROUGE", "[stats][check]") {
  const TempFile ref("the cat sat on the mat\na quick brown fox jumps\nit is a sunny day today\n");
  const TempFile good("the cat sat on the mat\na quick brown fox jumps\nit is a sunny day today\n");
  const TempFile worse("the cat sat on a hat\na slow brown fox jumps\nit was a rainy day\n");
  for (const auto& metric : {std::vector<std::string>{"chrf", "--chrf-word-order", "2"},
                                                std::vector<std::string>{"ter"},
                                                std::vector<std::string>{"rouge", "--stem"}}) {
    INFO(metric[0]);
    const TempFile report("", ".json"), shard("", ".json");
    auto args = metric;
    args.insert(args.end(), {"-r", ref.path(), "-i", good.path(), "--json-out", report.path(), "--stats-out", shard.path()});
    REQUIRE(run_cli(args).exit_code == 0);
    CHECK(run_cli({"check", "--baseline", report.path(), "-r", ref.path(), "-i", good.path()}).exit_code == 0);
    CHECK(run_cli({"check", "--baseline", shard.path(), "-r", ref.path(), "-i", good.path()}).exit_code == 0);
    const CliResult drop = run_cli({"check", "--baseline", report.path(), "-r", ref.path(), "-i", worse.path()});
    CHECK(drop.exit_code == 5);
    CHECK(drop.err.find("check failed") != std::string::npos);
    CHECK(run_cli({"check", "--baseline", report.path(), "-r", ref.path(), "-i", worse.path(), "--max-drop", "1000",
                   "--allow-large-drop"})
              .exit_code == 0);
    const CliResult refused =
        run_cli({"check", "--baseline", report.path(), "-r", ref.path(), "-r", ref.path(), "-i", good.path()});
    CHECK(refused.exit_code == 2);
    CHECK(refused.err.find("nrefs") != std::string::npos);
  }
}

TEST_CASE("statistics options on ROUGE, CIDEr and perplexity reports", "[stats][cli]") {
  const TempFile ref("the cat sat on the mat\na quick brown fox jumps\nit is a sunny day\n");
  const TempFile hyp("the cat sat on a mat\na fox jumps\nit is sunny\n"), other("a cat\nthe fox\nsunny day\n");
  CliResult r = run_cli({"rouge", "-r", ref.path(), "-i", hyp.path(), "--ci", "--confidence-n", "50", "--stats"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("|bs:50|seed:12345|") != std::string::npos);
  CHECK(r.out.find("ROUGE rouge1 bootstrap 95% CI (50 resamples, seed 12345)") != std::string::npos);
  CHECK(r.out.find("sentence-level ROUGE rougeLsum (n = 3;") != std::string::npos);
  r = run_cli({"rouge", "-r", ref.path(), "-i", hyp.path(), other.path(), "--paired-bs", "--paired-bs-n", "50"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("ROUGE rouge2 paired bootstrap:") != std::string::npos);
  CHECK(run_cli({"rouge", "-r", ref.path(), "-i", hyp.path(), "--bootstrap", "10", "--ci"}).exit_code == 2);
  r = run_cli({"cider", "-r", ref.path(), "-i", hyp.path(), "--confidence", "--confidence-n", "50", "-f", "json"});
  REQUIRE(r.exit_code == 0);
  CHECK(nlohmann::json::parse(r.out)["confidence"]["resamples"] == 50);
  const TempFile text("the cat sat\non the mat\n");
  const auto parent = shared_parent();
  if (!parent) return;
  const auto model = (*parent / "shared/corpora/lm/arpa/toy.en.o3.arpa").string();
  r = run_cli({"ppl", "--lm", model, "-i", text.path(), "--stats", "--confidence", "--confidence-n", "50"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("PPL bootstrap 95% CI (50 resamples") != std::string::npos);
  CHECK(r.out.find("sentence-level PPL (n = 2;") != std::string::npos);
  CHECK(run_cli({"ppl", "--lm", model, "-i", text.path(), "--kenlm-output", "--stats"}).exit_code == 2);
}

}  // namespace evalcli::test
