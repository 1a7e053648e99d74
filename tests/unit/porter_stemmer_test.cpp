#include "evalcli/text/porter_stemmer.hpp"

#include <fstream>
#include <set>
#include <sstream>

#include "support/test_support.hpp"

using evalcli::text::PorterStemmer;
using evalcli::text::PorterVariant;

TEST_CASE("porter nltk: paper examples and NLTK extensions", "[porter]") {
  const PorterStemmer nltk;
  CHECK(nltk.stem(std::string("caresses")) == "caress");
  CHECK(nltk.stem(std::string("ponies")) == "poni");
  CHECK(nltk.stem(std::string("dies")) == "die");     // 4-letter -ies
  CHECK(nltk.stem(std::string("died")) == "die");     // 4-letter -ied
  CHECK(nltk.stem(std::string("spied")) == "spi");
  CHECK(nltk.stem(std::string("dying")) == "die");    // irregular table
  CHECK(nltk.stem(std::string("skies")) == "sky");
  CHECK(nltk.stem(std::string("news")) == "news");
  CHECK(nltk.stem(std::string("they")) == "they");    // y after a vowel stays
  CHECK(nltk.stem(std::string("happy")) == "happi");
  CHECK(nltk.stem(std::string("says")) == "say");
  CHECK(nltk.stem(std::string("relational")) == "relat");
  CHECK(nltk.stem(std::string("hopping")) == "hop");
  CHECK(nltk.stem(std::string("filing")) == "file");
  CHECK(nltk.stem(std::string("generalization")) == "gener");
  CHECK(nltk.stem(std::string("used")) == "use");
  CHECK(nltk.stem(std::string("Running")) == "run");  // NLTK lowercases
  CHECK(nltk.stem(std::string("at")) == "at");        // <= 2 letters unchanged
  CHECK(nltk.stem(std::string("")) == "");
}

TEST_CASE("porter rouge155: the original y rule and ROUGE's step-4 change", "[porter]") {
  const PorterStemmer perl(PorterVariant::rouge155);
  CHECK(perl.stem(std::string("they")) == "thei");
  CHECK(perl.stem(std::string("died")) == "di");
  CHECK(perl.stem(std::string("used")) == "us");
  CHECK(perl.stem(std::string("saturday")) == "saturdai");
  CHECK(perl.stem(std::string("yelling")) == "yell");  // leading y is a consonant
  CHECK(perl.id() == "porter-rouge155-v1");
}

// Every token of the shared stem table (NLTK stem, ROUGE-1.5.5 MorphStem).
// ROUGE's MorphStem consults WordNet exceptions first: those rows are checked
// in the ROUGE tests; here only rows where the exception list has no entry.
TEST_CASE("porter: the 44,110-token stem table from NLTK 3.8 and ROUGE-1.5.5", "[porter][golden]") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  std::ifstream exceptions_file(*parent / "shared/corpora/rouge155-data/WordNet-2.0-exceptions.tsv");
  REQUIRE(exceptions_file.good());
  std::set<std::string> exception_keys;
  for (std::string line; std::getline(exceptions_file, line);) exception_keys.insert(line.substr(0, line.find('\t')));

  std::ifstream table(*parent / "shared/golden/rouge/stem_table_cnndm_realsumm_dialogsum.tsv");
  REQUIRE(table.good());
  std::string line;
  std::getline(table, line);  // header
  const PorterStemmer nltk;
  const PorterStemmer perl(PorterVariant::rouge155);
  std::size_t rows = 0, nltk_wrong = 0, perl_wrong = 0;
  while (std::getline(table, line)) {
    std::istringstream fields(line);
    std::string token, nltk_stem, rouge_stem;
    std::getline(fields, token, '\t');
    std::getline(fields, nltk_stem, '\t');
    std::getline(fields, rouge_stem, '\t');
    ++rows;
    if (nltk.stem(token) != nltk_stem) {
      ++nltk_wrong;
      UNSCOPED_INFO("nltk " << token << " -> " << nltk.stem(token) << " expected " << nltk_stem);
    }
    if (exception_keys.count(token) == 0 && perl.stem(token) != rouge_stem) {
      ++perl_wrong;
      UNSCOPED_INFO("rouge155 " << token << " -> " << perl.stem(token) << " expected " << rouge_stem);
    }
  }
  CHECK(rows == 44110);
  CHECK(nltk_wrong == 0);
  CHECK(perl_wrong == 0);
}
