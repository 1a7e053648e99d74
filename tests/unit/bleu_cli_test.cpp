// `evalcli bleu` end to end: input rules, bad input, signatures read back.
#include <filesystem>
#include <nlohmann/json.hpp>

#include "evalcli/core/error.hpp"
#include "support/test_support.hpp"

using evalcli::test::run_cli;
using evalcli::test::TempFile;

namespace {

const char* kRef = "The cat sat on the mat .\nA quick brown fox .\nHello world\n";
const char* kHyp = "The cat sat on a mat .\nA fast brown fox .\nHello world\n";

std::string score_of(const std::vector<std::string>& args, const std::string& stdin_text = {}) {
  const auto result = run_cli(args, stdin_text);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return result.out;
}

}  // namespace

TEST_CASE("bleu reads hypotheses from -i, stdin and references from -r or positionals", "[bleu][cli]") {
  TempFile ref(kRef), hyp(kHyp);
  const std::string from_file = score_of({"bleu", "-r", ref.path(), "-i", hyp.path(), "-w", "13", "-b"});
  CHECK(score_of({"bleu", "-r", ref.path(), "-w", "13", "-b"}, kHyp) == from_file);
  CHECK(score_of({"bleu", ref.path(), "-i", hyp.path(), "-w", "13", "-b"}) == from_file);
  CHECK(from_file != "0.0000000000000\n");
}

TEST_CASE("CRLF files score like LF files, a BOM is kept as a character", "[bleu][cli][input]") {
  TempFile ref(kRef), hyp(kHyp);
  TempFile ref_crlf("The cat sat on the mat .\r\nA quick brown fox .\r\nHello world\r\n");
  TempFile hyp_crlf("The cat sat on a mat .\r\nA fast brown fox .\r\nHello world");  // no final newline
  CHECK(score_of({"bleu", "-r", ref_crlf.path(), "-i", hyp_crlf.path(), "-w", "13", "-b"}) ==
        score_of({"bleu", "-r", ref.path(), "-i", hyp.path(), "-w", "13", "-b"}));
  TempFile hyp_bom(std::string("\xEF\xBB\xBF") + kHyp);
  CHECK(score_of({"bleu", "-r", ref.path(), "-i", hyp_bom.path(), "-w", "13", "-b"}) !=
        score_of({"bleu", "-r", ref.path(), "-i", hyp.path(), "-w", "13", "-b"}));
}

TEST_CASE("bad input: one clear line, documented exit code, no output file", "[bleu][cli][errors]") {
  TempFile ref(kRef), hyp(kHyp);
  const auto out_path = std::filesystem::temp_directory_path() / "evalcli-test-never-written.json";
  std::filesystem::remove(out_path);
  const std::vector<std::string> json_out = {"--json-out", out_path.string()};
  auto run = [&](std::vector<std::string> args) {
    args.insert(args.end(), json_out.begin(), json_out.end());
    return run_cli(args);
  };

  SECTION("invalid UTF-8 names file, line and byte") {
    TempFile bad("fine line\nbad \xC3\x28 byte\nthird\n");
    const auto result = run({"bleu", "-r", ref.path(), "-i", bad.path()});
    CHECK(result.exit_code == 3);
    CHECK_THAT(result.err, Catch::Contains(bad.path() + ":2:byte 5: invalid UTF-8"));
  }
  SECTION("different line counts give both counts") {
    TempFile short_hyp("one line\n");
    const auto result = run({"bleu", "-r", ref.path(), "-i", short_hyp.path()});
    CHECK(result.exit_code == 3);
    CHECK_THAT(result.err, Catch::Contains("has 1 line,") && Catch::Contains("has 3 lines"));
  }
  SECTION("missing file") {
    const auto result = run({"bleu", "-r", ref.path(), "-i", "/nonexistent/hyp.txt"});
    CHECK(result.exit_code == 3);
    CHECK_THAT(result.err, Catch::Contains("/nonexistent/hyp.txt: no such file"));
  }
  SECTION("directory given as a file") {
    const auto result = run({"bleu", "-r", ref.path(), "-i", std::filesystem::temp_directory_path().string()});
    CHECK(result.exit_code == 3);
    CHECK_THAT(result.err, Catch::Contains("is a directory"));
  }
  SECTION("empty system") {
    TempFile empty_hyp(""), empty_ref("");
    const auto result = run({"bleu", "-r", empty_ref.path(), "-i", empty_hyp.path()});
    CHECK(result.exit_code == 3);
    CHECK_THAT(result.err, Catch::Contains("empty input"));
  }
  SECTION("unknown tokenizer") {
    const auto result = run({"bleu", "-r", ref.path(), "-i", hyp.path(), "-tok", "nosuch"});
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.err, Catch::Contains("unknown tokenizer 'nosuch'"));
  }
  SECTION("unparsable signature") {
    const auto result = run({"bleu", "-r", ref.path(), "-i", hyp.path(), "--signature", "garbage|||"});
    CHECK(result.exit_code == 2);
  }
  CHECK_FALSE(std::filesystem::exists(out_path));
}

TEST_CASE("bleu writes the JSON report given to json-out and the text to stdout", "[bleu][cli]") {
  TempFile ref(kRef), hyp(kHyp);
  const auto out_path = std::filesystem::temp_directory_path() / "evalcli-test-report.json";
  const auto result = run_cli({"bleu", "-r", ref.path(), "-i", hyp.path(), "--json-out", out_path.string()});
  REQUIRE(result.exit_code == 0);
  const auto report = evalcli::test::read_json(out_path);
  std::filesystem::remove(out_path);
  CHECK(report["schema"] == "evalcli-report/1");
  CHECK(report["name"] == "BLEU");
  CHECK_THAT(result.out, Catch::StartsWith("BLEU|nrefs:1|case:mixed|eff:no|tok:13a-v1|smooth:exp|"));
}

TEST_CASE("a printed signature read back reproduces the number", "[bleu][cli][signature]") {
  TempFile ref(kRef), ref2("The cat is on the mat .\nA quick brown fox !\nHello , world\n"), hyp(kHyp);
  const std::vector<std::string> options = {"-tok", "intl", "-lc", "-s", "floor", "-sv", "0.2"};
  std::vector<std::string> args = {"bleu", "-r", ref.path(), "-r", ref2.path(), "-i", hyp.path(), "-f", "json"};
  args.insert(args.end(), options.begin(), options.end());
  const auto report = nlohmann::json::parse(score_of(args));
  const std::string signature = report["signature"];
  CHECK_THAT(signature, Catch::Contains("tok:intl-v1") && Catch::Contains("smooth:floor[0.20]") &&
                            Catch::Contains("case:lc"));
  const auto again = nlohmann::json::parse(
      score_of({"bleu", "-r", ref.path(), "-r", ref2.path(), "-i", hyp.path(), "-f", "json", "--signature", signature}));
  CHECK(again["score"].get<double>() == report["score"].get<double>());
  CHECK(again["signature"] == signature);
}

TEST_CASE("SacreBLEU 1.x and 2.x signatures configure the run", "[bleu][cli][signature]") {
  TempFile ref(kRef), hyp(kHyp);
  const std::string plain = score_of({"bleu", "-r", ref.path(), "-i", hyp.path(), "-w", "13", "-b", "-lc"});
  CHECK(score_of({"bleu", "-r", ref.path(), "-i", hyp.path(), "-w", "13", "-b", "--signature",
                  "nrefs:1|case:lc|eff:no|tok:13a|smooth:exp|version:2.0.0"}) == plain);
  CHECK(score_of({"bleu", "-r", ref.path(), "-i", hyp.path(), "-w", "13", "-b", "--signature",
                  "BLEU+case.lc+numrefs.1+smooth.exp+tok.13a+version.1.5.1"}) == plain);
}

TEST_CASE("signatures evalcli cannot honour are refused with the reason", "[bleu][cli][signature]") {
  TempFile ref(kRef), hyp(kHyp);
  auto refused = [&](const std::string& signature, const std::string& reason) {
    const auto result = run_cli({"bleu", "-r", ref.path(), "-i", hyp.path(), "--signature", signature});
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.err, Catch::Contains(reason));
  };
  refused("nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.0.0", "nrefs:2 but 1 reference");
  refused("nrefs:1|case:mixed|eff:no|tok:13a-v9|smooth:exp", "tok");
  refused("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|colour:blue", "colour:blue");
  refused("nrefs:1|case:upper|eff:no|tok:13a|smooth:exp", "unknown case");
  refused("nrefs:1|tok:13a|norm:nfkc-v7", "nfkc-v7");
}

TEST_CASE("sacrebleu: tab-separated stdin columns are systems", "[sacrebleu][cli]") {
  TempFile ref(kRef);
  const auto result = run_cli({"sacrebleu", ref.path(), "-f", "json", "-q"},
                              "The cat sat on a mat .\tx\nA fast brown fox .\ty\nHello world\tz\n");
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("\"system\": \"System 1\"") && Catch::Contains("\"system\": \"System 2\""));
  const auto ragged = run_cli({"sacrebleu", ref.path()}, "a\tb\nc\nd\te\n");
  CHECK(ragged.exit_code == 17);
}

TEST_CASE("sentence-level output never changes the corpus score of the same report", "[bleu][cli][sentence]") {
  // Short segments without 4-gram matches: corpus BLEU is 0 without effective
  // order, while sentence BLEU (SacreBLEU turns effective order on) is not.
  TempFile ref("the cat sat\na dog ran\n"), hyp("the cat sat\na dog walked\n");
  const auto plain = nlohmann::json::parse(score_of({"bleu", "-r", ref.path(), "-i", hyp.path(), "-f", "json"}));
  const auto sentences =
      nlohmann::json::parse(score_of({"bleu", "-r", ref.path(), "-i", hyp.path(), "-f", "json", "--sentence-level"}));
  CHECK(plain["score"] == 0.0);
  CHECK(sentences["score"] == plain["score"]);
  CHECK(sentences["signature"] == plain["signature"]);
  CHECK_THAT(sentences["sentence_signature"].get<std::string>(), Catch::Contains("eff:yes"));
  REQUIRE(sentences["sentences"].size() == 2);
  CHECK(sentences["sentences"][0]["score"].get<double>() > 99.0);  // an exact match with effective order
  // The text lines keep SacreBLEU's sentence signature.
  const std::string text = score_of({"bleu", "-r", ref.path(), "-i", hyp.path(), "--sentence-level"});
  CHECK_THAT(text, Catch::StartsWith("BLEU|nrefs:1|case:mixed|eff:yes|"));
}

TEST_CASE("one flag means one thing in every command: -ci/--confidence, -lc", "[cli][options]") {
  TempFile ref(kRef), hyp(kHyp);
  SECTION("-ci and --ci are the bootstrap interval everywhere, rouge included") {
    for (const std::string command : {"bleu", "chrf", "ter", "rouge", "meteor"}) {
      for (const std::string flag : {"-ci", "--ci", "--confidence"}) {
        INFO(command << " " << flag);
        const auto result = run_cli({command, "-r", ref.path(), "-i", hyp.path(), flag, "-cin", "20", "-f", "json"});
        REQUIRE(result.exit_code == 0);
        CHECK(nlohmann::json::parse(result.out).contains("confidence"));
      }
    }
  }
  SECTION("rouge -ci 0.9 (a confidence level) is refused, naming --bootstrap-confidence") {
    const auto result = run_cli({"rouge", "-r", ref.path(), "-i", hyp.path(), "-ci", "0.9"});
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.err, Catch::Contains("--bootstrap-confidence"));
  }
  SECTION("-lc is refused in the command's own words where the metric decides case") {
    for (const auto& [command, words] : std::vector<std::pair<std::string, std::string>>{
             {"ter", "--ter-case-sensitive"}, {"rouge", "lowercase every text"}, {"meteor", "str.lower"}}) {
      INFO(command);
      const auto result = run_cli({command, "-r", ref.path(), "-i", hyp.path(), "-lc"});
      CHECK(result.exit_code == 2);
      CHECK_THAT(result.err, Catch::Contains("evalcli " + command + " has no --lowercase (-lc)") &&
                                 Catch::Contains(words));
    }
  }
}

TEST_CASE("a symlink loop or an over-long name is reported as such, not as a missing file", "[cli][input]") {
  const auto folder = std::filesystem::temp_directory_path() / "evalcli-test-symlink-loop";
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  std::filesystem::create_symlink(folder / "b", folder / "a");
  std::filesystem::create_symlink(folder / "a", folder / "b");
  TempFile hyp(kHyp), ref(kRef);
  const auto loop = run_cli({"bleu", "-r", (folder / "a").string(), "-i", hyp.path()});
  CHECK(loop.exit_code == 3);
  CHECK_THAT(loop.err, Catch::Contains("Too many levels of symbolic links"));
  const auto long_name = run_cli({"bleu", "-r", ref.path(), "-i", (folder / std::string(300, 'x')).string()});
  CHECK(long_name.exit_code == 3);
  CHECK_THAT(long_name.err, Catch::Contains("File name too long"));
  std::filesystem::remove_all(folder);
}
