// Replays the statistics goldens of shared/golden/cli/: numpy's random streams
// (rng_numpy_default_rng), bootstrap confidence intervals (confidence_*) and
// paired significance tests (paired_bs_*, paired_ar_*).
#include <algorithm>
#include <numeric>
#include <span>

#include "stats/numpy_rng.hpp"
#include "support/sha256.hpp"
#include "support/test_support.hpp"

namespace evalcli::test {
namespace {

template <typename T>
void check_prefix(const std::vector<T>& values, std::size_t offset, const nlohmann::json& expected) {
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO("position " << offset + i);
    CHECK(static_cast<long long>(values[offset + i]) == expected[i].get<long long>());
  }
}

// The whole matrix drawn in blocks of an odd size (rows cut anywhere), as the
// resampling code streams it.
constexpr std::size_t kOddBlock = 4099;

std::vector<std::uint32_t> indices_in_blocks(stats::Pcg64& rng, std::size_t rows, std::size_t n) {
  std::vector<std::uint32_t> indices(rows * n);
  for (std::size_t at = 0; at < indices.size(); at += kOddBlock) {
    const std::size_t count = std::min(kOddBlock, indices.size() - at);
    stats::draw_bootstrap_indices(rng, n, std::span<std::uint32_t>(indices).subspan(at, count));
  }
  return indices;
}

std::vector<std::uint8_t> masks_in_blocks(stats::Pcg64& rng, std::size_t trials, std::size_t n) {
  std::vector<std::uint8_t> masks(trials * n);
  stats::MaskDraws draws(rng);
  for (std::size_t at = 0; at < masks.size(); at += kOddBlock) {
    draws.draw(std::span<std::uint8_t>(masks).subspan(at, std::min(kOddBlock, masks.size() - at)));
  }
  return masks;
}

}  // namespace

TEST_CASE("numpy default_rng streams match golden rng_numpy_default_rng", "[stats][conformance]") {
  const auto parent = shared_parent();
  if (!parent) return;
  const auto golden = read_json(*parent / "shared/golden/cli/rng_numpy_default_rng.json");
  int cases = 0;
  for (const auto& c : golden["expected"]["cases"]) {
    const auto seed = c["seed"].get<std::uint64_t>();
    const auto n = c["N"].get<std::size_t>();
    INFO(c["kind"].get<std::string>() << " seed " << seed << " N " << n);
    stats::Pcg64 rng(seed);
    if (c["kind"] == "bootstrap_choice") {
      const auto rows = c["n_samples"].get<std::size_t>();
      const auto indices = indices_in_blocks(rng, rows, n);
      check_prefix(indices, 0, c["first_row_first_40"]);
      check_prefix(indices, n, c["second_row_first_10"]);
      check_prefix(indices, rows * n - c["last_row_last_10"].size(), c["last_row_last_10"]);
      CHECK(std::accumulate(indices.begin(), indices.end(), std::uint64_t{0}) == c["sum_all"].get<std::uint64_t>());
      CHECK(sha256_of_int64(indices) == c["sha256"].get<std::string>());
    } else {
      REQUIRE(c["kind"] == "ar_bool_mask");
      const auto trials = c["n_trials"].get<std::size_t>();
      const auto masks = masks_in_blocks(rng, trials, n);
      check_prefix(masks, 0, c["first_row_first_64"]);
      CHECK(std::accumulate(masks.begin(), masks.end(), std::uint64_t{0}) == c["sum_all"].get<std::uint64_t>());
      CHECK(sha256_of_int64(masks) == c["sha256"].get<std::string>());
    }
    ++cases;
  }
  CHECK(cases == 10);
}

}  // namespace evalcli::test

// ---- bootstrap confidence intervals and paired tests (BLEU part of the goldens) ----
#include "evalcli/stats/corpus_stats.hpp"
#include "evalcli/metrics/bleu.hpp"
#include "evalcli/core/format.hpp"
#include "evalcli/stats/resampling.hpp"

namespace evalcli::test {
namespace {

std::vector<stats::StatMatrix> system_stats(const Metric& metric, const std::filesystem::path& parent,
                                            const nlohmann::json& inputs) {
  CorpusSpec spec;
  for (const auto& ref : inputs["refs"]) spec.ref_paths.push_back((parent / ref.get<std::string>()).string());
  const auto& hyp = inputs["hyp"];
  if (hyp.is_array()) {
    for (const auto& h : hyp) spec.hyp_paths.push_back((parent / h.get<std::string>()).string());
  } else {
    spec.hyp_paths.push_back((parent / hyp.get<std::string>()).string());
  }
  auto results = compute_corpus_stats({&metric}, spec, true);
  std::vector<stats::StatMatrix> matrices;
  for (const auto& system : results[0]) matrices.emplace_back(system.rows, metric.num_stats());
  return matrices;
}

}  // namespace

TEST_CASE("BLEU bootstrap confidence matches golden confidence_en-de_OnlineB_refA", "[stats][conformance]") {
  const auto parent = shared_parent();
  if (!parent) return;
  for (const char* name : {"confidence_en-de_OnlineB_refA_text.json", "confidence_en-de_OnlineB_refA_json.json"}) {
    const auto golden = read_json(*parent / "shared/golden/cli" / name);
    const auto& api = golden["expected"]["api"][0];
    REQUIRE(api["api_call"].get<std::string>().find("BLEU()") != std::string::npos);
    Bleu bleu(BleuOptions{});
    const auto matrices = system_stats(bleu, *parent, golden["inputs"]);
    const auto interval = stats::bootstrap_confidence(bleu, matrices[0], 1000, stats::parse_seed(api["seed"]));
    CHECK(bleu.score(matrices[0].totals()) == api["score"].get<double>());
    CHECK(interval.mean == api["bootstrap_mean"].get<double>());
    CHECK(interval.half_width == api["bootstrap_ci_halfwidth"].get<double>());
  }
}

TEST_CASE("BLEU paired tests match goldens paired_bs/paired_ar JSON", "[stats][conformance]") {
  const auto parent = shared_parent();
  if (!parent) return;
  for (const auto kind : {stats::PairedTestKind::bootstrap, stats::PairedTestKind::randomization}) {
    const bool bs = kind == stats::PairedTestKind::bootstrap;
    const auto golden = read_json(*parent / "shared/golden/cli" /
                                  (bs ? "paired_bs_en-de_refA_json.json" : "paired_ar_en-de_refA_json.json"));
    const auto expected = nlohmann::json::parse(golden["expected"]["stdout"].get<std::string>());
    Bleu bleu(BleuOptions{});
    const auto matrices = system_stats(bleu, *parent, golden["inputs"]);
    stats::PairedTestOptions options;
    options.kind = kind;
    options.seed = stats::parse_seed("12345");
    options.jobs = 2;
    const auto results = stats::run_paired_tests({&bleu}, {matrices}, options);
    REQUIRE(results[0].size() == expected.size());
    for (std::size_t s = 0; s < expected.size(); ++s) {
      INFO((bs ? "bs" : "ar") << " system " << s);
      const auto& cell = expected[s]["BLEU"];
      const auto& got = results[0][s];
      CHECK(got.score == cell["score"].get<double>());
      CHECK(got.p_value.has_value() == !cell["p_value"].is_null());
      if (got.p_value && !cell["p_value"].is_null()) CHECK(*got.p_value == cell["p_value"].get<double>());
      CHECK(got.mean.has_value() == !cell["mean"].is_null());
      if (got.mean && !cell["mean"].is_null()) CHECK(*got.mean == cell["mean"].get<double>());
      if (got.ci && !cell["ci"].is_null()) CHECK(*got.ci == cell["ci"].get<double>());
    }
  }
}

}  // namespace evalcli::test

// ---- `evalcli sacrebleu --confidence / --paired-bs / --paired-ar` against the CLI goldens ----
#include "cli/sacrebleu.hpp"
#include "sacrebleu_golden.hpp"

namespace evalcli::test {
namespace {

bool is_significance_golden(const std::filesystem::path& path) {
  const std::string name = path.filename().string();
  return name.rfind("confidence_", 0) == 0 || name.rfind("paired_", 0) == 0;
}

// The golden's command with `-m bleu` and JSON output: its BLEU numbers must
// equal the golden's (API values for --confidence, JSON cells for paired tests).
void check_bleu_numbers(const std::filesystem::path& parent, const nlohmann::json& golden) {
  const bool paired = golden["id"].get<std::string>().rfind("paired_", 0) == 0;
  // Paired text goldens hold the table; their JSON twins (same command) hold the numbers.
  if (paired && golden["id"].get<std::string>().find("_json") == std::string::npos) return;
  GoldenCommand command = parse_golden_command(golden["command"]);
  std::vector<std::string> args;
  for (std::size_t i = 0; i < command.args.size(); ++i) {
    if (command.args[i] == "-m") {
      while (i + 1 < command.args.size() && command.args[i + 1][0] != '-') ++i;
    } else if (command.args[i] == "-f") {
      ++i;
    } else {
      args.push_back(command.args[i]);
    }
  }
  args.insert(args.end(), {"-m", "bleu", "-f", "json", "-w", "17"});
  command.args = args;
  const CliResult result = run_golden_command(parent, command);
  REQUIRE(result.exit_code == 0);
  const auto ours = nlohmann::json::parse(result.out);
  if (paired) {
    const auto expected = nlohmann::json::parse(golden["expected"]["stdout"].get<std::string>());
    REQUIRE(ours.size() == expected.size());
    for (std::size_t s = 0; s < expected.size(); ++s) {
      CHECK(ours[s]["system"] == expected[s]["system"]);
      CHECK(ours[s]["BLEU"] == expected[s]["BLEU"]);
    }
  } else {
    const auto& api = golden["expected"]["api"][0];
    CHECK(ours["score"].get<double>() == std::stod(format_fixed(api["score"].get<double>(), 17)));
    CHECK(ours["confidence_mean"].get<double>() == std::stod(format_fixed(api["bootstrap_mean"].get<double>(), 17)));
    CHECK(ours["confidence_var"].get<double>() ==
          std::stod(format_fixed(api["bootstrap_ci_halfwidth"].get<double>(), 17)));
    CHECK(with_evalcli_version(api["signature"].get<std::string>()) == ours["signature"].get<std::string>());
  }
}

bool metrics_available(const GoldenCommand& command) {
  try {
    for (const auto& name : golden_metrics(command)) cli::make_sacrebleu_metric(name, cli::SacrebleuArgs{});
    return true;
  } catch (const Error&) {
    return false;
  }
}

}  // namespace

TEST_CASE("sacrebleu significance goldens (confidence_*, paired_bs_*, paired_ar_*)", "[stats][conformance][cli]") {
  const auto parent = shared_parent();
  if (!parent) return;
  int goldens = 0;
  for (const auto& path : golden_files(*parent, "cli")) {
    if (!is_significance_golden(path)) continue;
    ++goldens;
    const auto golden = read_json(path);
    INFO(path.filename().string() << ": " << golden["command"].get<std::string>());
    check_bleu_numbers(*parent, golden);
    const GoldenCommand command = parse_golden_command(golden["command"]);
    if (!metrics_available(command)) {
      WARN("chrF/TER are not on this branch yet: only the BLEU numbers of " << path.filename().string() << " checked");
      continue;
    }
    const CliResult result = run_golden_command(*parent, command);
    CHECK(result.exit_code == golden["expected"]["exit_code"].get<int>());
    CHECK(result.out == with_evalcli_version(golden["expected"]["stdout"].get<std::string>()));
  }
  CHECK(goldens == 6);
}

}  // namespace evalcli::test
