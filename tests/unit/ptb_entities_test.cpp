// PTB tokenizer and `&amp;` (issue 19 item 3): PTBTokenizer 3.4.1 keeps
// AT&amp;T, R&amp;B, M&amp;M (THINGA) and S&amp;P-500 (TBSPEC) whole, the
// entity caseless (&AMP;), and a sentence-final period after them is its own
// token. Expected: pycocoevalcap's tokenizer and CIDEr-D run on the same files
// (tests/data/make_ptb_entities.py records how the Java tokenizer was built).
#include <sstream>

#include "evalcli/text/utf8.hpp"
#include "evalcli/tokenize/builtin_tokenizers.hpp"
#include "support/test_support.hpp"

namespace {

std::filesystem::path data(const std::string& name) {
  return evalcli::test::source_dir() / "tests" / "data" / "ptb_entities" / name;
}

std::vector<std::u32string> caption_lines(const std::string& name) {
  std::vector<std::u32string> lines;
  std::istringstream in(evalcli::test::read_file(data(name)));
  for (std::string line; std::getline(in, line);) lines.push_back(evalcli::utf8::decode_or_throw(line, name));
  return lines;
}

}  // namespace

TEST_CASE("ptb: &amp between capitals as PTBTokenizer 3.4.1 (pycocoevalcap) tokenizes it", "[ptb][cider]") {
  const auto golden = evalcli::test::read_json(data("goldens.json"));
  const auto tokens = evalcli::tokenizers::ptb_tokenize_batch(caption_lines("captions.txt"));
  const auto& expected = golden["tokenized"];
  REQUIRE(tokens.size() == expected.size());
  std::size_t equal = 0;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (evalcli::utf8::encode(tokens[i]) == expected[i].get<std::string>()) {
      ++equal;
    } else {
      UNSCOPED_INFO("line " << i + 1 << ": " << evalcli::utf8::encode(tokens[i]) << " (Java: " << expected[i] << ")");
    }
  }
  CHECK(equal == tokens.size());
  CHECK(tokens.size() == 323);
}

TEST_CASE("cider: CIDEr-D of a 2-image example with AT&ampT and M&ampMs as pycocoevalcap's", "[ptb][cider]") {
  const auto golden = evalcli::test::read_json(data("goldens.json"))["cider"];
  const auto result = evalcli::test::run_cli({"cider", "-r", data("ref.1.txt").string(), "-r", data("ref.2.txt").string(),
                                              "-r", data("ref.3.txt").string(), "-i", data("hyp.txt").string(), "-f",
                                              "json", "--sentence-level"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto report = nlohmann::json::parse(result.out);
  CHECK(report["score"].get<double>() == golden["corpus"].get<double>());
  REQUIRE(report["sentences"].size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(report["sentences"][i]["score"].get<double>() == golden["per_image"][i].get<double>());
  }
  CHECK(report["signature"].get<std::string>().find("tok:ptb-v2") != std::string::npos);
}
