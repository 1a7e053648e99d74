// Unit tests of evalcli ppl: ARPA parsing (accept/reject), the back-off rule,
// OOV and null-context handling, number formatting, decompression, JSONL.
#include <bzlib.h>
#include <fmt/format.h>
#include <lzma.h>
#include <zlib.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "evalcli/core/error.hpp"
#include "evalcli/io/decompress.hpp"
#include "evalcli/metrics/ppl.hpp"
#include "evalcli/metrics/ppl_metric.hpp"
#include "support/test_support.hpp"

using evalcli::test::run_cli;
using evalcli::test::shared_parent;
using evalcli::test::TempFile;
namespace ppl = evalcli::ppl;

namespace {

// The hand-written model of shared/corpora/lm/edge/edge.arpa (repeated here
// so these tests run without ../shared).
const char* kEdgeArpa =
    "\n\\data\\\nngram 1=7\nngram 2=6\nngram 3=3\n\n\\1-grams:\n"
    "-1.0\t<unk>\t-0.2\n-99\t<s>\t-0.5\n-0.8\t</s>\n-0.6\ta\t-0.3\n-0.7\tb\t-0.2\n-0.9\tc\t-0.4\n-1.2\td\n\n"
    "\\2-grams:\n-0.3\t<s> a\t-0.1\n-0.4\ta b\t-0.25\n-0.2\tb c\t0\n-0.5\t<unk> b\n-0.35\tc </s>\n-0.45\tb a\n\n"
    "\\3-grams:\n-0.1\t<s> a b\n-0.15\ta b c\n-0.05\ta b d\n\n\\end\\\n";

std::unique_ptr<ppl::NgramModel> load_text(const std::string& arpa, std::ostream* warnings = nullptr) {
  TempFile file(arpa, ".arpa");
  return ppl::NgramModel::load(file.path(), warnings);
}

std::string load_error(const std::string& arpa) {
  try {
    load_text(arpa);
  } catch (const evalcli::Error& e) {
    CHECK(e.code() == evalcli::ExitCode::input_data);
    return e.what();
  }
  FAIL("the ARPA text was accepted");
  return {};
}

float f(const char* text) { return std::strtof(text, nullptr); }

std::string compress(const std::string& data, const std::string& kind) {
  std::string out;
  if (kind == "gz") {
    z_stream z{};
    REQUIRE(deflateInit2(&z, 9, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) == Z_OK);
    out.resize(deflateBound(&z, data.size()) + 64);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = static_cast<uInt>(data.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
    out.resize(z.total_out);
    deflateEnd(&z);
  } else if (kind == "bz2") {
    unsigned int size = static_cast<unsigned>(data.size() * 2 + 1024);
    out.resize(size);
    REQUIRE(BZ2_bzBuffToBuffCompress(out.data(), &size, const_cast<char*>(data.data()),
                                     static_cast<unsigned>(data.size()), 9, 0, 0) == BZ_OK);
    out.resize(size);
  } else {
    std::size_t pos = 0;
    out.resize(lzma_stream_buffer_bound(data.size()));
    REQUIRE(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const uint8_t*>(data.data()),
                                    data.size(), reinterpret_cast<uint8_t*>(out.data()), &pos, out.size()) == LZMA_OK);
    out.resize(pos);
  }
  return out;
}

}  // namespace

TEST_CASE("KenLM number formatting (double-conversion ToShortest)", "[ppl][format]") {
  CHECK(ppl::kenlm_number(f("-4.6000004")) == "-4.6000004");
  CHECK(ppl::kenlm_number(f("-101.950005")) == "-101.950005");
  CHECK(ppl::kenlm_number(-3.0f) == "-3");
  CHECK(ppl::kenlm_number(0.0f) == "0");
  CHECK(ppl::kenlm_number(-0.0f) == "-0");
  CHECK(ppl::kenlm_number(1e-6) == "0.000001");
  CHECK(ppl::kenlm_number(1.5e-6) == "0.0000015");
  CHECK(ppl::kenlm_number(1e-7) == "1e-7");
  CHECK(ppl::kenlm_number(4194945274193966600.0) == "4194945274193966600");
  CHECK(ppl::kenlm_number(1.1111111111111111e21) == "1.1111111111111111e21");
  CHECK(ppl::kenlm_number(652.9722513249568) == "652.9722513249568");
  CHECK(ppl::kenlm_number(std::nan("")) == "NaN");
  CHECK(ppl::kenlm_number(-INFINITY) == "-inf");
  CHECK(ppl::kenlm_number(f("0.1")) == "0.1");  // float digits, not the double expansion
}

// Over random bit patterns of every magnitude: the text reads back as the same
// value (shortest round-trip digits), has no exponent exactly where KenLM's
// layout has none, and appending writes the same text after what is there.
TEST_CASE("KenLM numbers read back exactly, in either layout", "[ppl][format]") {
  std::mt19937_64 random(20261206);
  auto check = [](auto value) {
    const std::string text = ppl::kenlm_number(value);
    decltype(value) back{};
    const auto parsed = std::from_chars(text.data(), text.data() + text.size(), back);
    REQUIRE(parsed.ec == std::errc());
    CHECK(parsed.ptr == text.data() + text.size());
    CHECK(back == value);
    CHECK(std::signbit(back) == std::signbit(value));
    const double magnitude = std::fabs(static_cast<double>(value));
    const bool decimal = magnitude == 0 || (magnitude >= 1e-6 && magnitude < 1e21);
    if ((text.find('e') == std::string::npos) != decimal) FAIL_CHECK("layout of " << text);
    std::string appended = "x=";
    ppl::append_kenlm_number(appended, value);
    CHECK(appended == "x=" + text);
  };
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t bits = random();
    double as_double;
    float as_float;
    std::memcpy(&as_double, &bits, sizeof as_double);
    const auto low = static_cast<std::uint32_t>(bits);
    std::memcpy(&as_float, &low, sizeof as_float);
    if (std::isfinite(as_double)) check(as_double);
    if (std::isfinite(as_float)) check(as_float);
    // Log-probabilities are what KenLM prints most: small negative floats.
    check(static_cast<float>(-static_cast<double>(bits % 100000000) / 1e6));
  }
}

TEST_CASE("MD5 identifies model files", "[ppl][md5]") {
  ppl::Md5 empty;
  CHECK(empty.hex_digest() == "d41d8cd98f00b204e9800998ecf8427e");
  ppl::Md5 abc;
  abc.update("a");
  abc.update("bc");
  CHECK(abc.hex_digest() == "900150983cd24fb0d6963f7d28e17f72");
  ppl::Md5 longer;
  longer.update(std::string(1000, 'x'));
  CHECK(longer.hex_digest() == "398533d48111e9f664b1f64cb10c4b63");  // md5sum of 1000 'x' 
}

TEST_CASE("query tokens: six ASCII separators, raw bytes", "[ppl][tokens]") {
  std::vector<std::string_view> tokens;
  ppl::split_kenlm_tokens("  a\tb\vc\fd\r", tokens);
  CHECK(tokens == std::vector<std::string_view>{"a", "b", "c", "d"});
  ppl::split_kenlm_tokens("a\xC2\xA0" "b \xE3\x80\x80x", tokens);  // NBSP and U+3000 are token bytes
  CHECK(tokens == std::vector<std::string_view>{"a\xC2\xA0" "b", "\xE3\x80\x80x"});
  ppl::split_kenlm_tokens(" \t ", tokens);
  CHECK(tokens.empty());
}

TEST_CASE("query tokens: the 64-byte mask splitter equals the byte-by-byte one", "[ppl][tokens]") {
  // Bytes around every class edge (8/9, 13/14, 31/32/33, NUL, 0x85, 0xA0, 0xFF), lines of
  // every length around the 16- and 64-byte chunk edges, tokens crossing them.
  const std::string alphabet("ab\t\n\v\f\r \x08\x0e\x1f!\0\x85\xa0\xff", 16);
  std::mt19937 random(20261130);
  std::vector<std::string_view> fast, plain;
  std::size_t compared = 0;
  for (std::size_t length = 0; length <= 200; ++length) {
    for (int trial = 0; trial < 40; ++trial) {
      std::string line(length, 'x');
      const bool sparse = trial % 2 == 0;  // long tokens, few spaces
      for (char& c : line) {
        if (!sparse || random() % 8 == 0) c = alphabet[random() % alphabet.size()];
      }
      ppl::split_kenlm_tokens(line, fast);
      ppl::split_kenlm_tokens_bytewise(line, plain);
      REQUIRE(fast == plain);
      ++compared;
    }
  }
  CHECK(compared == 201 * 40);
  const std::string block_edge = std::string(64, 'w') + " " + std::string(64, 'v');  // tokens ending at block ends
  ppl::split_kenlm_tokens(block_edge, fast);
  CHECK(fast == std::vector<std::string_view>{std::string(64, 'w'), std::string(64, 'v')});
}

TEST_CASE("back-off rule on the hand-written model", "[ppl][backoff]") {
  const auto model = load_text(kEdgeArpa);
  REQUIRE(model->order() == 3);
  const auto id = [&](const char* w) { return model->index(w); };
  // KenLM's ids: <unk>=0, then first appearance in \1-grams.
  CHECK(id("<s>") == 1);
  CHECK(id("</s>") == 2);
  CHECK(id("d") == 6);
  CHECK(id("zz") == ppl::kUnknownWord);
  CHECK(id("<UNK>") == ppl::kUnknownWord);
  const auto score = [&](std::vector<ppl::WordId> history, const char* word) {
    return model->score(history, id(word));
  };
  // Trigram present.
  CHECK(score({id("b"), id("a")}, "c").log10_prob == f("-0.15"));
  CHECK(score({id("b"), id("a")}, "c").ngram_length == 3);
  // Bigram b c plus back-off of the context "c b"? absent -> bigram prob alone.
  CHECK(score({id("b"), id("c")}, "c").log10_prob == f("-0.2"));
  // Unigram d after (b, c): p(d) + bo(b) + bo(c b absent = 0); "b d" is a blank (suffix of "a b d").
  const auto blank = score({id("b"), id("c")}, "d");
  CHECK(blank.log10_prob == f("-1.2") + f("-0.2"));
  CHECK(blank.ngram_length == 2);
  // Float32 additions in KenLM's order: prob, then back-offs shortest first.
  const auto two_backoffs = score({id("b"), id("a")}, "zz");  // p(<unk>) + bo(b) + bo(a b)
  CHECK(two_backoffs.log10_prob == (f("-1.0") + f("-0.2")) + f("-0.25"));
  CHECK(two_backoffs.ngram_length == 1);
  // OOV in the history matches <unk> n-grams.
  CHECK(score({ppl::kUnknownWord}, "b").log10_prob == f("-0.5"));
  CHECK(score({ppl::kUnknownWord}, "b").ngram_length == 2);
  // No history (null context): the unigram.
  CHECK(score({}, "c").log10_prob == f("-0.9"));
}

TEST_CASE("lines, OOVs and the null context", "[ppl][query]") {
  const auto model = load_text(kEdgeArpa);
  std::vector<std::string_view> tokens{"zz", "b", "c"};
  std::vector<ppl::ScoredWord> words;
  const auto line = ppl::score_line(*model, tokens, ppl::ContextMode::sentence, &words);
  CHECK(line.oovs == 1);
  CHECK(line.stats.tokens == 4);  // three words and </s>
  CHECK(line.total == f("-2.55"));
  REQUIRE(words.size() == 4);
  CHECK(words[3].surface == "</s>");
  CHECK(line.stats.oov_log10_total == static_cast<double>(f("-1.5")));  // p(<unk>) + bo(<s>)

  const auto null_line = ppl::score_line(*model, tokens, ppl::ContextMode::null, nullptr);
  CHECK(null_line.stats.tokens == 3);  // no </s>
  CHECK(null_line.oovs == 1);
  CHECK(null_line.total == (f("-1.0") + (f("-0.5"))) + f("-0.2"));

  const auto empty_sentence = ppl::score_line(*model, {}, ppl::ContextMode::sentence, nullptr);
  CHECK(empty_sentence.stats.tokens == 1);  // </s> after <s>
  const auto empty_null = ppl::score_line(*model, {}, ppl::ContextMode::null, nullptr);
  CHECK(empty_null.stats.tokens == 0);
}

TEST_CASE("CLI: KenLM output, unterminated last line, empty input", "[ppl][cli]") {
  TempFile arpa(kEdgeArpa, ".arpa");
  const auto summary = run_cli({"ppl", "--lm", arpa.path(), "--kenlm-output", "-v", "summary"}, "a b c\n");
  REQUIRE(summary.exit_code == 0);
  CHECK(summary.out.find("Tokens:\t4\n") != std::string::npos);
  // A last line without '\n' is scored like any line (KenLM drops its </s> and total).
  const auto unterminated = run_cli({"ppl", "--lm", arpa.path(), "--kenlm-output"}, "a b c");
  CHECK(unterminated.out == run_cli({"ppl", "--lm", arpa.path(), "--kenlm-output"}, "a b c\n").out);
  // On request, KenLM's own behaviour (spec 1.1: edge_nonl.in "a b c" gives Tokens 3 and perplexities 1).
  const auto kenlm_bug = run_cli({"ppl", "--lm", arpa.path(), "--kenlm-output", "--kenlm-final-line"}, "a b c");
  CHECK(kenlm_bug.out ==
        "a=3 2 -0.3\tb=4 3 -0.1\tc=5 3 -0.15\tPerplexity including OOVs:\t1\nPerplexity excluding OOVs:\t1\n"
        "OOVs:\t0\nTokens:\t3\n");
  const auto empty = run_cli({"ppl", "--lm", arpa.path(), "--kenlm-output"}, "");
  CHECK(empty.out == "Perplexity including OOVs:\tNaN\nPerplexity excluding OOVs:\tNaN\nOOVs:\t0\nTokens:\t0\n");
  const auto null_empty_line = run_cli({"ppl", "--lm", arpa.path(), "--kenlm-output", "-n"}, "\n");
  CHECK(null_empty_line.out.starts_with("Total: 0 OOV: 0\n"));
  // Word level only: words of all lines on one output line.
  const auto word_only = run_cli({"ppl", "--lm", arpa.path(), "--kenlm-output", "-v", "word"}, "a\nb\n");
  // </s> after "<s> a": p(</s>) + bo(a) + bo(<s> a); b after <s>: p(b) + bo(<s>); </s>: p(</s>) + bo(b).
  CHECK(word_only.out == "a=3 2 -0.3\t</s>=2 1 -1.2\tb=4 1 -1.2\t</s>=2 1 -1\t");
}

TEST_CASE("CLI: evalcli report, BPC/BPB over the raw text, signature", "[ppl][cli]") {
  TempFile arpa(kEdgeArpa, ".arpa");
  const auto result = run_cli({"ppl", "--lm", arpa.path(), "-f", "json", "--per-doc"}, "a b c\nzz\n");
  REQUIRE(result.exit_code == 0);
  const auto report = nlohmann::json::parse(result.out);
  CHECK(report["schema"] == "evalcli-report/1");
  CHECK(report["tokens"] == 6);
  CHECK(report["oovs"] == 1);
  CHECK(report["chars"] == 9);  // "a b c\n" + "zz\n"
  CHECK(report["bytes"] == 9);
  const double log10_total = report["log10_total"].get<double>();
  CHECK(report["bpb"].get<double>() == -(log10_total * std::log(10.0) / 9) / std::log(2.0));
  CHECK(report["sentences"].size() == 2);
  const std::string signature = report["signature"];
  CHECK(signature.find("mode:arpa") != std::string::npos);
  CHECK(signature.find("order:3") != std::string::npos);
  CHECK(signature.find("tok:none") != std::string::npos);
  CHECK(signature.find("lm-md5:") != std::string::npos);
  // A tokenizer from the shared pipeline changes tokens and the signature.
  const auto tokenized = run_cli({"ppl", "--lm", arpa.path(), "--tokenize", "13a", "-f", "json"}, "a b.\n");
  REQUIRE(tokenized.exit_code == 0);
  const auto tokenized_report = nlohmann::json::parse(tokenized.out);
  CHECK(tokenized_report["words"] == 3);  // a b .
  CHECK(tokenized_report["signature"].get<std::string>().find("tok:13a-v1") != std::string::npos);
  CHECK(tokenized_report["chars"] == 5);  // the raw text, not the tokens
}

TEST_CASE("ARPA accepted forms", "[ppl][arpa]") {
  // Comments before \data\, CRLF line ends, missing back-off columns, a
  // highest-order back-off of 0, exponent notation, blank lines in a section.
  const std::string arpa =
      "# comment\n\n\\data\\\r\nngram 1=4\nngram 2=2\n\n\\1-grams:\r\n-1e0\t<unk>\n-99\t<s>\t-5E-1\r\n"
      "-0.5\t</s>\n\n-0.25\tw\t0\n\\2-grams:\n-0.1  <s>\t w\t0\n-0.2\tw </s>\r\n\\end\\\n\n";
  const auto model = load_text(arpa);
  CHECK(model->order() == 2);
  CHECK(model->score(std::vector<ppl::WordId>{model->begin_sentence()}, model->index("w")).log10_prob == f("-0.1"));
  CHECK(model->score(std::vector<ppl::WordId>{model->index("w")}, ppl::kUnknownWord).log10_prob == f("-1"));
}

TEST_CASE("ARPA rejected forms name the line", "[ppl][arpa]") {
  const std::string head = "\\data\\\nngram 1=4\nngram 2=1\n\n\\1-grams:\n-1\t<unk>\n-99\t<s>\t-0.5\n-0.5\t</s>\n";
  const std::string bigram = "\\2-grams:\n-0.1\t<s> w\n\n\\end\\\n";
  CHECK_THAT(load_error("junk\n" + head), Catch::Contains(":1: first non-empty line was \"junk\" not \\data\\."));
  CHECK_THAT(load_error(std::string("mmap lm http://kheafield.com/code\0\0", 35)), Catch::Contains("KenLM binary"));
  CHECK_THAT(load_error(head + "-0.25 w\n" + bigram), Catch::Contains(":9: Expected tab after probability"));
  CHECK_THAT(load_error(head + "0.25\tw\n" + bigram), Catch::Contains("Positive log probability"));
  CHECK_THAT(load_error(head + "-0.25\tw\n" + "\\2-grams:\n-0.1\t<s> v\n\n\\end\\\n"),
             Catch::Contains(":11: Word v was not seen in the unigrams"));
  CHECK_THAT(load_error(head + "-0.25\tw\n" + "\\2-grams:\n-0.1\t<s> w\t-0.5\n\n\\end\\\n"),
             Catch::Contains("Non-zero backoff -0.5"));
  CHECK_THAT(load_error(head + "-0.25\tw\tx\n" + bigram), Catch::Contains("Could not parse \"x\""));
  CHECK_THAT(load_error(head + "-0.25\tw\t-inf\n" + bigram), Catch::Contains("Bad backoff"));
  CHECK_THAT(load_error(head + "-0.25\tw\n" + bigram + "junk\n"), Catch::Contains(":14: Trailing line junk"));
  CHECK_THAT(load_error(head + "-0.25\tw\n" + "\\2-grams:\n-0.1\t<s> w\n"), Catch::Contains("End of file"));
  CHECK_THAT(load_error(head + bigram), Catch::Contains(":9: the \\1-grams: section has 3 entries but \\data\\ announced 4"));
  CHECK_THAT(load_error(head + "-0.25\tw\n-0.3\tv\n" + bigram), Catch::Contains("Was expecting n-gram header \\2-grams:"));
  CHECK_THAT(load_error("\\data\\\nngram 1=1\n\n\\1-grams:\n-1\t<s>\n\n\\end\\\n"),
             Catch::Contains("at least a bigram model"));
  CHECK_THAT(load_error("\\data\\\nngram 1=3\nngram 2=1\n\n\\1-grams:\n-1\t<unk>\n-1\t<s>\n-1\tw\n\\2-grams:\n-1\t<s> w\n\\end\\\n"),
             Catch::Contains("missing </s>"));
  CHECK_THAT(load_error("\\data\\\nngram 1=3\nngram 3=1\n\n"), Catch::Contains("consecutive starting with 1"));
  // A 3-gram whose context is not a 2-gram.
  CHECK_THAT(load_error("\\data\\\nngram 1=4\nngram 2=1\nngram 3=1\n\n\\1-grams:\n-1\t<s>\t-1\n-1\t</s>\n-1\ta\t-1\n"
                        "-1\tb\t-1\n\\2-grams:\n-1\ta b\t-1\n\\3-grams:\n-1\tb a b\n\\end\\\n"),
             Catch::Contains("The context of every 3-gram should appear as a 2-gram"));
  // n-grams are parsed a batch at a time and inserted afterwards: the first
  // error in file order still wins (the missing context on line 15, not the
  // bad number on line 17), and errors name their own line.
  const std::string three = "\\data\\\nngram 1=4\nngram 2=1\nngram 3=4\n\n\\1-grams:\n-1\t<s>\t-1\n-1\t</s>\n-1\ta\t-1\n"
                            "-1\tb\t-1\n\\2-grams:\n-1\ta b\t-1\n\\3-grams:\n-1\ta b a\n";
  CHECK_THAT(load_error(three + "-1\tb b a\n-1\ta b b\nx\ta b </s>\n\\end\\\n"),
             Catch::Contains(":15: The context of every 3-gram should appear as a 2-gram"));
  CHECK_THAT(load_error(three + "-1\ta b b\nx\ta b </s>\n\\end\\\n"), Catch::Contains(":16: Could not parse \"x\""));
  // A header announcing far more entries than the file can hold is an input
  // error at the end of the data, not an attempt to allocate for them.
  CHECK_THAT(load_error("\\data\\\nngram 1=999999999999\nngram 2=1\n\n\\1-grams:\n-1\t<s>\n"),
             Catch::Contains(":7: End of file while expecting a 1-gram entry"));
}

TEST_CASE("ARPA without <unk>: -100 and a warning", "[ppl][arpa]") {
  std::ostringstream warnings;
  const auto model = load_text(
      "\\data\\\nngram 1=3\nngram 2=1\n\n\\1-grams:\n-1\t<s>\t-0.5\n-1\t</s>\n-1\tw\n\\2-grams:\n-1\t<s> w\n\\end\\\n",
      &warnings);
  CHECK(warnings.str() == "The ARPA file is missing <unk>.  Substituting log10 probability -100.\n");
  CHECK(!model->has_unknown());
  CHECK(model->score(std::vector<ppl::WordId>{}, ppl::kUnknownWord).log10_prob == -100.0f);
}

TEST_CASE("compressed models and input are detected by content", "[ppl][decompress]") {
  for (const std::string kind : {"gz", "bz2", "xz"}) {
    INFO(kind);
    TempFile arpa(compress(kEdgeArpa, kind), ".model");  // no telling suffix
    const auto plain_model = load_text(kEdgeArpa);
    const auto model = ppl::NgramModel::load(arpa.path(), nullptr);
    CHECK(model->md5() == plain_model->md5());  // MD5 of the uncompressed text
    const auto from_compressed = run_cli({"ppl", "--lm", arpa.path(), "--kenlm-output"}, compress("a b c\nzz\n", kind));
    TempFile plain(kEdgeArpa, ".arpa");
    CHECK(from_compressed.out == run_cli({"ppl", "--lm", plain.path(), "--kenlm-output"}, "a b c\nzz\n").out);
  }
  TempFile truncated(compress(kEdgeArpa, "gz").substr(0, 40), ".gz");
  CHECK_THROWS_AS(ppl::NgramModel::load(truncated.path(), nullptr), evalcli::Error);
}

TEST_CASE("JSONL log-probs: metrics and validation", "[ppl][logprobs]") {
  std::vector<std::string> warnings;
  const auto doc = ppl::score_document(R"({"id": 7, "text": "a b\n", "tokens": ["a", " b", "\n"], "logprobs": [null, -1.5, -0.5]})",
                                       ppl::LogBase::e, "f:1", warnings);
  CHECK(doc.stats.scored_tokens == 2);
  CHECK(doc.stats.logprob_sum == -2.0);
  CHECK(doc.stats.chars == 4);
  CHECK(doc.stats.words == 3);  // lm-eval: trailing whitespace adds an empty word
  CHECK(doc.id == 7);
  CHECK(warnings.empty());

  const auto base10 = ppl::score_document(R"({"text": "x", "logprobs": [-1]})", ppl::LogBase::ten, "f:2", warnings);
  CHECK(base10.stats.logprob_sum == -std::log(10.0));

  const auto from_tokens = ppl::score_document(R"({"tokens": ["\u00e9", "b"], "logprobs": [-1, -1]})", ppl::LogBase::e, "f:3", warnings);
  CHECK(from_tokens.stats.bytes == 3);
  CHECK(from_tokens.stats.chars == 2);

  const auto no_text = ppl::score_document(R"({"logprobs": [-1]})", ppl::LogBase::e, "f:4", warnings);
  CHECK(no_text.stats.docs_without_text == 1);

  ppl::score_document(R"({"text": "x", "logprobs": [1e-7]})", ppl::LogBase::e, "f:5", warnings);
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(warnings[0], Catch::Contains("f:5: field \"logprobs\"[0] is positive"));

  const auto error = [&](const std::string& line) {
    try {
      ppl::score_document(line, ppl::LogBase::e, "f:9", warnings);
    } catch (const evalcli::Error& e) {
      CHECK(e.code() == evalcli::ExitCode::input_data);
      return std::string(e.what());
    }
    FAIL("accepted: " << line);
    return std::string();
  };
  CHECK_THAT(error(R"({"text": "x", "tokens": ["a"], "logprobs": [-1, -2]})"),
             Catch::Contains("f:9: fields \"tokens\" and \"logprobs\" have different lengths (1 vs 2)"));
  CHECK_THAT(error(R"({"text": "x"})"), Catch::Contains("f:9: field \"logprobs\" is missing"));
  CHECK_THAT(error(R"({"text": "x", "logprobs": ["-1"]})"), Catch::Contains("\"logprobs\"[0] must be a number"));
  CHECK_THAT(error(R"({"text": "x", "logprobs": [-1e999]})"), Catch::Contains("f:9"));
  CHECK_THAT(error(R"({"text": 3, "logprobs": []})"), Catch::Contains("field \"text\" must be a string"));
  CHECK_THAT(error("[1]"), Catch::Contains("expected a JSON object"));
  CHECK_THAT(error("{"), Catch::Contains("not valid JSON"));
}

TEST_CASE("lm-eval word count: whitespace runs + 1", "[ppl][logprobs]") {
  CHECK(ppl::lm_eval_word_count(U"") == 1);
  CHECK(ppl::lm_eval_word_count(U"a b c\n") == 4);
  CHECK(ppl::lm_eval_word_count(U" a\u3000\u3000b ") == 4);
  CHECK(ppl::lm_eval_word_count(U"a\r\nb") == 2);
}

TEST_CASE("CLI: JSONL mode end to end and usage errors", "[ppl][cli]") {
  TempFile jsonl("{\"text\": \"ab\", \"logprobs\": [-1, -1]}\n\n{\"text\": \"c\\n\", \"logprobs\": [null, -2]}\n", ".jsonl");
  const auto result = run_cli({"ppl", "--logprobs", jsonl.path(), "-f", "json"});
  REQUIRE(result.exit_code == 0);
  const auto report = nlohmann::json::parse(result.out);
  CHECK(report["docs"] == 2);
  CHECK(report["scored_tokens"] == 3);
  CHECK(report["ppl_token"].get<double>() == std::exp(-(-4.0 / 3)));
  CHECK(report["bpc"].get<double>() == -(-4.0 / 4) / std::log(2.0));
  CHECK(report["signature"].get<std::string>().find("mode:logprobs|base:e") != std::string::npos);

  TempFile bad("{\"text\": \"ab\", \"logprobs\": [-1]}\n{\"text\": \"ab\", \"tokens\": [\"a\"], \"logprobs\": []}\n", ".jsonl");
  const auto failed = run_cli({"ppl", "--logprobs", bad.path()});
  CHECK(failed.exit_code == 3);
  CHECK_THAT(failed.err, Catch::Contains(bad.path() + ":2: fields \"tokens\" and \"logprobs\""));

  CHECK(run_cli({"ppl"}).exit_code == 2);
  CHECK(run_cli({"ppl", "--logprobs", jsonl.path(), "--logprob-base", "3"}).exit_code == 2);
  CHECK(run_cli({"ppl", "--logprobs", jsonl.path(), "-n"}).exit_code == 2);
  CHECK(run_cli({"ppl", "--lm", "/nonexistent.arpa"}, "a\n").exit_code == 3);
}

TEST_CASE("shared edge models: KenLM's load errors", "[ppl][arpa]") {
  const auto parent = shared_parent();
  if (!parent) return;
  const auto edge = *parent / "shared/corpora/lm/edge";
  const auto error_of = [&](const char* name) {
    const auto r = run_cli({"ppl", "--lm", (edge / name).string()}, "a\n");
    CHECK(r.exit_code == 3);
    return r.err;
  };
  CHECK_THAT(error_of("posprob.arpa"), Catch::Contains("Positive log probability"));
  CHECK_THAT(error_of("nocontext.arpa"), Catch::Contains("The context of every 3-gram should appear as a 2-gram"));
  CHECK_THAT(error_of("hobo.arpa"), Catch::Contains("Non-zero backoff"));
  CHECK_THAT(error_of("junkheader.arpa"), Catch::Contains("first non-empty line was"));
  // <UNK> spelling is the unknown word.
  const auto upper = run_cli({"ppl", "--lm", (edge / "upperunk.arpa").string(), "--kenlm-output"}, "zz b\n");
  const auto lower = run_cli({"ppl", "--lm", (edge / "edge.arpa").string(), "--kenlm-output"}, "zz b\n");
  CHECK(upper.exit_code == 0);
  CHECK(upper.out == lower.out);
}

TEST_CASE("state-carrying scorer equals the textbook back-off formula", "[ppl][backoff]") {
  const auto parent = shared_parent();
  if (!parent) return;
  // toy.en.o3.arpa (lmplz) on the first 100 test lines: every word, both ways.
  const auto model = ppl::NgramModel::load((*parent / "shared/corpora/lm/arpa/toy.en.o3.arpa").string(), nullptr);
  std::ifstream text(*parent / "shared/corpora/lm/test/toy.test.en.tok");
  std::size_t compared = 0;
  for (std::string line; std::getline(text, line);) {
    std::vector<std::string_view> tokens;
    ppl::split_kenlm_tokens(line, tokens);
    std::vector<ppl::WordId> history{model->begin_sentence()};  // most recent first
    ppl::NgramModel::State state = model->begin_sentence_state(), next;
    std::vector<ppl::WordId> ids;
    for (const auto token : tokens) ids.push_back(model->index(token));
    ids.push_back(model->end_sentence());
    for (const ppl::WordId id : ids) {
      const auto textbook = model->score(history, id);
      const auto carried = model->score(state, id, next);
      state = next;
      CHECK(carried.log10_prob == textbook.log10_prob);
      CHECK(carried.ngram_length == textbook.ngram_length);
      history.insert(history.begin(), id);
      ++compared;
    }
  }
  CHECK(compared == 2499);  // the golden's token count for this text
}

// The ARPA loader's fast float32 path (Clinger's double fast path, then double
// -> float, with the double-rounding case sent to std::from_chars) must give
// exactly what strtof gives, for every shape of number an ARPA file holds.
TEST_CASE("ARPA numbers parse exactly as strtof (fast path and its fallbacks)", "[ppl][arpa]") {
  std::mt19937_64 rng(20261129);
  std::uniform_real_distribution<float> magnitude(0.0f, 99.0f);
  std::vector<std::string> numbers = {"-0", "-0.0", "0", "-.5", "-5.", "-1e-05", "-1.5E+01", "-2e0", "-0.000012345",
                                      "-99", "-1.0000000000000000000001", "-12345678901234567890", "-1e-30", "-7e22",
                                      "-3.4028235e38", "-1.17549435e-38", "-4.6000004", "-0.30103"};
  for (int i = 0; i < 3000; ++i) {
    const float value = -magnitude(rng);
    const int digits = 1 + i % 9;
    numbers.push_back(fmt::format("{:.{}g}", value, digits));
    // A 17-digit decimal next to the midpoint between two floats: rounds to that
    // midpoint in double, but must round to the float on its own side.
    const float next = std::nextafter(value, -100.0f);
    const double midpoint = (static_cast<double>(value) + static_cast<double>(next)) / 2;
    numbers.push_back(fmt::format("{:.17g}", midpoint));
    numbers.push_back(fmt::format("{:.16e}", midpoint));
  }
  std::string arpa = fmt::format("\\data\\\nngram 1={}\nngram 2=1\n\n\\1-grams:\n-1\t<unk>\n-1\t<s>\t0\n-1\t</s>\n-1\tz\n",
                                 numbers.size() + 4);
  // word wI has probability numbers[I] and back-off numbers[size-1-I]
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    arpa += fmt::format("{}\tw{}\t{}\n", numbers[i], i, numbers[numbers.size() - 1 - i]);
  }
  arpa += "\n\\2-grams:\n-0.5\t<s> z\n\n\\end\\\n";
  const auto model = load_text(arpa);
  const ppl::WordId z = model->index("z");
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    const ppl::WordId id = model->index(fmt::format("w{}", i));
    INFO(numbers[i] << " / back-off " << numbers[numbers.size() - 1 - i]);
    CHECK(model->score(std::vector<ppl::WordId>{}, id).log10_prob == f(numbers[i].c_str()));
    // p(z | wI) backs off: p(z) + back-off(wI), in float32.
    CHECK(model->score(std::vector<ppl::WordId>{id}, z).log10_prob == -1.0f + f(numbers[numbers.size() - 1 - i].c_str()));
  }
}

TEST_CASE("the ppl text report leads with PPL, the OOV rate and bits per character, with a note on many OOVs",
          "[ppl][cli]") {
  const evalcli::test::TempFile model(
      "\\data\\\nngram 1=5\nngram 2=3\n\n\\1-grams:\n-1.0\t<unk>\n-99\t<s>\t-0.5\n-0.7\t</s>\n-0.5\ta\t-0.3\n"
      "-0.6\tb\t-0.2\n\n\\2-grams:\n-0.1\t<s> a\n-0.1\ta b\n-0.2\tb </s>\n\n\\end\\\n",
      ".arpa");
  const evalcli::test::TempFile known("a b\na b\n"), unknown("a b c\n");
  const auto in_vocabulary = evalcli::test::run_cli({"ppl", "--lm", model.path(), "-i", known.path()});
  REQUIRE(in_vocabulary.exit_code == 0);
  CHECK_THAT(in_vocabulary.out, Catch::StartsWith("PPL = ") && Catch::Contains("OOV rate 0.00% (0 of 6 tokens)") &&
                                    Catch::Contains("bits/char"));
  CHECK_THAT(in_vocabulary.out, !Catch::Contains("note:"));
  const auto with_oovs = evalcli::test::run_cli({"ppl", "--lm", model.path(), "-i", unknown.path()});
  REQUIRE(with_oovs.exit_code == 0);
  CHECK_THAT(with_oovs.out, Catch::Contains("OOV rate 25.00% (1 of 4 tokens)") &&
                                Catch::Contains("note: 25.0% of the tokens are not in the model's vocabulary"));
}

// Issue #19 item 6: KenLM's probing tables keep the sign bit of log
// probabilities (every one is read back with it set) and store a zero back-off
// as -0 unless the n-gram is the context of a longer one (lm/blank.hh), so a
// zero probability prints "-0" or "0" depending on the context. Expected
// outputs: KenLM query (kpu/kenlm 4cb443e, compile_query_only.sh) on these models.
TEST_CASE("KenLM's signed zeros: p = 0 prints -0 after a word that is no context, 0 after one", "[ppl][arpa]") {
  TempFile arpa(
      "\\data\\\nngram 1=4\nngram 2=2\n\n\\1-grams:\n-1\t<unk>\t0\n0\t<s>\t-0.5\n-0.5\t</s>\t0\n-0.25\tw\t0\n\n"
      "\\2-grams:\n-0.1\t<s> w\n-0.2\tw </s>\n\n\\end\\\n",
      ".arpa");
  const auto words = [&](std::vector<std::string> extra, const std::string& text) {
    std::vector<std::string> args = {"ppl", "--lm", arpa.path(), "--kenlm-output", "-v", "word"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = run_cli(args, text);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    return r.out;
  };
  // </s>'s zero back-off is -0 (no bigram starts with </s>): -0 + -0.
  CHECK(words({}, "w </s> <s> w\n") == "w=3 2 -0.1\t</s>=2 2 -0.2\t<s>=1 1 -0\tw=3 2 -0.1\t</s>=2 2 -0.2\t");
  // w is the context of "w </s>": its zero back-off is +0, and -0 + +0 = 0.
  CHECK(words({}, "w <s>\n") == "w=3 2 -0.1\t<s>=1 1 0\t</s>=2 1 -1\t");
  // With -n, <s> has no context at all.
  CHECK(words({"-n"}, "<s> w\n") == "<s>=1 1 -0\tw=3 2 -0.1\t");
  // A line total starts at +0 (KenLM's float total = 0.0): 0 + -0 = 0.
  const auto line = run_cli({"ppl", "--lm", arpa.path(), "--kenlm-output", "-v", "sentence", "-n"}, "<s>\n");
  CHECK(line.out == "Total: 0 OOV: 0\n");
}

TEST_CASE("evalcli's report: empty input is an input error, lines without tokens report n/a, not a crash",
          "[ppl][cli]") {
  TempFile arpa(kEdgeArpa, ".arpa");
  const auto empty = run_cli({"ppl", "--lm", arpa.path()}, "");
  CHECK(empty.exit_code == 3);
  CHECK_THAT(empty.err, Catch::Contains("<stdin>: empty input: no lines to score"));
  TempFile no_documents("", ".jsonl");
  const auto logprobs = run_cli({"ppl", "--logprobs", no_documents.path()});
  CHECK(logprobs.exit_code == 3);
  CHECK_THAT(logprobs.err, Catch::Contains(no_documents.path() + ": empty input: no documents to score"));
  // -n on empty lines scores nothing: the perplexities are n/a, the zero log-likelihood prints as 0, not -0.
  const auto nothing = run_cli({"ppl", "--lm", arpa.path(), "-n"}, "\n\n");
  INFO(nothing.err);
  REQUIRE(nothing.exit_code == 0);
  CHECK_THAT(nothing.out, Catch::StartsWith("PPL = n/a (excluding OOVs: n/a) | OOV rate 0.00% (0 of 0 tokens) | "
                                            "0.0000 bits/char, 0.0000 bits/byte"));
}

TEST_CASE("ARPA: a NaN log probability is refused at load, naming the line", "[ppl][arpa]") {
  const std::string head = "\\data\\\nngram 1=4\nngram 2=1\n\n\\1-grams:\n-1\t<unk>\n-99\t<s>\t-0.5\n-0.5\t</s>\n";
  const std::string bigram = "\\2-grams:\n-0.1\t<s> w\n\n\\end\\\n";
  // KenLM (kpu/kenlm 4cb443e query): Could not parse "nan" into a float in the 1-gram at byte 105
  CHECK_THAT(load_error(head + "nan\tw\n" + bigram),
             Catch::Contains(":9: Could not parse \"nan\" into a float: a NaN log probability in the 1-gram"));
  CHECK_THAT(load_error(head + "-0.25\tw\n" + "\\2-grams:\n-NaN\t<s> w\n\n\\end\\\n"),
             Catch::Contains(":11: Could not parse \"-NaN\" into a float: a NaN log probability in the 2-gram"));
  TempFile arpa(head + "NaN\tw\n" + bigram, ".arpa");
  const auto r = run_cli({"ppl", "--lm", arpa.path()}, "w\n");
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::Contains(arpa.path() + ":9: Could not parse \"NaN\""));
}

TEST_CASE("ARPA: of duplicate n-grams the first is kept, as KenLM's probing tables do", "[ppl][arpa]") {
  // A repeated unigram still takes a word id (w=3, its repeat 4, v=5), but
  // look-ups find the first; <unk> and <UNK> all go to id 0, so the last wins.
  TempFile arpa(
      "\\data\\\nngram 1=7\nngram 2=3\n\n\\1-grams:\n-1\t<unk>\n-2\t<unk>\n-99\t<s>\t-0.5\n-0.5\t</s>\n"
      "-0.25\tw\t-0.1\n-0.75\tw\t-0.3\n-0.5\tv\n\n"
      "\\2-grams:\n-0.1\t<s> w\n-0.2\tw v\n-0.4\t<s> w\n\n\\end\\\n",
      ".arpa");
  const auto r = run_cli({"ppl", "--lm", arpa.path(), "--kenlm-output", "-v", "word"}, "w v zz w\n");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  // <s> w: -0.1 (first); w v: -0.2; zz: p(<unk>) = -2 + bo(v) (absent: -0); w: p(w) = -0.25 + bo(<unk>) (-0);
  // </s>: p(</s>) + bo(w) = -0.5 + -0.1.
  CHECK(r.out == fmt::format("w=3 2 -0.1\tv=5 2 -0.2\tzz=0 1 -2\tw=3 1 -0.25\t</s>=2 1 {}\t",
                             ppl::kenlm_number(f("-0.5") + f("-0.1"))));
}

namespace {

// The signature `evalcli ppl` prints for `arpa` over `text`, without its scorer: field (as printed before it existed).
std::string signature_without_scorer(const TempFile& arpa, const std::string& text) {
  const auto printed = run_cli({"ppl", "--lm", arpa.path(), "-f", "json"}, text);
  REQUIRE(printed.exit_code == 0);
  std::string signature = nlohmann::json::parse(printed.out)["signature"];
  const std::string field = std::string("|scorer:") + ppl::kArpaScorer;
  const std::size_t at = signature.find(field);
  REQUIRE(at != std::string::npos);
  return signature.erase(at, field.size());
}

}  // namespace

TEST_CASE("ARPA signatures name the scorer's version, one without it reads back where its rules agree", "[ppl][arpa][signature]") {
  const std::string text = "a b c\n";
  TempFile clean(kEdgeArpa, ".arpa");
  const auto printed = run_cli({"ppl", "--lm", clean.path(), "-f", "json"}, text);
  REQUIRE(printed.exit_code == 0);
  const std::string signature = nlohmann::json::parse(printed.out)["signature"];
  CHECK_THAT(signature, Catch::Contains("|order:3|scorer:kenlm-v2|ctx:sentence|"));
  // The signature as printed, and without scorer: (a model without repeated entries: both rules give its numbers).
  CHECK(run_cli({"ppl", "--lm", clean.path(), "--signature", signature}, text).exit_code == 0);
  CHECK(run_cli({"ppl", "--lm", clean.path(), "--signature", signature_without_scorer(clean, text)}, text).exit_code == 0);
  // A scorer version this evalcli does not have.
  std::string future = signature;
  future.replace(future.find("kenlm-v2"), 8, "kenlm-v9");
  const auto refused = run_cli({"ppl", "--lm", clean.path(), "--signature", future}, text);
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.err, Catch::Contains("PPL scorer 'kenlm-v9', which this evalcli cannot reproduce"));

  // A model that repeats a bigram (line 13): the old rules kept the last, so a signature without scorer: is refused.
  TempFile repeats(
      "\\data\\\nngram 1=4\nngram 2=2\n\n\\1-grams:\n-1\t<s>\t-0.3\n-1\t</s>\n-0.5\ta\t-0.1\n-0.9\t<unk>\n\n"
      "\\2-grams:\n-0.2\t<s> a\n-0.4\t<s> a\n\n\\end\\\n",
      ".arpa");
  const auto unversioned = run_cli({"ppl", "--lm", repeats.path(), "--signature", signature_without_scorer(repeats, text)}, text);
  CHECK(unversioned.exit_code == 2);
  CHECK_THAT(unversioned.err, Catch::Contains("signature has no 'scorer' field (this run has scorer:kenlm-v2), and " +
                                              repeats.path() + " repeats an entry (first at line 13)"));
}

TEST_CASE("ARPA: the first repeated entry's line is known, <unk> entries aside", "[ppl][arpa]") {
  CHECK(load_text(kEdgeArpa)->first_duplicate_line() == 0);
  const std::string head = "\\data\\\nngram 1=5\nngram 2=1\n\n\\1-grams:\n-1\t<unk>\n-2\t<UNK>\n-99\t<s>\n-0.5\t</s>\n";
  // <unk> and <UNK> (lines 6, 7) are one entry whose last wins under every version: not a repeat.
  CHECK(load_text(head + "-0.25\tw\n\n\\2-grams:\n-0.1\t<s> w\n\n\\end\\\n")->first_duplicate_line() == 0);
  // A repeated word (line 10).
  const std::string words = "\\data\\\nngram 1=5\nngram 2=1\n\n\\1-grams:\n-99\t<s>\n-0.5\t</s>\n-0.25\tw\n-0.5\tv\n-0.75\tw\n";
  CHECK(load_text(words + "\n\\2-grams:\n-0.1\t<s> w\n\n\\end\\\n")->first_duplicate_line() == 10);
}
