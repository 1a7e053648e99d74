// `evalcli sacrebleu` prints SacreBLEU's warnings byte for byte (issue 18.2):
// every case of tests/data/sacrebleu_warnings/commands.txt, whose stderr was
// captured from the real SacreBLEU (README.md there), and the --tokenize
// choices and errors.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "conformance/sacrebleu_golden.hpp"
#include "evalcli/core/version.hpp"
#include "support/test_support.hpp"

using evalcli::test::run_cli;

namespace {

const std::filesystem::path kFolder = evalcli::test::source_dir() / "tests/data/sacrebleu_warnings";
const std::filesystem::path kMessages = evalcli::test::source_dir() / "tests/data/sacrebleu_messages";

// The golden's system names are relative to its folder: run from there.
class InFolder {
 public:
  explicit InFolder(const std::filesystem::path& dir) : previous_(std::filesystem::current_path()) {
    std::filesystem::current_path(dir);
  }
  ~InFolder() { std::filesystem::current_path(previous_); }
  InFolder(const InFolder&) = delete;
  InFolder& operator=(const InFolder&) = delete;

 private:
  std::filesystem::path previous_;
};

struct Golden {
  int exit_code;
  std::string name;
  std::vector<std::string> args;  // after "sacrebleu"
};

std::vector<Golden> goldens(const std::filesystem::path& folder) {
  std::ifstream in(folder / "commands.txt");
  std::vector<Golden> cases;
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    Golden golden;
    std::string word;
    words >> golden.exit_code >> golden.name >> word;  // "NAME:" then "sacrebleu"
    golden.name.pop_back();
    while (words >> word) golden.args.push_back(word);
    cases.push_back(golden);
  }
  return cases;
}

}  // namespace

namespace {

// Runs every golden of `folder` (from inside it) and compares exit code and stderr.
void check_stderr_goldens(const std::filesystem::path& folder, std::size_t expected_cases) {
  const auto cases = goldens(folder);
  REQUIRE(cases.size() == expected_cases);
  const InFolder here(folder);
  for (const auto& golden : cases) {
    INFO(golden.name);
    std::vector<std::string> args = {"sacrebleu"};
    args.insert(args.end(), golden.args.begin(), golden.args.end());
    const auto result = run_cli(args);
    CHECK(result.exit_code == golden.exit_code);
    CHECK(result.err == evalcli::test::read_file(golden.name + ".stderr"));
  }
}

}  // namespace

TEST_CASE("evalcli sacrebleu: SacreBLEU's warnings on stderr, byte for byte", "[sacrebleu][warnings]") {
  check_stderr_goldens(kFolder, 16);
}

TEST_CASE("evalcli sacrebleu: SacreBLEU's error messages and exit codes, byte for byte", "[sacrebleu][messages]") {
  check_stderr_goldens(kMessages, 17);
}

TEST_CASE("evalcli sacrebleu -b prints fixed decimals in JSON mode too, as SacreBLEU 2.6.0", "[sacrebleu]") {
  // PYTHONPATH=<checkout> /usr/bin/python3 -m sacrebleu one.ref -i one.ref -m ter bleu -b -w 4 (in kMessages)
  const InFolder here(kMessages);
  CHECK(run_cli({"sacrebleu", "one.ref", "-i", "one.ref", "-m", "ter", "bleu", "-b", "-w", "4"}).out ==
        "[\n100.0000,\n0.0000\n]\n");
  CHECK(run_cli({"sacrebleu", "one.ref", "-i", "one.hyp", "-m", "ter", "-b", "-w", "3"}).out == "22.222\n");
}

TEST_CASE("evalcli sacrebleu: SACREBLEU_SEED as Python's int() reads it, a seed SacreBLEU refuses exits 1", "[sacrebleu]") {
  // SACREBLEU_SEED=4_2 PYTHONPATH=<checkout> /usr/bin/python3 -m sacrebleu one.ref -i one.hyp -ci -cin 5 -f text
  // (in kMessages; " 0042" and "+42" print the same but for the seed field, which is the text as given).
  const InFolder here(kMessages);
  const std::vector<std::string> args = {"sacrebleu", "one.ref", "-i", "one.hyp", "-ci", "-cin", "5", "-f", "text"};
  struct Seed {
    const char* text;
    int exit_code;
  };
  for (const Seed seed : {Seed{"4_2", 0}, Seed{" 0042", 0}, Seed{"+42", 0}, Seed{"-1", 1}, Seed{"4__2", 1},
                          Seed{"_42", 1}, Seed{"42_", 1}, Seed{"42.0", 1}, Seed{"", 1}}) {
    INFO(seed.text);
    ::setenv("SACREBLEU_SEED", seed.text, 1);
    const auto result = run_cli(args);
    ::unsetenv("SACREBLEU_SEED");
    CHECK(result.exit_code == seed.exit_code);
    if (seed.exit_code == 0) {
      CHECK(result.out == "BLEU|nrefs:1|bs:5|seed:" + std::string(seed.text) +
                              "|case:mixed|eff:no|tok:13a|smooth:exp|version:" + evalcli::evalcli_version_tag() +
                              " = 50.0 (μ = 50.7 ± 1.9) 80.0/62.5/50.0/25.0 (BP = 1.000 ratio = 1.111 hyp_len = 10 "
                              "ref_len = 9)\n");
    } else {
      // SacreBLEU dies of int()'s or numpy's ValueError (a traceback); evalcli prints one line.
      CHECK(result.err.rfind("sacreBLEU: error: SACREBLEU_SEED: ", 0) == 0);
      CHECK(result.out.empty());
    }
  }
}

TEST_CASE("evalcli sacrebleu: paired tests of systems on stdin name no baseline in the text explanation", "[sacrebleu]") {
  // PYTHONPATH=<checkout> /usr/bin/python3 -m sacrebleu one.ref --paired-bs --paired-bs-n 10 -f text
  //   < systems.tsv > paired_stdin_text.stdout (in kMessages; systems.tsv = paste one.hyp two.hyp):
  // print_results_table takes the name from a row "Baseline: NAME", and stdin's baseline is "Baseline".
  const InFolder here(kMessages);
  const auto result = run_cli({"sacrebleu", "one.ref", "--paired-bs", "--paired-bs-n", "10", "-f", "text"},
                              evalcli::test::read_file("systems.tsv"));
  CHECK(result.exit_code == 0);
  CHECK(result.out == evalcli::test::with_evalcli_version(evalcli::test::read_file("paired_stdin_text.stdout")));
}

TEST_CASE("evalcli sacrebleu -e latin-1 decodes ISO-8859-1 files as SacreBLEU 2.6.0 (Python's codec names)", "[sacrebleu]") {
  const InFolder here(kMessages);  // latin1.stdout: README.md there
  const std::string expected = evalcli::test::with_evalcli_version(evalcli::test::read_file("latin1.stdout"));
  for (const std::string encoding : {"latin-1", "ISO-8859-1", "L1", "iso 8859 1", "latin1"}) {
    INFO(encoding);
    const auto result =
        run_cli({"sacrebleu", "latin1.ref", "-i", "latin1.hyp", "-e", encoding, "-m", "bleu", "chrf", "-f", "text"});
    CHECK(result.exit_code == 0);
    CHECK(result.out == expected);
  }
  // Codecs evalcli does not decode as Python does (tests/unit/byte_codec_test.cpp has those it does): exit 1.
  for (const std::string encoding : {"shift_jis", "euc_jp", "big5", "windows-874", "foo"}) {
    const auto result = run_cli({"sacrebleu", "latin1.ref", "-i", "latin1.hyp", "-e", encoding});
    CHECK(result.exit_code == 1);
    CHECK(result.out.empty());
  }
  // UTF-8 under Python's names for it.
  CHECK(run_cli({"sacrebleu", "one.ref", "-i", "one.hyp", "-e", "UTF_8", "-b"}).exit_code == 0);
  CHECK(run_cli({"sacrebleu", "one.ref", "-i", "one.hyp", "-e", "u8", "-b"}).exit_code == 0);
}

TEST_CASE("evalcli sacrebleu --tokenize lists only what it can run, with argparse's error", "[sacrebleu]") {
  const std::string ref = (kFolder / "zh.ref").string();
  const std::string paired_both = evalcli::test::read_file(kMessages / "paired_both.stderr");
  const std::string usage = paired_both.substr(0, paired_both.find("sacrebleu: error: "));
  for (const std::string tokenizer : {"spm", "flores101", "flores200", "spBLEU-1K", "ko-mecab", "foo"}) {
    const auto result = run_cli({"sacrebleu", ref, "-i", ref, "-tok", tokenizer});
    CHECK(result.exit_code == 2);
    // argparse's usage first (as tests/data/sacrebleu_messages/paired_both.stderr has it), then the error,
    // whose list of choices is what this evalcli can run.
    CHECK(result.err == usage + "sacrebleu: error: argument --tokenize/-tok: invalid choice: '" + tokenizer +
                            "' (choose from 'none', 'zh', '13a', 'intl', 'char', 'ja-mecab')\n");
  }
  for (const std::string tokenizer : {"none", "zh", "13a", "intl", "char", "ja-mecab"}) {
    INFO(tokenizer);
    CHECK(run_cli({"sacrebleu", ref, "-i", ref, "-tok", tokenizer}).exit_code == 0);
  }
}

TEST_CASE("evalcli sacrebleu -l en-ko: ko-mecab is not available, SacreBLEU's exit code 1", "[sacrebleu]") {
  const std::string ref = (kFolder / "zh.ref").string();
  const auto result = run_cli({"sacrebleu", ref, "-i", ref, "-l", "en-ko"});
  CHECK(result.exit_code == 1);
  CHECK(result.err.rfind("sacreBLEU: error: Korean tokenization (ko-mecab) is not available", 0) == 0);
  CHECK(run_cli({"sacrebleu", ref, "-i", ref, "-l", "en-ko", "-tok", "char"}).exit_code == 0);
}

TEST_CASE("evalcli sacrebleu -l en-zh picks the zh tokenizer", "[sacrebleu]") {
  const std::string hyp = (kFolder / "zh.hyp").string(), ref = (kFolder / "zh.ref").string();
  const auto picked = run_cli({"sacrebleu", ref, "-i", hyp, "-l", "en-zh", "-f", "text"});
  const auto given = run_cli({"sacrebleu", ref, "-i", hyp, "-tok", "zh", "-f", "text"});
  CHECK(picked.exit_code == 0);
  CHECK(picked.out == given.out);
  CHECK(picked.out.find("|tok:zh|") != std::string::npos);
}
