// The bad-input matrix of docs/errors.md: one test per row, for every scoring
// subcommand. Each bad input must give exit code N, an "evalcli: error:" line
// (at most three lines on stderr), and no --json-out file.
// A metric declared by a MetricDefinition is in scoring_commands() as soon as
// it is registered (tests/support/registered_metrics.hpp); the others are listed below.
#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "evalcli/metrics/definition.hpp"
#include "support/registered_metrics.hpp"
#include "support/sanitizers.hpp"
#include "support/test_support.hpp"

using evalcli::test::run_cli;
using evalcli::test::TempFile;

namespace {

// Subcommands that score hypotheses (-i) against references (-r) with the
// shared input/output options of src/cli/common.cpp: these, and every
// registered metric that scores segments with its defaults.
std::vector<std::string> scoring_commands() {
  return evalcli::test::with_registered_commands({"bleu", "chrf", "ter", "rouge", "cider", "meteor"});
}
// Those with --tokenize (-tok): every command above but a definition without the shared text options.
bool has_tokenize_option(const std::string& command) {
  const evalcli::MetricDefinition* definition = evalcli::find_metric_definition_by_command(command);
  return definition == nullptr || definition->find_option("tokenize") != nullptr;
}
// Those whose "-b" prints "100.0" for identical input and that read systems from stdin.
std::vector<std::string> sacrebleu_style_commands() { return {"bleu", "chrf"}; }

std::size_t line_count(const std::string& text) {
  std::size_t lines = 0;
  for (char c : text) lines += c == '\n';
  return lines;
}

std::string output_path() {
  return (std::filesystem::temp_directory_path() / ("evalcli-bad-input-" + std::to_string(::getpid()) + ".json"))
      .string();
}

// Checks the error contract on a finished run: exit code, one "evalcli: error:"
// line naming the problem (at most three lines on stderr), nothing on stdout.
void check_error(const evalcli::test::CliResult& result, int exit_code, const std::string& message_part,
                 const std::string& prefix = "evalcli: error: ") {
  INFO("stderr: " << result.err);
  CHECK(result.exit_code == exit_code);
  CHECK(result.err.rfind(prefix, 0) == 0);
  CHECK(result.err.find(message_part) != std::string::npos);
  CHECK(line_count(result.err) >= 1);
  CHECK(line_count(result.err) <= 3);
  CHECK(result.out.empty());
}

// Runs `evalcli <command> args... --json-out OUT` and checks the error contract.
evalcli::test::CliResult expect_error(const std::string& command, std::vector<std::string> args, int exit_code,
                                      const std::string& message_part, const std::string& stdin_text = {}) {
  const std::string out = output_path();
  std::filesystem::remove(out);
  args.insert(args.begin(), command);
  args.push_back("--json-out");
  args.push_back(out);
  const auto result = run_cli(args, stdin_text);
  INFO(command);
  check_error(result, exit_code, message_part);
  CHECK_FALSE(std::filesystem::exists(out));
  return result;
}

// The same for subcommands without --json-out (tokenize, check).
evalcli::test::CliResult expect_plain_error(std::vector<std::string> args, int exit_code,
                                            const std::string& message_part) {
  const auto result = run_cli(args);
  INFO(args[0]);
  check_error(result, exit_code, message_part);
  return result;
}

// Runs `evalcli <command> args... --json-out OUT -b` expecting success.
std::string expect_score(const std::string& command, std::vector<std::string> args) {
  const std::string out = output_path();
  args.insert(args.begin(), command);
  for (const char* extra : {"-b", "--json-out"}) args.push_back(extra);
  args.push_back(out);
  const auto result = run_cli(args);
  INFO(command << " stderr: " << result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.err.empty());
  CHECK(std::filesystem::exists(out));
  std::filesystem::remove(out);
  return result.out;
}

const char* const kRef = "the cat sat on the mat\nhello world\n";
const char* const kHyp = "the cat sat on a mat\nhello world\n";

}  // namespace

TEST_CASE("missing file: exit 3 names the file", "[bad_input]") {
  TempFile ref(kRef), hyp(kHyp);
  for (const auto& command : scoring_commands()) {
    expect_error(command, {"-r", "/nonexistent/ref.txt", "-i", hyp.path()}, 3, "/nonexistent/ref.txt: no such file");
    expect_error(command, {"-r", ref.path(), "-i", "/nonexistent/hyp.txt"}, 3, "/nonexistent/hyp.txt: no such file");
  }
}

TEST_CASE("unreadable file: exit 3", "[bad_input]") {
  // /proc/self/mem opens but every read at offset 0 fails (EIO), even for root,
  // which chmod 000 cannot do.
  TempFile ref(kRef);
  for (const auto& command : scoring_commands()) {
    expect_error(command, {"-r", ref.path(), "-i", "/proc/self/mem"}, 3, "/proc/self/mem: read error");
  }
}

TEST_CASE("directory given as a file: exit 3", "[bad_input]") {
  TempFile hyp(kHyp);
  const auto dir = std::filesystem::temp_directory_path().string();
  for (const auto& command : scoring_commands()) {
    expect_error(command, {"-r", dir, "-i", hyp.path()}, 3, "is a directory");
    expect_error(command, {"-r", hyp.path(), "-i", dir}, 3, "is a directory");
  }
}

TEST_CASE("empty files: exit 3", "[bad_input]") {
  TempFile ref(kRef), empty("");
  for (const auto& command : scoring_commands()) {
    expect_error(command, {"-r", ref.path(), "-i", empty.path()}, 3, "line counts differ");
    expect_error(command, {"-r", empty.path(), "-i", empty.path()}, 3, "empty input");
  }
}

TEST_CASE("invalid UTF-8: exit 3 names file and line and byte", "[bad_input]") {
  TempFile ref(kRef), hyp("fine\nab\xff cd\n");
  for (const auto& command : scoring_commands()) {
    expect_error(command, {"-r", ref.path(), "-i", hyp.path()}, 3, hyp.path() + ":2:byte 3: invalid UTF-8");
    expect_error(command, {"-r", hyp.path(), "-i", ref.path()}, 3, hyp.path() + ":2:byte 3: invalid UTF-8");
  }
  TempFile overlong("\xc0\xaf\n\n"), surrogate("\xed\xa0\x80\n\n");
  expect_error("bleu", {"-r", ref.path(), "-i", overlong.path()}, 3, ":1:byte 1: invalid UTF-8 (byte 0xC0)");
  expect_error("bleu", {"-r", ref.path(), "-i", surrogate.path()}, 3, ":1:byte 1: invalid UTF-8 (byte 0xED)");
}

TEST_CASE("line-count mismatch: exit 3 gives every length", "[bad_input]") {
  TempFile ref(kRef), hyp("one line\n");
  for (const auto& command : scoring_commands()) {
    const auto result = expect_error(command, {"-r", ref.path(), "-i", hyp.path()}, 3, "line counts differ");
    CHECK(result.err.find(hyp.path() + " has 1 line,") != std::string::npos);
    CHECK(result.err.find(ref.path() + " has 2 lines") != std::string::npos);
  }
}

TEST_CASE("references of different lengths: exit 3", "[bad_input]") {
  TempFile ref1(kRef), ref2("only one\n"), hyp(kHyp);
  for (const auto& command : scoring_commands()) {
    expect_error(command, {"-r", ref1.path(), "-r", ref2.path(), "-i", hyp.path()}, 3, "line counts differ");
  }
}

TEST_CASE("stdin systems with different tab-field counts: exit 3", "[bad_input]") {
  TempFile ref(kRef);
  for (const auto& command : sacrebleu_style_commands()) {
    expect_error(command, {"-r", ref.path()}, 3, "<stdin>:2: 1 tab-separated systems", "a\tb\nc\n");
  }
}

TEST_CASE("NUL bytes are ordinary characters as in Python", "[bad_input]") {
  const std::string with_nul("a\0b c d e\n", 10);
  TempFile ref(with_nul), same(with_nul);
  for (const auto& command : sacrebleu_style_commands()) {
    CHECK(expect_score(command, {"-r", ref.path(), "-i", same.path()}) == "100.0\n");
  }
}

TEST_CASE("CRLF line ends score as LF (the CR is trailing whitespace)", "[bad_input]") {
  TempFile ref_lf(kRef), hyp_lf(kHyp);
  TempFile ref_crlf("the cat sat on the mat\r\nhello world\r\n"), hyp_crlf("the cat sat on a mat\r\nhello world\r\n");
  for (const auto& command : scoring_commands()) {
    CHECK(expect_score(command, {"-r", ref_crlf.path(), "-i", hyp_crlf.path()}) ==
          expect_score(command, {"-r", ref_lf.path(), "-i", hyp_lf.path()}));
  }
}

TEST_CASE("a UTF-8 BOM is kept as U+FEFF as SacreBLEU does", "[bad_input]") {
  TempFile ref(kRef), hyp_bom(std::string("\xef\xbb\xbf") + kRef);
  for (const auto& command : sacrebleu_style_commands()) {
    CHECK(expect_score(command, {"-r", ref.path(), "-i", ref.path()}) == "100.0\n");
    // "\uFEFFthe" is not "the": the first token no longer matches.
    CHECK(expect_score(command, {"-r", ref.path(), "-i", hyp_bom.path()}) != "100.0\n");
  }
}

TEST_CASE("a gigantic line fails at the line limit with bounded memory", "[bad_input]") {
  // 50 MB on one line; the limit is 16 MiB, and reading stops there.
  TempFile ref(kRef), giant("");
  {
    std::ofstream out(giant.path(), std::ios::binary);
    const std::string block(1 << 20, 'a');
    for (int i = 0; i < 50; ++i) out << block;
    out << '\n';
  }
  rusage before{};
  getrusage(RUSAGE_SELF, &before);
  for (const auto& command : scoring_commands()) {
    expect_error(command, {"-r", ref.path(), "-i", giant.path()}, 3, giant.path() + ":1: line longer than 16777216");
  }
  rusage after{};
  getrusage(RUSAGE_SELF, &after);
#if EVALCLI_TEST_HAS_ASAN
  // AddressSanitizer's shadow memory and freed-memory quarantine inflate the
  // peak RSS by design: the bound is checked by the normal build only.
  (void)before;
  (void)after;
#else
  CHECK(after.ru_maxrss - before.ru_maxrss < 256 * 1024);  // KiB: far below the file's size
#endif
}

TEST_CASE("unknown tokenizer or option value: exit 2", "[bad_input]") {
  TempFile ref(kRef), hyp(kHyp);
  for (const auto& command : scoring_commands()) {
    if (has_tokenize_option(command)) {
      expect_error(command, {"-r", ref.path(), "-i", hyp.path(), "-tok", "nosuch"}, 2, "unknown tokenizer 'nosuch'");
    }
    expect_error(command, {"-r", ref.path(), "-i", hyp.path(), "-f", "xml"}, 2, "--format");
    expect_error(command, {"-r", ref.path(), "-i", hyp.path(), "--no-such-option"}, 2, "--no-such-option");
  }
  expect_error("bleu", {"-r", ref.path(), "-i", hyp.path(), "-s", "bogus"}, 2, "unknown BLEU smoothing 'bogus'");
}

TEST_CASE("unparsable signature: exit 2", "[bad_input]") {
  TempFile ref(kRef), hyp(kHyp);
  for (const std::string signature :
       {"|||", ":", "BLEU+x", "nrefs:1|tok:nosuch", "nrefs:1|order:abc", "nrefs:1|order:99999999999",
        "nrefs:1|order:1000", "nrefs:1|smooth:floor[x]", "nrefs:1|smooth:floor[", "nrefs:1|frobnicate:yes"}) {
    INFO(signature);
    expect_error("bleu", {"-r", ref.path(), "-i", hyp.path(), "--signature", signature}, 2, "signature");
  }
}

TEST_CASE("a json-out file that cannot be written: exit 3 and no file left", "[bad_input]") {
  TempFile ref(kRef), hyp(kHyp);
  const auto dir = std::filesystem::temp_directory_path() / ("evalcli-no-dir-" + std::to_string(::getpid()));
  for (const auto& command : scoring_commands()) {
    const auto result = run_cli({command, "-r", ref.path(), "-i", hyp.path(), "--json-out", (dir / "x.json").string()});
    CHECK(result.exit_code == 3);
    CHECK(line_count(result.err) == 1);
    CHECK_FALSE(std::filesystem::exists(dir));
  }
}

// The issue's acceptance check, exactly: `evalcli bleu -r REF -i HYP --json-out OUT`.
TEST_CASE("acceptance: bleu -r REF -i HYP --json-out OUT on each bad input", "[bad_input]") {
  TempFile ref(kRef), hyp(kHyp), bad_utf8("fine\nab\xff cd\n"), short_hyp("one line\n");
  const auto dir = std::filesystem::temp_directory_path().string();
  struct Case {
    std::vector<std::string> args;
    const char* what;
  };
  const std::vector<Case> cases = {
      {{"-r", ref.path(), "-i", bad_utf8.path()}, "invalid UTF-8"},
      {{"-r", ref.path(), "-i", short_hyp.path()}, "line counts differ"},
      {{"-r", "/nonexistent/ref.txt", "-i", hyp.path()}, "no such file"},
      {{"-r", dir, "-i", hyp.path()}, "is a directory"},
      {{"-r", ref.path(), "-i", hyp.path(), "-tok", "nosuch"}, "unknown tokenizer"},
      {{"-r", ref.path(), "-i", hyp.path(), "--signature", "nrefs:1|order:abc"}, "signature"},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    const std::string out = output_path();
    std::filesystem::remove(out);
    std::vector<std::string> args = {"bleu"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    args.push_back("--json-out");
    args.push_back(out);
    const auto result = run_cli(args);
    INFO("stderr: " << result.err);
    CHECK(result.exit_code != 0);
    CHECK(result.exit_code != 70);
    CHECK(line_count(result.err) >= 1);
    CHECK(line_count(result.err) <= 3);
    CHECK(result.err.find(c.what) != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(out));
  }
}

TEST_CASE("tokenize: bad input files and options", "[bad_input]") {
  TempFile bad_utf8("fine\nab\xff cd\n"), text(kRef), giant("");
  {
    std::ofstream out(giant.path(), std::ios::binary);
    out << std::string((std::size_t{16} << 20) + 1, 'a') << '\n';
  }
  const auto dir = std::filesystem::temp_directory_path().string();
  expect_plain_error({"tokenize", "-i", "/nonexistent/in.txt"}, 3, "/nonexistent/in.txt: no such file");
  expect_plain_error({"tokenize", "-i", dir}, 3, "is a directory");
  expect_plain_error({"tokenize", "-i", "/proc/self/mem"}, 3, "/proc/self/mem: read error");
  expect_plain_error({"tokenize", "-i", giant.path()}, 3, ":1: line longer than 16777216");
  expect_plain_error({"tokenize", "-i", text.path(), "-tok", "nosuch"}, 2, "unknown tokenizer 'nosuch'");
  expect_plain_error({"tokenize", "-i", text.path(), "--normalize", "nosuch"}, 2, "nosuch");
  // The lines before the bad one are already printed (tokenize streams); the error names the line.
  const auto result = run_cli({"tokenize", "-i", bad_utf8.path()});
  CHECK(result.exit_code == 3);
  CHECK(result.err == "evalcli: error: " + bad_utf8.path() + ":2:byte 3: invalid UTF-8 (byte 0xFF)\n");
  CHECK(run_cli({"tokenize", "-i", TempFile("").path()}).exit_code == 0);
}

namespace {

const char* const kArpa =
    "\\data\\\nngram 1=4\nngram 2=2\n\n\\1-grams:\n-1.0\t<unk>\t0\n-0.5\t<s>\t-0.3\n-0.7\t</s>\n-0.6\ta\t-0.2\n\n"
    "\\2-grams:\n-0.3\t<s> a\n-0.2\ta </s>\n\n\\end\\\n";

}  // namespace

TEST_CASE("ppl: bad models, inputs and options", "[bad_input]") {
  TempFile lm(kArpa, ".arpa"), text("a a\na\n"), truncated(std::string(kArpa).substr(0, 60), ".arpa");
  TempFile broken_gzip(std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03KO", 12), ".gz");
  TempFile bad_utf8("a\nab\xff cd\n"), not_jsonl("a a\n", ".jsonl"), giant("");
  {
    std::ofstream out(giant.path(), std::ios::binary);
    out << std::string((std::size_t{16} << 20) + 1, 'a') << '\n';
  }
  const auto dir = std::filesystem::temp_directory_path().string();
  expect_error("ppl", {"--lm", "/nonexistent/lm.arpa", "-i", text.path()}, 3, "/nonexistent/lm.arpa: no such file");
  expect_error("ppl", {"--lm", lm.path(), "-i", "/nonexistent/in.txt"}, 3, "/nonexistent/in.txt: no such file");
  expect_error("ppl", {"--lm", dir, "-i", text.path()}, 3, "is a directory");
  expect_error("ppl", {"--lm", lm.path(), "-i", dir}, 3, "is a directory");
  expect_error("ppl", {"--lm", lm.path(), "-i", "/proc/self/mem"}, 3, "/proc/self/mem: read error");
  expect_error("ppl", {"--lm", "/proc/self/mem", "-i", text.path()}, 3, "/proc/self/mem: read error");
  expect_error("ppl", {"--lm", truncated.path(), "-i", text.path()}, 3, truncated.path() + ":");
  expect_error("ppl", {"--lm", broken_gzip.path(), "-i", text.path()}, 3, broken_gzip.path() + ": ");
  expect_error("ppl", {"--lm", lm.path(), "-i", text.path(), "-tok", "nosuch"}, 2, "unknown tokenizer 'nosuch'");
  expect_error("ppl", {"--lm", lm.path(), "-i", bad_utf8.path(), "-tok", "13a"}, 3, ":2:byte 3: invalid UTF-8");
  expect_error("ppl", {"--lm", lm.path(), "-i", giant.path()}, 3, giant.path() + ":1: line longer than 16777216");
  expect_error("ppl", {"--logprobs", not_jsonl.path()}, 3, not_jsonl.path() + ":1: not valid JSON");
  expect_error("ppl", {"--logprobs", "/nonexistent/lp.jsonl"}, 3, "/nonexistent/lp.jsonl: no such file");
  expect_error("ppl", {"--logprobs", "/proc/self/mem"}, 3, "/proc/self/mem: read error");
}

TEST_CASE("merge: bad statistics shards", "[bad_input]") {
  TempFile ref(kRef), hyp(kHyp), not_json(kRef, ".json"), schema_number(R"({"schema": 5})", ".json");
  TempFile bleu_shard("", ".json"), chrf_shard("", ".json");
  REQUIRE(run_cli({"bleu", "-r", ref.path(), "-i", hyp.path(), "--stats-out", bleu_shard.path()}).exit_code == 0);
  REQUIRE(run_cli({"chrf", "-r", ref.path(), "-i", hyp.path(), "--stats-out", chrf_shard.path()}).exit_code == 0);
  const auto dir = std::filesystem::temp_directory_path().string();
  expect_error("merge", {"/nonexistent/shard.json"}, 3, "/nonexistent/shard.json: no such file");
  expect_error("merge", {dir}, 3, "is a directory");
  expect_error("merge", {"/proc/self/mem"}, 3, "/proc/self/mem: read error");
  expect_error("merge", {not_json.path()}, 3, "not an evalcli statistics shard: invalid JSON");
  expect_error("merge", {schema_number.path()}, 3, "not an evalcli statistics shard: schema");
  expect_error("merge", {bleu_shard.path(), chrf_shard.path()}, 2, "cannot be merged");
}

TEST_CASE("check: bad baselines and inputs", "[bad_input]") {
  TempFile ref(kRef), hyp(kHyp), bad_utf8("fine\nab\xff cd\n"), short_hyp("one line\n");
  TempFile baseline("", ".json"), not_json(kRef, ".json"), schema_number(R"({"schema": 5})", ".json");
  TempFile bad_signature(R"({"schema": "evalcli-report/1", "name": "BLEU", "signature": "|||", "score": 1})", ".json");
  REQUIRE(run_cli({"bleu", "-r", ref.path(), "-i", hyp.path(), "--json-out", baseline.path()}).exit_code == 0);
  const std::vector<std::string> inputs = {"-r", ref.path(), "-i", hyp.path()};
  auto check = [&](const std::string& baseline_path, std::vector<std::string> input = {}) {
    if (input.empty()) input = inputs;
    input.insert(input.begin(), {"check", "--baseline", baseline_path});
    return input;
  };
  expect_plain_error(check("/nonexistent/base.json"), 3, "/nonexistent/base.json: no such file");
  expect_plain_error(check("/proc/self/mem"), 3, "/proc/self/mem: read error");
  expect_plain_error(check(not_json.path()), 3, "baseline is not JSON");
  expect_plain_error(check(schema_number.path()), 3, "baseline must be an evalcli JSON report");
  expect_plain_error(check(bad_signature.path()), 2, "signature");
  expect_plain_error(check(baseline.path(), {"--current", not_json.path()}), 3, "current is not JSON");
  expect_plain_error(check(baseline.path(), {"--current", "/nonexistent/new.json"}), 3, "no such file");
  expect_plain_error(check(baseline.path(), {"-r", ref.path(), "-i", bad_utf8.path()}), 3, ":2:byte 3: invalid UTF-8");
  expect_plain_error(check(baseline.path(), {"-r", ref.path(), "-i", short_hyp.path()}), 3, "line counts differ");
  expect_plain_error(check(baseline.path(), {"-r", ref.path(), "-i", hyp.path(), "--max-drop", "-1"}), 2,
                     "--max-drop");
}

// `evalcli sacrebleu` reproduces SacreBLEU's messages and its exit code 1, but
// keeps the rest of the contract: a short message, no crash, no traceback.
TEST_CASE("sacrebleu: bad input exits 1 with SacreBLEU's short message", "[bad_input]") {
  TempFile ref(kRef), hyp(kHyp), bad_utf8("fine\nab\xff cd\n"), short_hyp("one line\n");
  const auto dir = std::filesystem::temp_directory_path().string();
  check_error(run_cli({"sacrebleu", ref.path(), "-i", bad_utf8.path()}), 1, "invalid UTF-8", "sacreBLEU: ");
  check_error(run_cli({"sacrebleu", ref.path(), "-i", short_hyp.path()}), 1, "different lengths", "sacreBLEU: ");
  check_error(run_cli({"sacrebleu", "/nonexistent/ref.txt", "-i", hyp.path()}), 1, "no such file", "sacreBLEU: ");
  check_error(run_cli({"sacrebleu", dir, "-i", hyp.path()}), 1, "is a directory", "sacreBLEU: ");
  check_error(run_cli({"sacrebleu", ref.path(), "-i", "/proc/self/mem"}), 1, "read error", "sacreBLEU: ");
  // argparse's refusal of a --tokenize choice, as SacreBLEU prints it (exit 2): its usage (the one
  // exception to the three lines, issue #19 item 5), then one error line.
  const auto choice = run_cli({"sacrebleu", ref.path(), "-i", hyp.path(), "--tokenize", "nosuch"});
  CHECK(choice.exit_code == 2);
  CHECK(choice.err.rfind("usage: sacrebleu [-h] ", 0) == 0);
  CHECK(choice.err.find("\nsacrebleu: error: argument --tokenize/-tok: invalid choice: 'nosuch'") != std::string::npos);
  CHECK(choice.out.empty());
}
