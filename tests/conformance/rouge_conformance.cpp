// Replays every golden in shared/golden/rouge: rouge-score 0.1.2 (means,
// bootstrap intervals, per-pair scores, multi-reference, Chinese tokenizers)
// and ROUGE-1.5.5 (printed report lines, per-document strings, plain means).
#include <fstream>
#include <map>
#include <sstream>

#include "evalcli/metrics/rouge.hpp"
#include "evalcli/text/porter_stemmer.hpp"
#include "evalcli/text/utf8.hpp"
#include "support/test_support.hpp"

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

std::vector<std::string> lines_of(const fs::path& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// evalcli rouge ... -f json, parsed.
json run_json(const std::vector<std::string>& args) {
  std::vector<std::string> full = {"rouge"};
  full.insert(full.end(), args.begin(), args.end());
  full.insert(full.end(), {"-f", "json"});
  const auto result = evalcli::test::run_cli(full);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return json::parse(result.out);
}

std::vector<std::string> input_args(const fs::path& parent, const json& inputs) {
  std::vector<std::string> args = {"-i", (parent / inputs["hyp"].get<std::string>()).string()};
  for (const auto& ref : inputs["ref"]) args.insert(args.end(), {"-r", (parent / ref.get<std::string>()).string()});
  return args;
}

// Every precision/recall/fmeasure of `expected` (type -> {P,R,F}) equals ours.
void check_means(const json& ours_types, const json& expected, const std::string& where) {
  for (const auto& [type, prf] : expected.items()) {
    for (const auto& [field, value] : prf.items()) {
      INFO(where << " " << type << " " << field);
      CHECK(ours_types[type][field].get<double>() == value.get<double>());
    }
  }
}

void check_bootstrap(const json& ours_types, const json& expected, const std::string& where) {
  for (const auto& [type, bounds] : expected.items()) {
    for (const auto& [bound, prf] : bounds.items()) {
      for (const auto& [field, value] : prf.items()) {
        INFO(where << " " << type << " " << bound << " " << field);
        CHECK(ours_types[type][bound][field].get<double>() == value.get<double>());
      }
    }
  }
}

// Per-pair scores (max-F over references, as score_multi) for the first pairs.
void check_per_pair(const evalcli::RougeScoreMetric& metric, const std::vector<std::vector<std::string>>& refs,
                    const std::vector<std::string>& hyps, const json& expected) {
  const auto& types = metric.options().types;
  std::vector<evalcli::Stat> stats(metric.num_stats());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    std::vector<std::u32string> pair_refs;
    for (const auto& ref_lines : refs) pair_refs.push_back(evalcli::utf8::decode_or_throw(ref_lines[i], "ref"));
    metric.segment_stats(evalcli::utf8::decode_or_throw(hyps[i], "hyp"), pair_refs, stats.data());
    for (std::size_t t = 0; t < types.size(); ++t) {
      const auto& e = expected[i][types[t].name()];
      INFO("pair " << i << " " << types[t].name());
      CHECK(stats[3 * t] == e["precision"].get<double>());
      CHECK(stats[3 * t + 1] == e["recall"].get<double>());
      CHECK(stats[3 * t + 2] == e["fmeasure"].get<double>());
    }
  }
}

std::vector<std::vector<std::string>> ref_lines(const fs::path& parent, const json& inputs) {
  std::vector<std::vector<std::string>> refs;
  for (const auto& ref : inputs["ref"]) refs.push_back(lines_of(parent / ref.get<std::string>()));
  return refs;
}

evalcli::RougeScoreMetric rouge_score_metric(bool stem, const std::string& sep, const std::string& tokenizer = {},
                                             std::vector<std::string> types = {}) {
  evalcli::RougeScoreOptions options;
  for (const auto& t : types) options.types.push_back(evalcli::parse_rouge_score_type(t));
  options.stem = stem;
  // assign(1, c), not = U"\t": GCC 12 warns falsely (-Wstringop-overflow) on the latter.
  if (sep == "tab") options.sentence_separator.assign(1, U'\t');
  options.tokenizer = tokenizer;
  return evalcli::RougeScoreMetric(options);
}

// The standard rouge-score golden layout: mean, bootstrap_seed42, per_pair_first20.
void check_standard_case(const fs::path& parent, const json& inputs, const json& expected, bool stem,
                         const std::string& where, const std::vector<std::string>& extra = {}) {
  auto args = input_args(parent, inputs);
  args.insert(args.end(), {"--sentence-sep", "tab", "--bootstrap", "1000", "--seed", "42"});
  if (stem) args.push_back("--stem");
  args.insert(args.end(), extra.begin(), extra.end());
  const json ours = run_json(args);
  check_means(ours["types"], expected["mean"], where);
  if (expected.contains("bootstrap_seed42")) check_bootstrap(ours["types"], expected["bootstrap_seed42"], where);
  if (expected.contains("per_pair_first20")) {
    const auto metric = rouge_score_metric(stem, "tab");
    check_per_pair(metric, ref_lines(parent, inputs), lines_of(parent / inputs["hyp"].get<std::string>()),
                   expected["per_pair_first20"]);
  }
}

void check_rouge_score_golden(const fs::path& parent, const std::string& name, const json& golden) {
  const json& e = golden["expected"];
  const json& inputs = golden["inputs"];
  if (name.starts_with("rs_cnndm_")) {
    const bool stem = golden["options"]["use_stemmer"].get<bool>();
    check_standard_case(parent, inputs, e, stem, name);
    // Forgetting the sentence separator makes rougeLsum equal rougeL.
    const auto metric = rouge_score_metric(stem, "none");
    const auto refs = lines_of(parent / inputs["ref"][0].get<std::string>());
    const auto hyps = lines_of(parent / inputs["hyp"].get<std::string>());
    const auto& without = e["rougeLsum_without_newlines_first20_fmeasure"];
    for (std::size_t i = 0; i < without.size(); ++i) {
      const auto scores = metric.score_pair(evalcli::utf8::decode_or_throw(refs[i], "ref"),
                                            evalcli::utf8::decode_or_throw(hyps[i], "hyp"));
      CHECK(scores[3].fmeasure == without[i].get<double>());
    }
  } else if (name == "rs_realsumm_4sys_stem") {
    for (const auto& [system, expected] : e.items()) check_standard_case(parent, inputs[system], expected, true, system);
  } else if (name == "rs_dialogsum_multiref_stem") {
    check_standard_case(parent, inputs, e["score_multi_max"], true, "score_multi");
    for (int k = 1; k <= 3; ++k) {
      json single = inputs;
      single["ref"] = json::array({inputs["ref"][k - 1]});
      check_standard_case(parent, single, e["single_ref" + std::to_string(k)], true, "single_ref");
    }
  } else if (name == "rs_bootstrap_behaviour") {
    auto base = input_args(parent, inputs);
    base.push_back("--stem");
    check_means(run_json(base)["types"], e["mean"], "mean");
    struct Variant {
      std::string key, seed, samples, ci;
      std::vector<std::string> types;
    };
    const std::vector<Variant> variants = {
        {"seed0_n1000_ci95", "0", "1000", "0.95", {}},    {"seed1_n1000_ci95", "1", "1000", "0.95", {}},
        {"seed42_n1000_ci95", "42", "1000", "0.95", {}},  {"seed42_n100_ci95", "42", "100", "0.95", {}},
        {"seed42_n1000_ci90", "42", "1000", "0.90", {}},
        {"seed42_n1000_ci95_only_rougeL", "42", "1000", "0.95", {"--types", "rougeL"}},
    };
    for (const auto& v : variants) {
      auto args = base;
      args.insert(args.end(), {"--seed", v.seed, "--bootstrap", v.samples, "--bootstrap-confidence", v.ci});
      args.insert(args.end(), v.types.begin(), v.types.end());
      check_bootstrap(run_json(args)["types"], e[v.key], v.key);
    }
  } else if (name == "rs_zh_csl_default_tokenizer_garbage") {
    check_means(run_json(input_args(parent, inputs))["types"], e["mean"], name);
    const auto hyps = lines_of(parent / inputs["hyp"].get<std::string>());
    const auto refs = lines_of(parent / inputs["ref"][0].get<std::string>());
    int hyp_any = 0, ref_any = 0, both = 0;
    for (std::size_t i = 0; i < hyps.size(); ++i) {
      const bool h = !evalcli::rouge_score_tokenize(evalcli::utf8::decode_or_throw(hyps[i], "h"), nullptr).empty();
      const bool r = !evalcli::rouge_score_tokenize(evalcli::utf8::decode_or_throw(refs[i], "r"), nullptr).empty();
      hyp_any += h;
      ref_any += r;
      both += h && r;
    }
    CHECK(hyp_any == e["hyp_lines_with_any_token"].get<int>());
    CHECK(ref_any == e["ref_lines_with_any_token"].get<int>());
    CHECK(both == e["pairs_with_tokens_on_both_sides"].get<int>());
    for (const auto& example : e["examples_first10"]) {
      const auto tokens =
          evalcli::rouge_score_tokenize(evalcli::utf8::decode_or_throw(example["hyp"].get<std::string>(), "h"), nullptr);
      CHECK(json(tokens) == example["hyp_tokens"]);
    }
    // The ASCII tokenizer on Chinese text warns instead of silently printing ~0.
    auto args = input_args(parent, inputs);
    args.insert(args.begin(), "rouge");
    CHECK(evalcli::test::run_cli(args).err.find("warning") != std::string::npos);
  } else if (name == "rs_zh_csl_lead30_char_jieba") {
    const std::vector<std::pair<std::string, std::string>> levels = {{"char_level", "zh-char"},
                                                                     {"jieba_word_level", "zh-jieba"}};
    for (const auto& [level, tokenizer] : levels) {
      auto args = input_args(parent, inputs);
      args.insert(args.end(), {"--tokenize", tokenizer, "--types", "rouge1,rouge2,rougeL", "--bootstrap", "1000"});
      const json ours = run_json(args);
      check_means(ours["types"], e[level]["mean"], level);
      check_bootstrap(ours["types"], e[level]["bootstrap_seed42"], level);
      const auto metric = rouge_score_metric(false, "none", tokenizer, {"rouge1", "rouge2", "rougeL"});
      check_per_pair(metric, ref_lines(parent, inputs), lines_of(parent / inputs["hyp"].get<std::string>()),
                     e[level]["per_pair_first20"]);
    }
  } else {
    FAIL("golden " << name << " is not covered by the conformance test");
  }
}

void check_rouge155_golden(const fs::path& parent, const std::string& name, const json& golden) {
  const json& e = golden["expected"];
  auto common = input_args(parent, golden["inputs"]);
  common.insert(common.end(), {"--compat", "rouge155", "--rouge155-data",
                               (parent / "shared/corpora/rouge155-data").string(), "--rouge155-flags",
                               golden["options"]["flags"].get<std::string>(), "--sentence-sep", "tab"});
  if (name == "r155_zh_csl_lead30_charids") common.insert(common.end(), {"--tokenize", "zh-char"});
  std::vector<std::string> args = {"rouge"};
  args.insert(args.end(), common.begin(), common.end());
  const evalcli::test::TempFile json_file("", ".json");
  args.insert(args.end(), {"--rouge155-output", "--json-out", json_file.path()});
  const auto result = evalcli::test::run_cli(args);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  // Summary lines (the report without the per-document blocks) byte for byte.
  std::string summary;
  std::map<std::string, std::vector<std::vector<std::string>>> per_eval;
  std::istringstream report(result.out);
  for (std::string line; std::getline(report, line);) {
    if (line.starts_with(".......")) continue;
    const auto eval = line.find(" Eval ");
    if (eval == std::string::npos) {
      summary += line + "\n";
      continue;
    }
    // "S ROUGE-1 Eval 000000.S R:0.31915 P:0.42857 F:0.36585"
    const std::string measure = line.substr(2, eval - 2);
    std::istringstream fields(line.substr(eval + 6));
    std::string id, r, p, f;
    fields >> id >> r >> p >> f;
    per_eval[measure].push_back({id, r.substr(2), p.substr(2), f.substr(2)});
  }
  CHECK(summary == e["stdout_summary_lines"].get<std::string>());
  for (const auto& [key, value] : e.items()) {
    if (key.starts_with("per_eval_first20")) {
      for (const auto& [measure, rows] : value.items()) {
        for (std::size_t i = 0; i < rows.size(); ++i) {
          INFO(name << " " << measure << " document " << i);
          REQUIRE(per_eval[measure].size() > i);
          CHECK(json(per_eval[measure][i]) == rows[i]);
        }
      }
    }
  }
  // The unprinted plain means (sequential sum / n) from the JSON report.
  for (const auto& [key, value] : e.items()) {
    if (!key.starts_with("plain_mean")) continue;
    const json ours = json::parse(evalcli::test::read_file(json_file.path()));
    for (const auto& [measure, means] : value.items()) {
      for (const char* f : {"R", "P", "F"}) {
        INFO(name << " " << measure << " plain mean " << f);
        CHECK(ours["measures"][measure]["plain_mean"][f].get<double>() == means[f].get<double>());
      }
    }
  }
}

}  // namespace

TEST_CASE("rouge conformance: every golden in shared/golden/rouge", "[rouge][golden]") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  std::size_t covered = 0;
  for (const auto& path : evalcli::test::golden_files(*parent, "rouge")) {
    const std::string name = path.stem().string();
    SECTION(name) {
      const json golden = evalcli::test::read_json(path);
      if (name.starts_with("rs_")) {
        check_rouge_score_golden(*parent, name, golden);
      } else if (name.starts_with("r155_")) {
        check_rouge155_golden(*parent, name, golden);
      } else if (name == "stem_table") {
        // The table itself is checked token by token in porter_stemmer_test;
        // here its summary: disagreements of NLTK vs ROUGE-1.5.5 MorphStem.
        std::map<std::string, std::string> exceptions;
        for (const auto& line : lines_of(*parent / "shared/corpora/rouge155-data/WordNet-2.0-exceptions.tsv")) {
          exceptions[line.substr(0, line.find('\t'))] = line.substr(line.find('\t') + 1);
        }
        const evalcli::text::PorterStemmer nltk, perl(evalcli::text::PorterVariant::rouge155);
        const auto rows = lines_of(*parent / golden["expected"]["table_file"].get<std::string>());
        std::size_t disagreements = 0, wrong = 0;
        for (std::size_t i = 1; i < rows.size(); ++i) {
          std::istringstream fields(rows[i]);
          std::string token, nltk_stem, rouge_stem;
          std::getline(fields, token, '\t');
          std::getline(fields, nltk_stem, '\t');
          std::getline(fields, rouge_stem, '\t');
          const auto it = exceptions.find(token);
          const std::string morph = it != exceptions.end() ? it->second : perl.stem(std::string_view(token));
          wrong += morph != rouge_stem || nltk.stem(std::string_view(token)) != nltk_stem;
          disagreements += morph != nltk.stem(std::string_view(token));
        }
        CHECK(rows.size() - 1 == golden["expected"]["n_tokens"].get<std::size_t>());
        CHECK(wrong == 0);
        CHECK(disagreements == golden["expected"]["n_disagreements"].get<std::size_t>());
      } else {
        FAIL("golden " << name << " is not covered by the conformance test");
      }
    }
    ++covered;
  }
  CHECK(covered == 25);
}
