// Language awareness (issue 18.1): -l/--language-pair SRC-TGT (and --lang) picks
// the tokenizer SacreBLEU would for the target language and the signature
// records it; without it, a tokenizer that splits only at spaces meeting mostly
// Chinese/Japanese/Thai text gets one warning (-q silences it). Also BLEU's
// tokenized-period warning in `evalcli bleu` (issue 18.2).
#include "evalcli/tokenize/text_scan.hpp"
#include "support/test_support.hpp"

using evalcli::test::run_cli;

namespace {

std::string data(const std::string& name) {
  return (evalcli::test::source_dir() / "tests/data/sacrebleu_warnings" / name).string();
}

std::vector<std::string> zh_run(const std::string& command, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {command, "-r", data("zh.ref"), "-i", data("zh.hyp")};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

const std::string kChineseWarning =
    "the text is mostly Chinese (4 of 4 lines, 100% of the characters), written without spaces between words, and "
    "tokenizer ";

}  // namespace

TEST_CASE("bleu -l en-zh picks the zh tokenizer, the default warns about Chinese text", "[language]") {
  const auto plain = run_cli(zh_run("bleu"));
  REQUIRE(plain.exit_code == 0);
  CHECK(plain.out.rfind("BLEU|nrefs:1|case:mixed|eff:no|tok:13a-v1|smooth:exp|version:evalcli-", 0) == 0);
  CHECK(plain.err == "evalcli: warning: " + kChineseWarning +
                         "13a splits only at spaces: whole phrases count as single words, so the score is misleading.\n"
                         "hint: give the language pair (-l SRC-zh) to segment Chinese, or --tokenize zh; -q silences "
                         "this\n");
  CHECK(run_cli(zh_run("bleu", {"-q"})).err.empty());

  const auto picked = run_cli(zh_run("bleu", {"-l", "en-zh"}));
  const auto given = run_cli(zh_run("bleu", {"-tok", "zh"}));
  REQUIRE(picked.exit_code == 0);
  CHECK(picked.err.empty());
  CHECK(picked.out == given.out);
  CHECK(picked.out.find("|tok:zh-v1|") != std::string::npos);
  CHECK(picked.out != plain.out);
  // --tokenize wins over the language's pick.
  CHECK(run_cli(zh_run("bleu", {"-l", "en-zh", "-tok", "char", "-q"})).out ==
        run_cli(zh_run("bleu", {"-tok", "char"})).out);
}

TEST_CASE("every scoring command takes -l, the word-based ones warn without it", "[language]") {
  for (const std::string command : {"ter", "meteor", "cider"}) {
    INFO(command);
    const auto plain = run_cli(zh_run(command));
    REQUIRE(plain.exit_code == 0);
    CHECK(plain.err.find("evalcli: warning: " + kChineseWarning) == 0);
    const auto picked = run_cli(zh_run(command, {"-l", "en-zh"}));
    CHECK(picked.exit_code == 0);
    CHECK(picked.err.empty());
    CHECK(picked.out != plain.out);
    CHECK(run_cli(zh_run(command, {"-q"})).err.empty());
  }
  // chrF scores characters: SacreBLEU's -l changes nothing there, and nothing warns.
  const auto chrf = run_cli(zh_run("chrf"));
  CHECK(chrf.err.empty());
  CHECK(run_cli(zh_run("chrf", {"-l", "en-zh"})).out == chrf.out);
  // ROUGE's own warning (its tokenizer keeps ASCII only).
  CHECK(run_cli(zh_run("rouge")).err.find("evalcli: warning: ") == 0);
  CHECK(run_cli(zh_run("rouge", {"-q"})).err.empty());
  CHECK(run_cli(zh_run("rouge", {"-l", "en-zh"})).err.empty());
  // ROUGE and CIDEr are single-language: --lang TGT as well.
  CHECK(run_cli(zh_run("rouge", {"--lang", "zh"})).out == run_cli(zh_run("rouge", {"-tok", "zh"})).out);
  CHECK(run_cli(zh_run("cider", {"--lang", "zh"})).out == run_cli(zh_run("cider", {"-l", "en-zh"})).out);
}

TEST_CASE("ter -l en-zh turns on TER's Asian support, and the signature says so", "[language]") {
  const auto picked = run_cli(zh_run("ter", {"-l", "en-zh"}));
  CHECK(picked.out == run_cli(zh_run("ter", {"--ter-asian-support"})).out);
  CHECK(picked.out.find("|asian:yes|") != std::string::npos);
}

TEST_CASE("-l with a language whose tokenizer is missing, or malformed: usage errors", "[language]") {
  const auto korean = run_cli(zh_run("bleu", {"-l", "en-ko"}));
  CHECK(korean.exit_code == 2);
  CHECK(korean.err.find("SacreBLEU tokenizes 'ko' with ko-mecab, which this evalcli does not have") !=
        std::string::npos);
  CHECK(run_cli(zh_run("bleu", {"-l", "en-ko", "-tok", "char"})).exit_code == 0);
  const auto bad = run_cli(zh_run("bleu", {"-l", "EN_ZH"}));
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("--language-pair 'EN_ZH': expected SRC-TGT language codes such as en-zh") != std::string::npos);
  // Other target languages keep the metric's own tokenizer: the same bytes as without -l.
  CHECK(run_cli(zh_run("bleu", {"-l", "zh-en", "-q"})).out == run_cli(zh_run("bleu")).out);
}

TEST_CASE("a signature from a -l run reads back, -l next to --signature is refused", "[language][signature]") {
  const auto picked = run_cli(zh_run("bleu", {"-l", "en-zh", "-f", "json"}));
  REQUIRE(picked.exit_code == 0);
  const std::string signature = nlohmann::json::parse(picked.out)["signature"];
  const auto again = run_cli(zh_run("bleu", {"--signature", signature, "-f", "json"}));
  CHECK(again.exit_code == 0);
  CHECK(again.out == picked.out);
  const auto both = run_cli(zh_run("bleu", {"--signature", signature, "-l", "en-zh"}));
  CHECK(both.exit_code == 2);
  CHECK(both.err.find("--signature and --language-pair cannot be combined") != std::string::npos);
}

TEST_CASE("the text scan: shares of lines and characters, the script, tokenized periods", "[language]") {
  evalcli::TextScan scan;
  scan.add_hypothesis(0, U"これは日本語です");
  scan.add_hypothesis(0, U"an English line .");
  scan.add_line(U"ภาษาไทย");
  CHECK(scan.lines() == 3);
  CHECK(scan.unspaced_lines() == 2);
  CHECK(scan.dominant_script() == evalcli::UnspacedScript::kana);
  CHECK(scan.tokenized_periods(0) == 1);
  CHECK(scan.segments() == 2);
  CHECK(evalcli::splits_words_at_spaces("13a"));
  CHECK_FALSE(evalcli::splits_words_at_spaces("zh"));
  CHECK(evalcli::sacrebleu_tokenizer_for_language("ja", "13a") == "ja-mecab");
  CHECK(evalcli::sacrebleu_tokenizer_for_language("de", "13a") == "13a");
}

TEST_CASE("evalcli bleu warns about 100 hypotheses ending in a tokenized period, --force silences it", "[language]") {
  const std::vector<std::string> run = {"bleu", "-r", data("tok100.ref"), "-i", data("tok100.hyp")};
  const auto warned = run_cli(run);
  CHECK(warned.exit_code == 0);
  CHECK(warned.err ==
        "evalcli: warning: 100 of 100 hypotheses end in a tokenized period (' .'), SacreBLEU's sign that the text was "
        "not detokenized, which may hurt the score.\n"
        "hint: score detokenized text; --force silences this warning\n");
  auto forced = run;
  forced.push_back("--force");
  CHECK(run_cli(forced).err.empty());
  CHECK(run_cli(forced).out == warned.out);
  CHECK(run_cli({"bleu", "-r", data("tok99.ref"), "-i", data("tok99.hyp")}).err.empty());
  // chrF and TER: SacreBLEU checks BLEU's input only.
  CHECK(run_cli({"chrf", "-r", data("tok100.ref"), "-i", data("tok100.hyp")}).err.empty());
}
