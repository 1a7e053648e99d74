// METEOR 1.5 outside English (issue 19 item 2): German, French, Czech and
// Russian segment and system scores as the jar prints them, with its English
// function-word list (the default) and with the language's own list
// (--function-words language = the jar's -s LANG.words), and the stems of the
// jar's Snowball classes. Expected values: tests/data/make_meteor15_languages.py
// (the command of every case is in goldens.json).
#include <fstream>

#include "metrics/meteor/meteor15_internal.hpp"
#include "evalcli/text/utf8.hpp"
#include "support/test_support.hpp"

namespace {

std::filesystem::path data_dir() { return evalcli::test::source_dir() / "tests" / "data" / "meteor15_languages"; }

}  // namespace

TEST_CASE("METEOR 1.5 in de, fr, cz, ru: segment and system scores as the jar's", "[meteor15][conformance]") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  const std::string resources = (*parent / "shared" / "corpora" / "meteor15").string();
  const auto goldens = evalcli::test::read_json(data_dir() / "goldens.json");
  REQUIRE(goldens["cases"].size() == 8);
  for (const auto& c : goldens["cases"]) {
    const std::string command = c["command"];
    SECTION(command) {
      std::vector<std::string> args = {"meteor", "--compat", "meteor15", "--meteor-resources", resources,
                                       "--lang", c["lang"], "--norm", "norm", "-m", c["modules"],
                                       "-r", (data_dir() / c["ref"].get<std::string>()).string(),
                                       "-i", (data_dir() / c["hyp"].get<std::string>()).string(),
                                       "-f", "json", "--sentence-level"};
      if (c["function_words"] == "language") args.insert(args.end(), {"--function-words", "language"});
      const auto result = evalcli::test::run_cli(args);
      INFO(result.err);
      REQUIRE(result.exit_code == 0);
      const auto report = nlohmann::json::parse(result.out);
      CHECK(report["eval_id"] == c["eval_id"]);
      const auto& expected = c["segments"];
      REQUIRE(report["sentences"].size() == expected.size());
      for (std::size_t i = 0; i < expected.size(); ++i) {
        INFO("segment " << i + 1);
        CHECK(report["sentences"][i]["score"].get<double>() == expected[i].get<double>());
      }
      CHECK(report["score"].get<double>() == c["final"].get<double>());
      const std::string signature = report["signature"];
      CHECK((signature.find("|fw:language") != std::string::npos) == (c["function_words"] == "language"));
    }
  }
}

TEST_CASE("METEOR 1.5 stems: the jar's Snowball classes (ё, ő/ű õ/û, -nisse, ë, Dutch R1, Finnish, Danish, Portuguese, UTF-16), not libstemmer 2.2's",
          "[meteor15]") {
  std::ifstream in(data_dir() / "stems.tsv");
  REQUIRE(in.good());
  std::map<std::string, std::unique_ptr<evalcli::meteor15::JarStemmer>> stemmers;
  std::size_t rows = 0, equal = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const auto tab1 = line.find('\t'), tab2 = line.find('\t', tab1 + 1);
    REQUIRE(tab2 != std::string::npos);
    const std::string algorithm = line.substr(0, tab1);
    auto& stemmer = stemmers[algorithm];
    if (!stemmer) stemmer = std::make_unique<evalcli::meteor15::JarStemmer>(algorithm);
    const auto word = evalcli::utf8::decode_or_throw(line.substr(tab1 + 1, tab2 - tab1 - 1), "stems.tsv");
    const std::string stem = evalcli::utf8::encode(stemmer->stem(word));
    ++rows;
    if (stem == line.substr(tab2 + 1)) {
      ++equal;
    } else {
      UNSCOPED_INFO(algorithm << " " << line.substr(tab1 + 1, tab2 - tab1 - 1) << ": " << stem << " (jar "
                              << line.substr(tab2 + 1) << ")");
    }
  }
  CHECK(rows == 1376);
  CHECK(equal == rows);
}

// The stems of v2 differ from v1's (French, Dutch, Finnish, Danish, Hungarian,
// Portuguese and words outside the BMP): a v1 signature cannot be reproduced.
TEST_CASE("METEOR 1.5 stemmer: signature stemmer:snowball-LANG-meteor15-v2, v1 refused", "[meteor15][signature]") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  const std::string resources = (*parent / "shared" / "corpora" / "meteor15").string();
  const std::vector<std::string> base = {"meteor", "--meteor-resources", resources,
                                         "-r", (data_dir() / "ref.fr").string(), "-i", (data_dir() / "hyp.fr").string()};
  auto args = base;
  args.insert(args.end(), {"--compat", "meteor15", "--lang", "fr", "--norm", "norm", "-m", "exact stem", "-f", "json"});
  const auto result = evalcli::test::run_cli(args);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const std::string signature = nlohmann::json::parse(result.out)["signature"];
  const auto at = signature.find("stemmer:snowball-french-meteor15-v2");
  REQUIRE(at != std::string::npos);
  auto again = base;
  again.insert(again.end(), {"--signature", signature});
  CHECK(evalcli::test::run_cli(again).exit_code == 0);
  std::string old = signature;
  old.replace(old.find("-v2", at), 3, "-v1");
  again.back() = old;
  const auto refused = evalcli::test::run_cli(again);
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find("stemmer:snowball-french-meteor15-v1") != std::string::npos);
}
