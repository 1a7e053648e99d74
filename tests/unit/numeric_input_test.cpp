// Numbers from outside evalcli (options, --rouge155-flags, seeds, resource
// files) that are malformed, out of range or not finite: a usage error (or an
// input/resource error) naming the value, never exit 70 (issue #16, item 8).
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "evalcli/core/numbers.hpp"
#include "support/scoped_env.hpp"
#include "support/test_support.hpp"

namespace {

using evalcli::test::run_cli;
using evalcli::test::ScopedEnv;
using evalcli::test::source_dir;

std::string example(const std::string& name) { return (source_dir() / "data" / name).string(); }

std::vector<std::string> scoring_args(const std::string& command) {
  return {command, "-r", example("example.ref.en"), "-i", example("example.hyp.en")};
}

std::vector<std::string> with(std::vector<std::string> args, std::initializer_list<std::string> more) {
  args.insert(args.end(), more);
  return args;
}

// The contract of docs/errors.md: the exit code, the value quoted on stderr,
// at most three stderr lines and nothing on stdout.
void check_refused(const std::vector<std::string>& args, int exit_code, const std::string& value) {
  const auto result = run_cli(args);
  INFO("args: " << Catch::Detail::stringify(args) << "\nstderr: " << result.err);
  CHECK(result.exit_code == exit_code);
  CHECK(result.err.find(value) != std::string::npos);
  CHECK(std::count(result.err.begin(), result.err.end(), '\n') <= 3);
  CHECK(result.out.empty());
}


}  // namespace

TEST_CASE("number helpers: whole text, range, finite", "[numbers]") {
  using evalcli::NumberProblem;
  int i = 0;
  CHECK(evalcli::parse_integer("+12", i) == NumberProblem::ok);
  CHECK(i == 12);
  CHECK(evalcli::parse_integer("-7", i) == NumberProblem::ok);
  CHECK(i == -7);
  CHECK(evalcli::parse_integer("99999999999999", i) == NumberProblem::out_of_range);
  for (const char* bad : {"", "+", "+-1", "12abc", "1.0", " 1", "1e3", "abc"}) {
    CHECK(evalcli::parse_integer(bad, i) == NumberProblem::malformed);
  }
  unsigned u = 0;
  CHECK(evalcli::parse_integer("-1", u) == NumberProblem::malformed);
  double d = 0;
  CHECK(evalcli::parse_finite_double("+0.5", d) == NumberProblem::ok);
  CHECK(d == 0.5);
  CHECK(evalcli::parse_finite_double("1e-400", d) == NumberProblem::ok);
  for (const char* huge : {"1e999", "-1e999", "inf", "-inf", "nan", "infinity"}) {
    CHECK(evalcli::parse_finite_double(huge, d) == NumberProblem::out_of_range);
  }
  for (const char* bad : {"", "1.2abc", "0x10", "+-1", "."})
    CHECK(evalcli::parse_finite_double(bad, d) == NumberProblem::malformed);
  CHECK(evalcli::integer_in_range("-n", "4", 0, 9) == 4);
  CHECK_THROWS_WITH(evalcli::integer_in_range("-n", "10", 0, 9), "-n: '10' is not a whole number from 0 to 9");
  CHECK_THROWS_WITH(evalcli::double_in_range("-c", "1e999", 0, 100), "-c: '1e999' is not a number from 0 to 100");
  CHECK_THROWS_WITH(evalcli::double_in_range("--weights", "nan"), "--weights: 'nan' is not a finite number");
}

TEST_CASE("rouge155 flags: out-of-range, malformed and NaN values are usage errors", "[numbers][rouge]") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  const std::string data = (*parent / "shared/corpora/rouge155-data").string();
  for (const auto& [flags, value] : std::vector<std::pair<std::string, std::string>>{
           {"-n 99999999999999", "99999999999999"},
           {"-c 1e999", "1e999"},
           {"-r -5", "-5"},
           {"-l abc", "abc"},
           {"-p nan", "nan"},
           {"-b 1e3", "1e3"},
           {"-t 99999999999", "99999999999"},
           {"-2 inf", "inf"},
           {"-n 2 -w inf", "inf"},
           {"-n 2 -w 1.2abc", "1.2abc"},
       }) {
    SECTION(flags) {
      check_refused(
          with(scoring_args("rouge"), {"--compat", "rouge155", "--rouge155-data", data, "--rouge155-flags", flags}), 2,
          value);
    }
  }
}

TEST_CASE(
    "seeds: --seed and SACREBLEU_SEED out of range or malformed are "
    "usage errors",
    "[numbers][resampling]") {
  SECTION("--seed with more digits than Python's int() reads (4,300; any size below is a numpy seed)") {
    const std::string digits(4301, '1');
    check_refused(with(scoring_args("bleu"), {"--confidence", "--seed", digits}), 2, digits);
  }
  SECTION("--seed negative") { check_refused(with(scoring_args("chrf"), {"--confidence", "--seed", "-3"}), 2, "'-3'"); }
  SECTION("SACREBLEU_SEED garbage") {
    const ScopedEnv env("SACREBLEU_SEED", "garbage");
    const auto result = run_cli(with(scoring_args("bleu"), {"--confidence"}));
    CHECK(result.exit_code == 2);
    CHECK(result.err.find("SACREBLEU_SEED") != std::string::npos);
    CHECK(result.err.find("garbage") != std::string::npos);
    CHECK(result.out.empty());
  }
  SECTION("the largest 64-bit seed is accepted") {
    CHECK(run_cli(with(scoring_args("bleu"), {"--confidence", "--seed", "18446744073709551615"})).exit_code == 0);
  }
}

TEST_CASE("METEOR 1.5 --weights: infinite or NaN weights are usage errors", "[numbers][meteor]") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  const std::string resources = (*parent / "shared/corpora/meteor15").string();
  for (const std::string weights : {"1.0 1e999", "1.0 nan", "inf", "1.0 abc"}) {
    SECTION(weights) {
      check_refused(
          with(scoring_args("meteor"), {"--compat", "meteor15", "--meteor-resources", resources, "--weights", weights}),
          2, weights.substr(weights.rfind(' ') + 1));
    }
  }
}

TEST_CASE(
    "METEOR 1.5 resources: a synset id that is not a Java int is a "
    "resource error",
    "[numbers][meteor]") {
  const auto dir = std::filesystem::temp_directory_path() / ("evalcli-numbers-" + std::to_string(::getpid()));
  for (const char* sub : {"function", "nonbreaking", "synonym"}) std::filesystem::create_directories(dir / sub);
  for (const char* file : {"function/english.words", "nonbreaking/english.prefixes", "synonym/english.exceptions"}) {
    std::ofstream(dir / file) << "";
  }
  std::ofstream(dir / "synonym/english.synsets") << "dog\n1 2\ncat\n3 99999999999\n";
  check_refused(
      with(scoring_args("meteor"), {"--compat", "meteor15", "--meteor-resources", dir.string(), "-m", "exact synonym"}),
      4, "english.synsets:4: synset id '99999999999'");
  std::filesystem::remove_all(dir);
}

TEST_CASE(
    "numeric options: NaN, infinity and values beyond their type are "
    "usage errors",
    "[numbers][cli]") {
  struct Case {
    std::vector<std::string> args;
    std::string value;
  };
  const std::vector<Case> cases = {
      {with(scoring_args("bleu"), {"--max-ngram-order", "1e999"}), "1e999"},
      {with(scoring_args("bleu"), {"-s", "floor", "--smooth-value", "inf"}), "inf"},
      {with(scoring_args("bleu"), {"-s", "floor", "--smooth-value", "nan"}), "nan"},
      {with(scoring_args("bleu"), {"--confidence", "--confidence-n", "99999999999999"}), "99999999999999"},
      {with(scoring_args("bleu"), {"-w", "nan"}), "nan"},
      {with(scoring_args("chrf"), {"--chrf-beta", "nan"}), "nan"},
      {with(scoring_args("chrf"), {"--chrf-char-order", "99999999999999"}), "99999999999999"},
      {with(scoring_args("ter"), {"--paired-bs-n", "nan"}), "nan"},
      {with(scoring_args("ter"), {"--num-refs", "1e999"}), "1e999"},
      {with(scoring_args("cider"), {"--sigma", "inf"}), "inf"},
      {with(scoring_args("cider"), {"--sigma", "nan"}), "nan"},
      {with(scoring_args("cider"), {"--ngram-order", "99999999999999"}), "99999999999999"},
      {with(scoring_args("meteor"), {"--alpha", "nan"}), "nan"},
      {with(scoring_args("meteor"), {"--gamma", "1e999"}), "1e999"},
      {with(scoring_args("meteor"), {"--beam", "99999999999999"}), "99999999999999"},
      {with(scoring_args("rouge"), {"--bootstrap", "nan"}), "nan"},
      {with(scoring_args("rouge"), {"--bootstrap-confidence", "inf"}), "inf"},
      {with(scoring_args("rouge"), {"--seed", "99999999999"}), "99999999999"},
      {with(scoring_args("rouge"), {"--compat", "rouge155", "--alpha", "nan"}), "nan"},
      {with(scoring_args("rouge"), {"--compat", "rouge155", "--max-ngram", "1e999"}), "1e999"},
      {{"check", "--current", example("example.hyp.en"), "--baseline", example("example.ref.en"), "--max-drop", "nan"},
       "nan"},
      {{"sacrebleu", example("example.ref.en"), "-i", example("example.hyp.en"), "--smooth-value", "nan"}, "nan"},
  };
  for (const auto& c : cases) {
    SECTION(c.args[0] + " " + Catch::Detail::stringify(std::vector<std::string>(c.args.begin() + 5, c.args.end()))) {
      check_refused(c.args, 2, c.value);
    }
  }
}

TEST_CASE("numeric options: ordinary values still work", "[numbers][cli]") {
  CHECK(run_cli(with(scoring_args("bleu"), {"-s", "floor", "--smooth-value", "+0.1", "--max-ngram-order", "3"}))
            .exit_code == 0);
  CHECK(run_cli(with(scoring_args("chrf"), {"--chrf-beta", "3"})).exit_code == 0);
  CHECK(run_cli(with(scoring_args("cider"), {"--sigma", "6.5"})).exit_code == 0);
}
