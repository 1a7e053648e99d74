// `--signature` on every metric command (src/cli/run_signature.cpp): a run with
// non-default options prints a signature; the same inputs scored with only that
// signature print the same bytes (text and JSON), also with a bootstrap
// interval and paired tests, whose bs:/ar:/seed: fields the signature carries.
// The hand-written cases set non-default options; every registered segment
// metric is also checked with its defaults (tests/support/registered_metrics.hpp).
#include <algorithm>
#include <set>

#include "evalcli/metrics/definition.hpp"
#include "support/registered_metrics.hpp"
#include "support/test_support.hpp"

namespace evalcli::test {
namespace {

struct Case {
  std::string command;
  std::vector<std::string> options;    // metric options the signature replaces
  std::vector<std::string> resources;  // what a signature cannot carry (kept on both runs)
  bool paired = true;                  // several -i systems make sense
  bool needs_shared = false;           // resources from ../shared
  bool references = true;              // -r files (not ppl)
};

std::string example(const std::string& name) { return (source_dir() / "data" / name).string(); }

std::vector<Case> cases(const std::string& shared) {
  const std::string rouge155_data = shared + "/shared/corpora/rouge155-data";
  const std::string meteor15 = shared + "/shared/corpora/meteor15";
  const std::string toy_lm = shared + "/shared/corpora/lm/arpa/toy.en.o3.arpa";
  return {
      {"bleu", {"-tok", "intl", "--lowercase", "--smooth-method", "floor", "--smooth-value", "0.2", "--max-ngram-order", "3"}},
      {"bleu", {"--normalize", "nfkc", "--smooth-method", "add-k"}},
      {"bleu", {"-l", "en-zh"}},  // the language's tokenizer, read back from tok:
      {"ter", {"--language-pair", "en-ja"}},  // TER's Asian support, read back from asian:
      {"chrf", {"--chrf-word-order", "2", "--chrf-beta", "1", "--lowercase"}},
      {"chrf", {"--chrf-whitespace", "--chrf-eps-smoothing", "--chrf-char-order", "4"}},
      {"ter", {"--ter-case-sensitive", "--ter-no-punct"}},
      {"ter", {"--ter-normalized", "--ter-asian-support"}},
      {"rouge", {"--stem", "--types", "rouge1,rougeLsum", "--sentence-sep", ";"}},
      {"rouge", {"--tokenize", "intl", "--types", "rouge2,rougeL"}},
      {"rouge", {"--bootstrap", "50", "--seed", "5", "--bootstrap-confidence", "0.9"}, {}, false},
      {"meteor", {"--alpha", "0.8", "--modules", "exact stem", "--aggregate", "summed-stats"}},
      {"meteor", {"--lang", "de", "--gamma", "0.4", "--tokenize", "13a"}},
      {"cider", {"--variant", "cider", "--ngram-order", "3"}},
      {"cider", {"--sigma", "5", "--lowercase", "--tokenize", "none"}},
      {"rouge",
       {"--compat", "rouge155", "--rouge155-flags", "-c 95 -r 100 -n 2 -m -f B -p 0.3 -2 4 -u"},
       {"--rouge155-data", rouge155_data},
       true,
       true},
      {"meteor",
       {"--compat", "meteor15", "--norm", "norm", "-m", "exact stem synonym", "--beam", "10"},
       {"--meteor-resources", meteor15},
       true,
       true},
      {"meteor",
       {"--compat", "meteor15", "-m", "exact stem", "--alpha", "0.7", "--beta", "1", "--gamma", "0.4", "--delta", "0.6", "--weights",
        "1.0 0.5"},
       {"--meteor-resources", meteor15},
       true,
       true},
      {"meteor",
       {"--compat", "meteor15", "--lang", "de", "--norm", "norm", "-m", "exact stem", "--function-words", "language"},
       {"--meteor-resources", meteor15},
       true,
       true},
      {"ppl", {"-n", "--lowercase"}, {"--lm", toy_lm}, false, true, false},
      {"ppl", {"--tokenize", "13a"}, {"--lm", toy_lm}, false, true, false},
  };
}

// Every registered segment metric with its defaults (a metric that lands is covered without a line here).
std::vector<Case> registered_cases() {
  std::vector<Case> cases;
  for (const auto& command : registered_segment_commands()) cases.push_back({command, {}});
  return cases;
}

std::string label(const Case& c) {
  std::string text = c.command + (c.options.empty() ? " (defaults)" : "");
  for (const auto& option : c.options) text += " " + option;
  return text;
}

// The input files: one system (or two, for paired tests) against two references.
std::vector<std::string> inputs(const Case& c, bool two_systems) {
  std::vector<std::string> args;
  if (c.references) args = {"-r", example("example.ref.en"), "-r", example("example.ref2.en")};
  args.insert(args.end(), {"-i", example("example.hyp.en")});
  if (two_systems) args.push_back(example("example.ref2.en"));
  return args;
}

std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::string printed_signature(const std::string& json_text) {
  const auto report = nlohmann::json::parse(json_text);
  return (report.is_array() ? report[0] : report)["signature"].get<std::string>();
}

// Runs `c` with `statistics` options, reads its signature back, and checks that
// a run with only the signature (plus `rerun_extra`) prints the same text and JSON.
void check_round_trip(const Case& c, const std::vector<std::string>& statistics, bool two_systems,
                      const std::vector<std::string>& rerun_extra) {
  const auto base = concat(concat({c.command}, inputs(c, two_systems)), c.resources);
  const auto original = concat(concat(base, c.options), statistics);
  const CliResult json = run_cli(concat(original, {"-f", "json"}));
  INFO(json.err);
  REQUIRE(json.exit_code == 0);
  const std::string signature = printed_signature(json.out);
  INFO("signature: " << signature);
  const auto rerun = concat(concat(base, rerun_extra), {"--signature", signature});
  const CliResult json_again = run_cli(concat(rerun, {"-f", "json"}));
  INFO(json_again.err);
  REQUIRE(json_again.exit_code == 0);
  CHECK(json_again.out == json.out);
  const CliResult text = run_cli(original);
  const CliResult text_again = run_cli(rerun);
  REQUIRE(text.exit_code == 0);
  REQUIRE(text_again.exit_code == 0);
  CHECK(text_again.out == text.out);
  CHECK(text_again.err == text.err);
}

std::optional<std::string> shared_root() {
  const auto parent = source_dir().parent_path();
  if (std::filesystem::is_directory(parent / "shared" / "corpora")) return parent.string();
  return std::nullopt;
}

}  // namespace

TEST_CASE("a printed signature given to --signature reproduces the run, for every metric", "[signature]") {
  const auto shared = shared_root();
  if (!shared && running_in_ci()) FAIL("../shared is missing, and CI=true requires it");
  auto all = cases(shared.value_or("/nonexistent"));
  for (auto& c : registered_cases()) all.push_back(std::move(c));
  for (const auto& c : all) {
    if (c.needs_shared && !shared) continue;  // the project's own cases still run
    SECTION(label(c)) {
      INFO(label(c));
      check_round_trip(c, {}, false, {});
      // The bootstrap interval: bs:/seed: in the signature turn it on again.
      const std::string ci_flag = "--confidence";
      if (c.options.empty() || c.options[0] != "--bootstrap") {
        check_round_trip(c, {ci_flag, "--confidence-n", "40", "--seed", "3"}, false, {});
      }
      if (c.paired) {
        // bs: with --paired-bs given is the paired bootstrap; ar: is always the randomisation test.
        check_round_trip(c, {"--paired-bs", "--paired-bs-n", "30", "--seed", "9"}, true, {"--paired-bs"});
        check_round_trip(c, {"--paired-ar", "--paired-ar-n", "30"}, true, {});
      }
    }
  }
}

TEST_CASE("signature read-back refuses duplicate, contradicting and unknown fields", "[signature]") {
  const std::vector<std::string> files = {"-r", example("example.ref.en"), "-i", example("example.hyp.en")};
  auto run = [&](const std::string& command, const std::string& signature, std::vector<std::string> extra = {}) {
    return run_cli(concat(concat(concat({command}, files), extra), {"--signature", signature}));
  };
  const std::string bleu = "nrefs:1|case:mixed|eff:no|tok:13a-v1|smooth:exp|version:evalcli-0.1.0";

  SECTION("a key twice, or its long and short forms") {
    const CliResult twice = run("bleu", "nrefs:1|case:mixed|case:lc|tok:13a");
    CHECK(twice.exit_code == 2);
    CHECK(twice.err.find("'case' twice") != std::string::npos);
    CHECK(run("bleu", "nrefs:1|case:mixed|c:lc|tok:13a").exit_code == 2);
    CHECK(run("bleu", "nrefs:1|#:1|case:mixed").exit_code == 2);
  }
  SECTION("an option the signature sets, given again") {
    const CliResult both = run("bleu", bleu, {"--lowercase"});
    CHECK(both.exit_code == 2);
    CHECK(both.err.find("--lowercase") != std::string::npos);
    CHECK(run("bleu", "nrefs:1|bs:100|seed:1|" + bleu.substr(8), {"--confidence-n", "50"}).exit_code == 2);
    CHECK(run("bleu", "nrefs:1|bs:100|seed:1|" + bleu.substr(8), {"--seed", "2"}).exit_code == 2);
  }
  SECTION("nrefs against the references given") {
    CHECK(run("bleu", "nrefs:2|" + bleu.substr(8)).exit_code == 2);
  }
  SECTION("fields of another metric, unknown fields, values not as printed") {
    CHECK(run("rouge", bleu).exit_code == 2);
    const CliResult unknown =
        run("cider", "nrefs:1|variant:cider-d|n:4|sigma:6|df:corpus|tok:ptb-v2|colour:blue|version:evalcli-0.1.0");
    CHECK(unknown.exit_code == 2);
    CHECK(unknown.err.find("colour:blue") != std::string::npos);
    // A field this evalcli prints otherwise (sigma:6.0 is printed sigma:6).
    const CliResult reprinted =
        run("cider", "nrefs:1|variant:cider-d|n:4|sigma:6.0|df:corpus|tok:ptb-v2|version:evalcli-0.1.0");
    CHECK(reprinted.exit_code == 2);
    CHECK(reprinted.err.find("sigma:6.0") != std::string::npos);
    // A field left out.
    CHECK(run("meteor", "nrefs:1|meteor:nltk-3.8|tok:none-v1|alpha:0.9|beta:3|gamma:0.5|version:evalcli-0.1.0")
              .exit_code == 2);
  }
}

TEST_CASE("a score pasted after the signature is compared with the recomputed one", "[signature]") {
  const std::vector<std::string> files = {"-r", example("example.ref.en"), "-i", example("example.hyp.en")};
  const CliResult line = run_cli(concat({"chrf"}, files));
  REQUIRE(line.exit_code == 0);
  const std::string printed = line.out.substr(0, line.out.find('\n'));  // "chrF2|nrefs:1|... = 72.2"

  const CliResult same = run_cli(concat(concat({"chrf"}, files), {"--signature", printed}));
  CHECK(same.exit_code == 0);
  CHECK(same.out == line.out);

  // The last printed digit changed: compared at the pasted precision.
  std::string wrong = printed;
  wrong.back() = wrong.back() == '9' ? '0' : static_cast<char>(wrong.back() + 1);
  const CliResult differs = run_cli(concat(concat({"chrf"}, files), {"--signature", wrong}));
  CHECK(differs.exit_code == 5);
  CHECK(differs.out == line.out);  // the report is still printed
  CHECK(differs.err.find("not reproduced") != std::string::npos);
}

}  // namespace evalcli::test

namespace evalcli::test {

// The fields a definition prints are the ones it reads: every key of the
// layout has a printer, each on an option's signature_key or a signature key.
TEST_CASE("every printed signature field has a printer and is read back", "[signature]") {
  for (const MetricDefinition* definition : metric_definitions()) {
    INFO(definition->command);
    std::set<std::string> keys;
    for (const auto& key : definition->signature_layout) {
      INFO(key);
      CHECK(keys.insert(key).second);  // printed once
      const bool option = std::any_of(definition->options.begin(), definition->options.end(), [&](const OptionSpec& s) {
        return s.signature_key == key && s.print;
      });
      const bool signature_key = std::any_of(definition->signature_keys.begin(), definition->signature_keys.end(),
                                             [&](const SignatureKey& k) { return k.key == key && k.print && k.apply; });
      CHECK((option || signature_key));
    }
    for (const auto& field : definition->sacrebleu_layout) {
      INFO(field.key);
      CHECK(keys.count(field.key) == 1);  // SacreBLEU's fields are evalcli's own, under SacreBLEU's short keys
    }
  }
}

}  // namespace evalcli::test
