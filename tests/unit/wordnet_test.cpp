// WordNet reader: the look-ups that bisect the sorted index.* and *.exc files
// in place must give what a plain reading of the whole files gives (every
// lemma and exception in hash maps, NLTK's _morphy written out naively).
#include "evalcli/metrics/wordnet.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>

namespace {

using evalcli::WordNet;
namespace fs = std::filesystem;

constexpr const char* kPosSuffix[] = {"noun", "verb", "adj", "adv"};

std::vector<std::string> split(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> fields;
  for (std::string field; in >> field;) fields.push_back(field);
  return fields;
}

// The whole database read line by line, as NLTK's WordNetCorpusReader does.
struct PlainWordNet {
  std::unordered_map<std::string, std::vector<std::uint64_t>> offsets[4];
  std::unordered_map<std::string, std::vector<std::string>> exceptions[4];

  explicit PlainWordNet(const fs::path& dir) {
    for (int p = 0; p < 4; ++p) {
      std::ifstream index(dir / (std::string("index.") + kPosSuffix[p]));
      for (std::string line; std::getline(index, line);) {
        if (line.empty() || line[0] == ' ') continue;
        const auto f = split(line);
        const std::size_t n_synsets = std::stoul(f[2]);
        const std::size_t first = 4 + std::stoul(f[3]) + 2;
        auto& list = offsets[p][f[0]];
        for (std::size_t k = 0; k < n_synsets && first + k < f.size(); ++k) list.push_back(std::stoull(f[first + k]));
      }
      std::ifstream exc(dir / (std::string(kPosSuffix[p]) + ".exc"));
      for (std::string line; std::getline(exc, line);) {
        const auto f = split(line);
        if (!f.empty()) exceptions[p][f[0]] = std::vector<std::string>(f.begin() + 1, f.end());
      }
    }
  }

  std::vector<std::string> morphy(const std::string& form, int p) const {
    static const std::vector<std::pair<std::string, std::string>> rules[4] = {
        {{"s", ""}, {"ses", "s"}, {"ves", "f"}, {"xes", "x"}, {"zes", "z"}, {"ches", "ch"}, {"shes", "sh"},
         {"men", "man"}, {"ies", "y"}},
        {{"s", ""}, {"ies", "y"}, {"es", "e"}, {"es", ""}, {"ed", "e"}, {"ed", ""}, {"ing", "e"}, {"ing", ""}},
        {{"er", ""}, {"est", ""}, {"er", "e"}, {"est", "e"}},
        {}};
    auto apply = [&](const std::vector<std::string>& forms) {
      std::vector<std::string> out;
      for (const auto& w : forms) {
        for (const auto& [old_suffix, new_suffix] : rules[p]) {
          if (w.size() >= old_suffix.size() && w.compare(w.size() - old_suffix.size(), old_suffix.size(), old_suffix) == 0) {
            out.push_back(w.substr(0, w.size() - old_suffix.size()) + new_suffix);
          }
        }
      }
      return out;
    };
    auto filter = [&](const std::vector<std::string>& forms) {
      std::vector<std::string> out;
      for (const auto& w : forms) {
        if (offsets[p].count(w) > 0 && std::find(out.begin(), out.end(), w) == out.end()) out.push_back(w);
      }
      return out;
    };
    if (auto it = exceptions[p].find(form); it != exceptions[p].end()) {
      std::vector<std::string> forms{form};
      forms.insert(forms.end(), it->second.begin(), it->second.end());
      return filter(forms);
    }
    auto forms = apply({form});
    std::vector<std::string> first{form};
    first.insert(first.end(), forms.begin(), forms.end());
    if (auto r = filter(first); !r.empty()) return r;
    while (!forms.empty()) {
      forms = apply(forms);
      if (auto r = filter(forms); !r.empty()) return r;
    }
    return {};
  }
};

// Look-up keys: every exception, a sample of lemmas with neighbours that sort
// just before or after them, inflected forms, random strings.
std::vector<std::string> probe_forms(const PlainWordNet& plain) {
  std::vector<std::string> forms = {"", " ", "a", "zzzz", "\x01", "\xff", "dog s", "a\tb", "'s", "-", "0", "1"};
  std::mt19937 rng(20261130);
  for (int p = 0; p < 4; ++p) {
    for (const auto& [form, bases] : plain.exceptions[p]) forms.push_back(form);
    std::size_t k = 0;
    for (const auto& [lemma, offsets] : plain.offsets[p]) {
      if (k++ % 23 != 0) continue;
      forms.push_back(lemma);
      forms.push_back(lemma + "s");
      forms.push_back(lemma + "es");
      forms.push_back(lemma + "ing");
      forms.push_back(lemma + "er");
      forms.push_back(lemma + "!");
      forms.push_back(lemma + "\x7f");
      forms.push_back(lemma.substr(0, lemma.size() - 1));
    }
  }
  const std::string letters = "aeioustrnlcdmhgy-'_.";
  const char* suffixes[] = {"", "s", "es", "ies", "ing", "ed", "er", "est", "men", "ves", "ches"};
  for (int i = 0; i < 3000; ++i) {
    std::string form;
    const int length = 1 + static_cast<int>(rng() % 7);
    for (int c = 0; c < length; ++c) form += letters[rng() % letters.size()];
    form += suffixes[rng() % std::size(suffixes)];
    forms.push_back(form);
  }
  return forms;
}

}  // namespace

TEST_CASE("WordNet: bisected look-ups equal a plain reading of the files", "[wordnet]") {
  const fs::path dir = WordNet::default_dir();
  const WordNet wordnet(dir);
  const PlainWordNet plain(dir);
  const auto forms = probe_forms(plain);
  REQUIRE(forms.size() > 10000);
  std::size_t lemmas_found = 0;
  for (const auto& form : forms) {
    for (int p = 0; p < 4; ++p) {
      const auto pos = static_cast<WordNet::Pos>(p);
      INFO("form '" << form << "' pos " << kPosSuffix[p]);
      REQUIRE(wordnet.morphy(form, pos) == plain.morphy(form, p));
      const auto it = plain.offsets[p].find(form);
      const auto expected = it == plain.offsets[p].end() ? std::vector<std::uint64_t>{} : it->second;
      REQUIRE(wordnet.synset_offsets(form, pos) == expected);
      lemmas_found += expected.empty() ? 0 : 1;
    }
  }
  CHECK(lemmas_found > 5000);
}

TEST_CASE("WordNet: bisection over small hand-made files", "[wordnet]") {
  // Keys that are prefixes of each other, a repeated exception (the last line
  // wins, as in NLTK's dict), a header, and empty files. (A file without a
  // final newline is refused as truncated: corrupt_resources_test.cpp.)
  const fs::path dir = fs::temp_directory_path() / ("evalcli-wordnet-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto write = [&](const std::string& name, const std::string& text) { std::ofstream(dir / name) << text; };
  const std::string header = "  1 This software and database is being provided\n  2 header\n";
  write("index.noun", header +
                          "ab n 1 0 1 0 00000001\n"
                          "abc n 1 0 1 0 00000002\n"
                          "abcd n 2 1 @ 2 0 00000003 00000004\n"
                          "b n 1 0 1 0 00000005\n");
  write("index.verb", "");
  write("index.adj", header);
  write("index.adv", "z r 1 0 1 0 00000009\n");
  write("data.noun", "");
  write("data.verb", "");
  write("data.adj", "  1 WordNet 3.0 Copyright 2006 by Princeton University.\n");
  write("data.adv", "");
  write("noun.exc", "abces abc\nabces ab\nbs b\n");
  write("verb.exc", "");
  write("adj.exc", "");
  write("adv.exc", "");
  {
    const WordNet wordnet(dir);
    using P = WordNet::Pos;
    CHECK(wordnet.synset_offsets("ab", P::noun) == std::vector<std::uint64_t>{1});
    CHECK(wordnet.synset_offsets("abc", P::noun) == std::vector<std::uint64_t>{2});
    CHECK(wordnet.synset_offsets("abcd", P::noun) == std::vector<std::uint64_t>{3, 4});
    CHECK(wordnet.synset_offsets("b", P::noun) == std::vector<std::uint64_t>{5});
    CHECK(wordnet.synset_offsets("a", P::noun).empty());
    CHECK(wordnet.synset_offsets("abcde", P::noun).empty());
    CHECK(wordnet.synset_offsets("c", P::noun).empty());
    CHECK(wordnet.synset_offsets("", P::noun).empty());
    CHECK(wordnet.synset_offsets("ab", P::verb).empty());
    CHECK(wordnet.synset_offsets("1", P::adj).empty());
    CHECK(wordnet.synset_offsets("z", P::adv) == std::vector<std::uint64_t>{9});
    CHECK(wordnet.morphy("abces", P::noun) == std::vector<std::string>{"ab"});  // last exception line
    CHECK(wordnet.morphy("bs", P::noun) == std::vector<std::string>{"b"});
    CHECK(wordnet.morphy("abcs", P::noun) == std::vector<std::string>{"abc"});
  }
  fs::remove_all(dir);
}
