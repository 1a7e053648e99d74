// Replays every chrF / TER golden in ../shared/golden (chrf/, ter/, and the
// chrF/TER parts of edge/, cli/, tokenize/): full-precision scores, summed
// sufficient statistics, per-line sentence scores, and tokenizer strings.
#include <catch2/catch.hpp>

#include <map>
#include <regex>

#include "evalcli/stats/corpus_stats.hpp"
#include "evalcli/metrics/chrf.hpp"
#include "evalcli/metrics/ter.hpp"
#include "evalcli/text/unicode.hpp"
#include "evalcli/text/utf8.hpp"
#include "evalcli/tokenize/tercom.hpp"
#include "support/test_support.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// "sacrebleu.metrics.CHRF(beta=1, char_order=4).corpus_score(...)" -> {beta: 1, char_order: 4}
std::map<std::string, std::string> constructor_args(const std::string& call) {
  std::map<std::string, std::string> args;
  const auto open = call.find('(');
  const auto close = call.find(')', open);
  const std::string inside = call.substr(open + 1, close - open - 1);
  static const std::regex pair(R"((\w+)=(\w+))");
  for (auto it = std::sregex_iterator(inside.begin(), inside.end(), pair); it != std::sregex_iterator(); ++it) {
    args[(*it)[1]] = (*it)[2];
  }
  return args;
}

bool is_true(const std::map<std::string, std::string>& args, const std::string& key) {
  auto it = args.find(key);
  return it != args.end() && it->second == "True";
}

int int_arg(const std::map<std::string, std::string>& args, const std::string& key, int fallback) {
  auto it = args.find(key);
  return it == args.end() ? fallback : std::stoi(it->second);
}

std::unique_ptr<evalcli::Metric> metric_for(const std::string& call) {
  const auto args = constructor_args(call);
  if (call.rfind("sacrebleu.metrics.CHRF(", 0) == 0) {
    evalcli::ChrfOptions o;
    o.char_order = int_arg(args, "char_order", 6);
    o.word_order = int_arg(args, "word_order", 0);
    o.beta = int_arg(args, "beta", 2);
    o.lowercase = is_true(args, "lowercase");
    o.whitespace = is_true(args, "whitespace");
    o.eps_smoothing = is_true(args, "eps_smoothing");
    for (const auto& [key, value] : args) {
      const bool known = key == "char_order" || key == "word_order" || key == "beta" || key == "lowercase" ||
                         key == "whitespace" || key == "eps_smoothing";
      INFO(call);
      REQUIRE(known);
    }
    return std::make_unique<evalcli::Chrf>(o);
  }
  if (call.rfind("sacrebleu.metrics.TER(", 0) == 0) {
    evalcli::TerOptions o;
    o.tercom.normalized = is_true(args, "normalized");
    o.tercom.no_punct = is_true(args, "no_punct");
    o.tercom.asian_support = is_true(args, "asian_support");
    o.tercom.case_sensitive = is_true(args, "case_sensitive");
    return std::make_unique<evalcli::Ter>(o);
  }
  return nullptr;
}

evalcli::CorpusSpec corpus_of(const json& golden, const fs::path& parent) {
  evalcli::CorpusSpec spec;
  const auto& inputs = golden.at("inputs");
  spec.hyp_paths = {(parent / inputs.at("hyp").get<std::string>()).string()};
  for (const auto& ref : inputs.at("refs")) spec.ref_paths.push_back((parent / ref.get<std::string>()).string());
  return spec;
}

// The golden's summed statistics in evalcli's flat layout.
std::vector<double> expected_stats(const json& api) {
  std::vector<double> flat;
  for (const auto& value : api.at("sufficient_stats").at("values")) {
    if (value.is_array()) {
      for (const auto& v : value) flat.push_back(v.get<double>());
    } else {
      flat.push_back(value.get<double>());
    }
  }
  return flat;
}

void check_api_entry(const json& golden, const json& api, const evalcli::Metric& metric, const fs::path& parent) {
  const bool sentence_level = api.contains("per_line");
  const auto results = evalcli::compute_corpus_stats({&metric}, corpus_of(golden, parent), sentence_level);
  const auto& system = results.at(0).at(0);
  if (sentence_level) {
    const auto& per_line = api.at("per_line");
    REQUIRE(system.rows.size() == per_line.size());
    for (std::size_t i = 0; i < per_line.size(); ++i) {
      INFO("line " << i + 1);
      const auto& row = system.rows[i];
      if (per_line[i].is_array()) {  // TER: [score, edits, ref_len]
        CHECK(metric.score(row) == per_line[i][0].get<double>());
        CHECK(row[0] == per_line[i][1].get<double>());
        CHECK(row[1] == per_line[i][2].get<double>());
      } else {
        CHECK(metric.score(row) == per_line[i].get<double>());
      }
    }
    return;
  }
  CHECK(metric.score(system.totals) == api.at("score").get<double>());
  if (api.contains("sufficient_stats")) CHECK(system.totals == expected_stats(api));
  if (api.contains("num_edits")) {
    CHECK(system.totals[0] == api.at("num_edits").get<double>());
    CHECK(system.totals[1] == api.at("ref_length").get<double>());
  }
  if (api.contains("name")) CHECK(metric.name() == api.at("name").get<std::string>());
}

}  // namespace

TEST_CASE("chrF and TER goldens: scores, statistics, per-line scores", "[conformance][chrf][ter]") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  std::size_t checked = 0;
  for (const std::string family : {"chrf", "ter", "edge", "cli"}) {
    for (const auto& path : evalcli::test::golden_files(*parent, family)) {
      const json golden = evalcli::test::read_json(path);
      if (!golden.contains("expected") || !golden["expected"].contains("api")) continue;
      for (const auto& api : golden["expected"]["api"]) {
        const std::string call = api.value("api_call", "");
        const auto metric = metric_for(call);
        if (!metric) continue;
        INFO(path.filename().string() << ": " << call);
        // The signature's SacreBLEU fields must be what SacreBLEU printed.
        std::string fields;
        for (const auto& f : metric->sacrebleu_fields()) fields += "|" + f.key + ":" + f.value;
        const std::string signature = api.at("signature").get<std::string>();
        CHECK(signature.find(fields + "|version:") != std::string::npos);
        check_api_entry(golden, api, *metric, *parent);
        ++checked;
      }
    }
  }
  // 10 chrf + 8 ter + 11 edge (4 files x 2 metrics + 3 sentence-level) + 12 cli entries
  CHECK(checked >= 41);
}

TEST_CASE("TER tokenizer variants and chrF strings match SacreBLEU", "[conformance][chrf][ter][tokenizer]") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  std::vector<fs::path> files = evalcli::test::golden_files(*parent, "tokenize");
  files.push_back(*parent / "shared" / "golden" / "edge" / "tok_edge_refA_all.json");
  std::size_t lines_checked = 0;
  for (const auto& path : files) {
    const json golden = evalcli::test::read_json(path);
    std::map<std::string, evalcli::TercomTokenizer> variants;
    for (const auto& [name, o] : golden.at("options").at("ter_variants").items()) {
      evalcli::TercomOptions options;
      options.normalized = o.at("normalized").get<bool>();
      options.no_punct = o.at("no_punct").get<bool>();
      options.asian_support = o.at("asian_support").get<bool>();
      options.case_sensitive = o.at("case_sensitive").get<bool>();
      variants.emplace(name, evalcli::TercomTokenizer(options));
    }
    REQUIRE(variants.size() == 7);
    std::size_t index = 0;
    for (const auto& line : golden.at("expected").at("lines")) {
      INFO(path.filename().string() << " line " << ++index);
      const std::u32string input = evalcli::utf8::decode_or_throw(line.at("input").get<std::string>(), "golden");
      for (const auto& [name, tokenizer] : variants) {
        INFO(name);
        CHECK(evalcli::utf8::encode(tokenizer.tokenize(evalcli::text::rstrip(input))) ==
              line.at(name).get<std::string>());
      }
      CHECK(evalcli::utf8::encode(evalcli::chrf_char_text(input, false)) == line.at("chrf_chars").get<std::string>());
      std::vector<std::string> words;
      for (const auto w : evalcli::chrf_words(input)) words.push_back(evalcli::utf8::encode(w));
      CHECK(words == line.at("chrfpp_words").get<std::vector<std::string>>());
      ++lines_checked;
    }
  }
  CHECK(lines_checked >= 1540);
}

// ---- chrF / TER parts of the bootstrap and paired-test goldens (float32 score path) ----
#include "evalcli/stats/resampling.hpp"

namespace {

std::vector<evalcli::stats::StatMatrix> system_matrices(const evalcli::Metric& metric, const fs::path& parent,
                                                         const json& inputs) {
  evalcli::CorpusSpec spec;
  for (const auto& ref : inputs.at("refs")) spec.ref_paths.push_back((parent / ref.get<std::string>()).string());
  const auto& hyp = inputs.at("hyp");
  if (hyp.is_array()) {
    for (const auto& h : hyp) spec.hyp_paths.push_back((parent / h.get<std::string>()).string());
  } else {
    spec.hyp_paths.push_back((parent / hyp.get<std::string>()).string());
  }
  const auto results = evalcli::compute_corpus_stats({&metric}, spec, true);
  std::vector<evalcli::stats::StatMatrix> matrices;
  for (const auto& system : results[0]) matrices.emplace_back(system.rows, metric.num_stats());
  return matrices;
}

}  // namespace

TEST_CASE("chrF and TER bootstrap confidence match goldens", "[conformance][stats][chrf][ter]") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  std::size_t checked = 0;
  for (const char* name : {"confidence_en-de_OnlineB_refA_text.json", "confidence_en-de_OnlineB_refA_json.json"}) {
    const json golden = evalcli::test::read_json(*parent / "shared/golden/cli" / name);
    for (const auto& api : golden.at("expected").at("api")) {
      const auto metric = metric_for(api.at("api_call").get<std::string>());
      if (!metric) continue;
      INFO(name << ": " << api.at("api_call").get<std::string>());
      const auto matrices = system_matrices(*metric, *parent, golden.at("inputs"));
      const auto interval = evalcli::stats::bootstrap_confidence(*metric, matrices[0], 1000,
                                                                 evalcli::stats::parse_seed(api.at("seed")));
      CHECK(metric->score(matrices[0].totals()) == api.at("score").get<double>());
      CHECK(interval.mean == api.at("bootstrap_mean").get<double>());
      CHECK(interval.half_width == api.at("bootstrap_ci_halfwidth").get<double>());
      ++checked;
    }
  }
  CHECK(checked == 4);
}

TEST_CASE("chrF and TER paired tests match goldens paired_bs/paired_ar JSON", "[conformance][stats][chrf][ter]") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  for (const auto kind : {evalcli::stats::PairedTestKind::bootstrap, evalcli::stats::PairedTestKind::randomization}) {
    const bool bs = kind == evalcli::stats::PairedTestKind::bootstrap;
    const json golden = evalcli::test::read_json(*parent / "shared/golden/cli" /
                                                 (bs ? "paired_bs_en-de_refA_json.json" : "paired_ar_en-de_refA_json.json"));
    const json expected = json::parse(golden.at("expected").at("stdout").get<std::string>());
    const evalcli::Chrf chrf(evalcli::ChrfOptions{});
    const evalcli::Ter ter(evalcli::TerOptions{});
    for (const evalcli::Metric* metric : std::initializer_list<const evalcli::Metric*>{&chrf, &ter}) {
      const auto matrices = system_matrices(*metric, *parent, golden.at("inputs"));
      evalcli::stats::PairedTestOptions options;
      options.kind = kind;
      options.seed = evalcli::stats::parse_seed("12345");
      options.jobs = 2;
      const auto results = evalcli::stats::run_paired_tests({metric}, {matrices}, options);
      REQUIRE(results[0].size() == expected.size());
      for (std::size_t s = 0; s < expected.size(); ++s) {
        INFO((bs ? "bs " : "ar ") << metric->name() << " system " << s);
        const auto& cell = expected[s].at(metric->name());
        const auto& got = results[0][s];
        CHECK(got.score == cell.at("score").get<double>());
        CHECK(got.p_value.has_value() == !cell.at("p_value").is_null());
        if (got.p_value && !cell.at("p_value").is_null()) CHECK(*got.p_value == cell.at("p_value").get<double>());
        CHECK(got.mean.has_value() == !cell.at("mean").is_null());
        if (got.mean && !cell.at("mean").is_null()) CHECK(*got.mean == cell.at("mean").get<double>());
        if (got.ci && !cell.at("ci").is_null()) CHECK(*got.ci == cell.at("ci").get<double>());
      }
    }
  }
}

// ---- the same goldens through `evalcli sacrebleu`: stdout byte for byte ----
#include "sacrebleu_golden.hpp"

TEST_CASE("goldens running chrF or TER: evalcli sacrebleu prints SacreBLEU's stdout", "[conformance][chrf][ter][cli]") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  std::size_t checked = 0;
  for (const std::string family : {"chrf", "ter", "edge", "cli"}) {
    for (const auto& path : evalcli::test::golden_files(*parent, family)) {
      const json golden = evalcli::test::read_json(path);
      const std::string command = golden.value("command", "");
      if (command.find("sacrebleu ") == std::string::npos) continue;
      const auto parsed = evalcli::test::parse_golden_command(command);
      bool uses_chrf_or_ter = false;
      for (const auto& m : evalcli::test::golden_metrics(parsed)) uses_chrf_or_ter |= m == "chrf" || m == "ter";
      if (!uses_chrf_or_ter) continue;
      INFO(path.filename().string() << ": " << command);
      const auto result = evalcli::test::run_golden_command(*parent, parsed);
      CHECK(result.exit_code == golden.at("expected").at("exit_code").get<int>());
      CHECK(result.out == evalcli::test::with_evalcli_version(golden.at("expected").at("stdout").get<std::string>()));
      ++checked;
    }
  }
  CHECK(checked >= 38);  // 10 chrf + 8 ter + 7 edge + 13 cli (incl. confidence and paired tests)
}
