// METEOR 1.5's Snowball stemmers on libstemmer 2.2 (meteor15_internal.hpp).
// The differences were found by stemming WMT22 vocabularies and 200,000
// random words per language with the jar's classes and with libstemmer.
#include <libstemmer.h>

#include <algorithm>

#include "evalcli/core/error.hpp"
#include "evalcli/text/utf8.hpp"
#include "meteor15_internal.hpp"

namespace evalcli::meteor15 {
namespace {

// Stand-ins for inert letters: noncharacters, outside every Snowball grouping
// and suffix, so libstemmer treats them as the jar's classes treat the letters.
constexpr char32_t kFirstStandIn = 0xFDD0;

std::u32string inert_letters_of(const std::string& algorithm) {
  if (algorithm == "russian") return U"ё";   // Snowball 2 folds it into е first
  if (algorithm == "hungarian") return U"őű";  // the jar's class has õ û (a Latin-2 mix-up) in their place
  return U"";
}

// Snowball 2's German step 1 deletes the s of -niss left after removing
// -e/-en/-es ("ergebnisse" -> "ergebnis"); the jar's class keeps "ergebniss".
// A German stem is the word's prefix position by position (umlauts lose their
// dots, ß is ss from the start), so the deleted letters can be read off the word.
bool german_niss_cut(const std::u32string& word, const std::u32string& stem) {
  if (stem.size() < 3 || stem.compare(stem.size() - 3, 3, U"nis") != 0) return false;
  std::u32string prepared;
  for (char32_t c : word) {
    if (c == U'ß') {
      prepared += U"ss";
    } else {
      prepared += c;
    }
  }
  if (prepared.size() < stem.size() + 2 || prepared[stem.size()] != U's') return false;
  const std::u32string_view rest = std::u32string_view(prepared).substr(stem.size() + 1);
  return rest == U"e" || rest == U"en" || rest == U"es";
}

}  // namespace

JarStemmer::JarStemmer(const std::string& algorithm)
    : stemmer_(sb_stemmer_new(algorithm.c_str(), "UTF_8")),
      algorithm_(algorithm),
      inert_letters_(inert_letters_of(algorithm)) {
  if (stemmer_ == nullptr) throw Error(ExitCode::internal, "libstemmer has no algorithm " + algorithm);
}

JarStemmer::~JarStemmer() { sb_stemmer_delete(stemmer_); }

std::u32string JarStemmer::stem(std::u32string_view word) const {
  std::u32string input(word);
  bool substituted = false;
  // A word that already holds a stand-in is stemmed as it is (the mapping back would be ambiguous).
  const bool has_stand_in = std::any_of(input.begin(), input.end(), [&](char32_t c) {
    return c >= kFirstStandIn && c < kFirstStandIn + inert_letters_.size();
  });
  if (!has_stand_in) {
    for (char32_t& c : input) {
      const auto at = inert_letters_.find(c);
      if (at != std::u32string::npos) {
        c = kFirstStandIn + static_cast<char32_t>(at);
        substituted = true;
      }
    }
  }
  const std::string bytes = utf8::encode(input);
  const sb_symbol* stemmed = sb_stemmer_stem(stemmer_, reinterpret_cast<const sb_symbol*>(bytes.data()),
                                             static_cast<int>(bytes.size()));
  std::u32string out;
  utf8::decode(std::string_view(reinterpret_cast<const char*>(stemmed), static_cast<std::size_t>(sb_stemmer_length(stemmer_))),
               out);
  if (substituted) {
    for (char32_t& c : out) {
      if (c >= kFirstStandIn && c < kFirstStandIn + inert_letters_.size()) c = inert_letters_[c - kFirstStandIn];
    }
  }
  if (algorithm_ == "german" && german_niss_cut(std::u32string(word), out)) out += U's';
  return out;
}

}  // namespace evalcli::meteor15
