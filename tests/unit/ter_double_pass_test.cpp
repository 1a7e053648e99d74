// Issue #26: SacreBLEU 2.x tokenizes every TER reference twice (metrics/base.py
// _cache_references and metrics/ter.py _extract_reference_info both call
// _preprocess_segment); evalcli's tok:tercom-v2 does the same, tok:tercom-v1 keeps
// the single pass. Expected output: tests/data/ter_double_pass.json, made by SacreBLEU
// 2.6.0 from source with tests/data/make_ter_double_pass.py (each case keeps its command).
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

#include "conformance/sacrebleu_golden.hpp"
#include "support/test_support.hpp"

using evalcli::test::run_cli;
using evalcli::test::TempFile;
using evalcli::test::with_evalcli_version;
using nlohmann::json;

namespace {

const json& golden() {
  static const json data =
      json::parse(evalcli::test::read_file(evalcli::test::source_dir() / "tests/data/ter_double_pass.json"));
  return data;
}

std::string out_of(const std::vector<std::string>& args) {
  const auto result = run_cli(args);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return result.out;
}

struct Corpus {
  TempFile ref, hyp;
};

Corpus corpus(const std::string& name) {
  const json& files = golden().at("files");
  const std::string ref = name == "a" ? "a.txt" : "ref.txt", hyp = name == "a" ? "a.txt" : "hyp.txt";
  return {TempFile(files.at(ref).get<std::string>()), TempFile(files.at(hyp).get<std::string>())};
}

std::vector<std::string> with(std::vector<std::string> args, const json& flags) {
  for (const auto& f : flags) args.push_back(f.get<std::string>());
  return args;
}

}  // namespace

TEST_CASE("TER references tokenized twice: 16 tercom settings x 2 corpora, as SacreBLEU 2.6.0", "[ter][cli][sacrebleu]") {
  for (const auto& c : golden().at("cases")) {
    const Corpus files = corpus(c.at("corpus").get<std::string>());
    INFO(c.at("json_command").get<std::string>());
    // evalcli sacrebleu: SacreBLEU's whole stdout, byte for byte (its version:2.6.0 is evalcli's, as in
    // tests/conformance); -b is tested in sacrebleu_warnings_test.cpp.
    CHECK(out_of(with({"sacrebleu", files.ref.path(), "-i", files.hyp.path(), "-m", "ter"}, c.at("flags"))) ==
          with_evalcli_version(c.at("json").get<std::string>()));
    CHECK(out_of(with({"sacrebleu", files.ref.path(), "-i", files.hyp.path(), "-m", "ter", "-f", "text", "-w", "4"},
                      c.at("flags"))).ends_with(" = " + c.at("score_w4").get<std::string>()));
    // evalcli ter (tok:tercom-v2 by default).
    const auto ter_args = with({"ter", "-r", files.ref.path(), "-i", files.hyp.path()}, c.at("flags"));
    auto score_args = ter_args;
    score_args.insert(score_args.end(), {"-b", "-w", "4"});
    CHECK(out_of(score_args) == c.at("score_w4").get<std::string>());

    // The signature read back: v2 and SacreBLEU's tok:tercom give the double pass, v1 the single one.
    const std::string line = out_of(ter_args);
    const std::string signature = line.substr(0, line.find(" = "));
    REQUIRE(signature.find("|tok:tercom-v2|") != std::string::npos);
    std::string v1 = signature;
    v1.replace(v1.find("tercom-v2"), 9, "tercom-v1");
    const std::vector<std::string> by_sig = {"ter", "-r", files.ref.path(), "-i", files.hyp.path(), "-b", "-w", "4",
                                             "--signature"};
    auto run_sig = [&](const std::string& sig) {
      auto args = by_sig;
      args.push_back(sig);
      return out_of(args);
    };
    CHECK(run_sig(signature) == c.at("score_w4").get<std::string>());
    CHECK(run_sig(v1) == c.at("single_pass_w4").get<std::string>() + "\n");
    const std::string sacrebleu_json = c.at("json").get<std::string>();
    CHECK(run_sig(json::parse(sacrebleu_json).at("signature").get<std::string>()) ==
          c.at("score_w4").get<std::string>());
  }
}

TEST_CASE("TER double pass: the issue's sentence gives 20 (25 without punctuation), 0 under tok:tercom-v1", "[ter][cli]") {
  // PYTHONPATH=/tmp/sacrebleu /usr/bin/python3 -m sacrebleu a.txt -i a.txt -m ter --ter-normalized -b -w 4
  TempFile a("He went to Mac Donald's, then home.\n");
  CHECK(out_of({"ter", "-r", a.path(), "-i", a.path(), "--ter-normalized", "-b", "-w", "4"}) == "20.0000\n");
  CHECK(out_of({"ter", "-r", a.path(), "-i", a.path(), "--ter-normalized", "--ter-no-punct", "-b", "-w", "4"}) ==
        "25.0000\n");
  CHECK(out_of({"ter", "-r", a.path(), "-i", a.path(), "-b", "-w", "4", "--signature",
                "TER|nrefs:1|case:lc|tok:tercom-v1|norm:yes|punct:yes|asian:no"}) == "0.0000\n");
  // Hypotheses are tokenized once: the line tokenized twice by hand matches the reference.
  TempFile twice("he went to mac donald 's , then home .\n");
  CHECK(out_of({"ter", "-r", a.path(), "-i", twice.path(), "--ter-normalized", "-b", "-w", "4"}) == "0.0000\n");
}

TEST_CASE("sacrebleu -sl with two metrics fails as SacreBLEU 2.6.0", "[sacrebleu][cli][errors]") {
  // PYTHONPATH=/tmp/sacrebleu /usr/bin/python3 -m sacrebleu ref.txt -i hyp.txt -m bleu chrf -sl   (exit 1, stdout empty)
  TempFile ref("a b c\n"), hyp("a b d\n");
  for (const std::vector<std::string>& metrics :
       {std::vector<std::string>{"bleu", "chrf"}, {"bleu", "bleu"}, {"ter", "chrf", "bleu"}}) {
    std::vector<std::string> args = {"sacrebleu", ref.path(), "-i", hyp.path(), "-sl", "-m"};
    args.insert(args.end(), metrics.begin(), metrics.end());
    auto result = run_cli(args);
    CHECK(result.exit_code == 1);
    CHECK(result.out.empty());
    CHECK(result.err == "sacreBLEU: Only one metric can be used in sentence-level mode.\n");
    args.push_back("-q");  // no logging handler: Python's last resort prints the bare message
    result = run_cli(args);
    CHECK(result.exit_code == 1);
    CHECK(result.err == "Only one metric can be used in sentence-level mode.\n");
  }
  CHECK(run_cli({"sacrebleu", ref.path(), "-i", hyp.path(), "-sl", "-m", "chrf"}).exit_code == 0);
}

TEST_CASE("TER --ter-normalized on possessives, hyphens, numbers and punctuation, as SacreBLEU 2.6.0 (issue #19 item 1)",
          "[ter][cli][sacrebleu]") {
  // tests/data/ter_normalized: each NAME.stdout made by SacreBLEU 2.6.0 with the command in commands.txt.
  const auto folder = evalcli::test::source_dir() / "tests/data/ter_normalized";
  std::ifstream commands(folder / "commands.txt");
  std::size_t cases = 0;
  for (std::string line; std::getline(commands, line);) {
    std::istringstream words(line);
    std::string name, word;
    words >> name >> word;  // "NAME:" then "sacrebleu"
    name.pop_back();
    std::vector<std::string> args = {"sacrebleu"};
    while (words >> word) args.push_back((word == "ref.txt" || word == "hyp.txt") ? (folder / word).string() : word);
    INFO(line);
    CHECK(out_of(args) == with_evalcli_version(evalcli::test::read_file(folder / (name + ".stdout"))));
    ++cases;
  }
  CHECK(cases == 6);
}
