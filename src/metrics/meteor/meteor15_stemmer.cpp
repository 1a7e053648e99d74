// METEOR 1.5's Snowball stemmers on libstemmer 2.2 (meteor15_internal.hpp).
// The differences were found by stemming WMT22 vocabularies and 200,000
// random words per language with the jar's classes and with libstemmer
// (tests/data/make_meteor15_languages.py --random-words).
#include <libstemmer.h>

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <utility>

#include "evalcli/core/error.hpp"
#include "evalcli/text/utf8.hpp"
#include "meteor15_internal.hpp"

namespace evalcli::meteor15 {
namespace {

// Stand-ins for inert letters: noncharacters, outside every Snowball grouping
// and suffix, so libstemmer treats them as the jar's classes treat the letters.
// The 32 of U+FDD0..U+FDEF stand for inert letters and for UTF-16 surrogates.
constexpr char32_t kFirstStandIn = 0xFDD0;
constexpr std::size_t kStandIns = 32;

std::u32string inert_letters_of(const std::string& algorithm) {
  if (algorithm == "russian") return U"ё";   // Snowball 2 folds it into е first
  if (algorithm == "hungarian") return U"őű";  // the jar's class has õ û (a Latin-2 mix-up) in their place: see stem()
  if (algorithm == "french") return U"H";  // Snowball 2 marks ë ï as He Hi and deletes a lone H at the end
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

// French. The jar's class treats ë and ï as vowels in no suffix, except that
// residual_suffix deletes a final ë after "gu" when the g is in RV. Snowball 2
// rewrites them as He/Hi and so deletes every final ë in RV ("aiguë": jar
// "aiguë", libstemmer "aigu"). They are stemmed as ô, a vowel in no Snowball 2
// French suffix either, and put back by position: French keeps every letter
// in no suffix where it was (suffixes are replaced at the end only).
constexpr char32_t kFrenchInertVowel = U'ô';

bool is_french_vowel(char32_t c) { return std::u32string_view(U"aeiouyâàëéêèïîôûù").find(c) != std::u32string_view::npos; }

// The jar's French prelude: u, i between vowels and y next to a vowel become
// U I Y (consonants), as does the u of qu.
std::u32string french_prelude(std::u32string w) {
  std::size_t from = 0;
  for (;;) {
    std::size_t p = from;
    for (; p < w.size(); ++p) {
      const bool vowel_next = p + 1 < w.size();
      if (is_french_vowel(w[p]) && vowel_next) {
        const char32_t c = w[p + 1];
        const bool vowel_after = p + 2 < w.size() && is_french_vowel(w[p + 2]);
        if ((c == U'u' || c == U'i') && vowel_after) {
          w[p + 1] = c == U'u' ? U'U' : U'I';
          break;
        }
        if (c == U'y') {
          w[p + 1] = U'Y';
          break;
        }
      }
      if (w[p] == U'y' && vowel_next && is_french_vowel(w[p + 1])) {
        w[p] = U'Y';
        break;
      }
      if (w[p] == U'q' && vowel_next && w[p + 1] == U'u') {
        w[p + 1] = U'U';
        break;
      }
    }
    if (p == w.size()) return w;
    from = p;  // Snowball's goto leaves the cursor where the match began
  }
}

// The start of RV in the jar's French mark_regions.
std::size_t french_rv(const std::u32string& word) {
  const std::u32string w = french_prelude(word);
  if (w.size() >= 3 && is_french_vowel(w[0]) && is_french_vowel(w[1])) return 3;
  for (const auto* prefix : {U"par", U"col", U"tap"}) {
    if (w.compare(0, 3, prefix) == 0) return 3;
  }
  for (std::size_t i = 1; i < w.size(); ++i) {
    if (is_french_vowel(w[i])) return i + 1;
  }
  return w.size();
}

// "-guë" loses its ë when the g is in RV (the jar's residual_suffix; no other
// step can touch a word that ends in a vowel of no suffix).
bool french_gu_rule(const std::u32string& word) {
  const std::size_t n = word.size();
  return n >= 3 && word.compare(n - 3, 3, U"guë") == 0 && n - 3 >= french_rv(word);
}

// Dutch. Snowball 2's "R1 starts at 3 at least" compares a byte offset in
// UTF-8 (3 bytes: "uœe" keeps its R1 at the e); the jar counts Java chars.
// Dutch is therefore stemmed in ISO-8859-1, where the two agree; characters
// outside Latin-1 (and the C1 controls) are stemmed as Latin-1 characters the
// algorithm does not know and that the word lacks, one per UTF-16 unit as
// Java counts them, and mapped back.
bool dutch_letter(char32_t c) { return std::u32string_view(U"äáëéïíöóüúè").find(c) != std::u32string_view::npos; }

std::u16string utf16_of(std::u32string_view word) {
  std::u16string out;
  for (char32_t c : word) {
    if (c >= 0x10000) {
      out += static_cast<char16_t>(0xD800 + ((c - 0x10000) >> 10));
      out += static_cast<char16_t>(0xDC00 + ((c - 0x10000) & 0x3FF));
    } else {
      out += static_cast<char16_t>(c);
    }
  }
  return out;
}

std::u32string from_utf16(std::u16string_view units) {
  std::u32string out;
  for (std::size_t i = 0; i < units.size(); ++i) {
    const char32_t u = units[i];
    if (u >= 0xD800 && u < 0xDC00 && i + 1 < units.size() && units[i + 1] >= 0xDC00 && units[i + 1] < 0xE000) {
      out += 0x10000 + ((u - 0xD800) << 10) + (units[i + 1] - 0xDC00);
      ++i;
    } else {
      out += u;
    }
  }
  return out;
}

// The Latin-1 bytes of `word` with stand-ins, and the unit each stand-in is;
// nullopt when the word has more foreign units than there are free stand-ins.
std::optional<std::pair<std::string, std::u16string>> latin1_with_stand_ins(std::u32string_view word) {
  const std::u16string units = utf16_of(word);
  const auto is_latin1 = [](char16_t u) { return u < 0x80 || (u >= 0xA0 && u <= 0xFF); };
  std::u16string stand_in_of(0x100, u'\0');  // Latin-1 code -> the unit it stands for
  std::string bytes;
  char16_t next_free = 0x80;
  for (char16_t u : units) {
    if (is_latin1(u)) {
      bytes += static_cast<char>(u);
      continue;
    }
    const auto known = std::find(stand_in_of.begin() + 0x80, stand_in_of.end(), u);
    char16_t code = static_cast<char16_t>(known - stand_in_of.begin());
    if (known == stand_in_of.end()) {
      while (next_free <= 0xFF && (dutch_letter(next_free) || units.find(next_free) != std::u16string::npos)) ++next_free;
      if (next_free > 0xFF) return std::nullopt;
      code = next_free++;
      stand_in_of[code] = u;
    }
    bytes += static_cast<char>(code);
  }
  return std::make_pair(bytes, stand_in_of);
}

// Finnish as the jar's finnishStemmer runs it, written out in full: libstemmer
// 2.2 cannot be steered into it. Snowball 2's Finnish differs in two ways:
// (1) "consonant" is the 20 ASCII consonants where the jar's class says "not a
// vowel" (so digits, capitals and other letters count as consonants there:
// "2000" -> "200"); (2) the jar's Among routines run on a static stemmer
// object rather than the word (org.tartarus.snowball.Among's methodObject), so
// the case endings -den, -tten, -siin, -seen (whose conditions are routines)
// never match and the word falls back to the ending -n.
// It works on UTF-16 units, as Java counts a word. The steps and their names
// follow the algorithm at snowballstem.org.
class FinnishJarStemmer {
 public:
  explicit FinnishJarStemmer(std::u16string word) : s_(std::move(word)) {}

  std::u16string run() {
    mark_regions();
    at_end([&] { return particle_etc(); });
    at_end([&] { return possessive(); });
    at_end([&] { return case_ending(); });
    at_end([&] { return other_endings(); });
    if (ending_removed_) {
      at_end([&] { return i_plural(); });
    } else {
      at_end([&] { return t_plural(); });
    }
    at_end([&] { return tidy(); });
    return s_;
  }

 private:
  static bool is_v1(char16_t c) { return std::u16string_view(u"aeiouyäö").find(c) != std::u16string_view::npos; }
  static bool is_v2(char16_t c) { return std::u16string_view(u"aeiouäö").find(c) != std::u16string_view::npos; }
  static bool is_aei(char16_t c) { return std::u16string_view(u"aäei").find(c) != std::u16string_view::npos; }
  static bool is_particle_end(char16_t c) { return is_v1(c) || c == u'n' || c == u't'; }
  static bool is_consonant(char16_t c) { return !is_v1(c); }  // the jar's non-V1

  void mark_regions() {
    p1_ = p2_ = s_.size();
    const auto after_vowel_consonant = [&](std::size_t from) -> std::size_t {
      std::size_t i = from;
      while (i < s_.size() && !is_v1(s_[i])) ++i;  // goto V1
      while (i < s_.size() && is_v1(s_[i])) ++i;   // gopast non-V1
      return i < s_.size() ? i + 1 : std::u16string::npos;
    };
    const std::size_t p1 = after_vowel_consonant(0);
    if (p1 == std::u16string::npos) return;
    p1_ = p1;
    const std::size_t p2 = after_vowel_consonant(p1);
    if (p2 != std::u16string::npos) p2_ = p2;
  }

  // Each step starts at the word's end (Snowball's `do`).
  template <class Step>
  void at_end(Step step) {
    c_ = s_.size();
    step();
  }

  bool ends_with_at(std::size_t end, std::u16string_view suffix, std::size_t floor) const {
    return end >= floor + suffix.size() && std::u16string_view(s_).substr(end - suffix.size(), suffix.size()) == suffix;
  }
  // The longest of `suffixes` ending at the cursor and starting at or after `floor`; sets bra_/ket_.
  int find_suffix(std::initializer_list<std::u16string_view> suffixes, std::size_t floor) {
    int best = -1;
    std::size_t best_size = 0;
    int index = 0;
    for (auto suffix : suffixes) {
      if ((best < 0 || suffix.size() > best_size) && ends_with_at(c_, suffix, floor)) {
        best = index;
        best_size = suffix.size();
      }
      ++index;
    }
    if (best >= 0) {
      ket_ = c_;
      bra_ = c_ - best_size;
      c_ = bra_;
    }
    return best;
  }
  bool char_before(std::size_t at, bool (*test)(char16_t)) const { return at > 0 && test(s_[at - 1]); }
  void delete_slice() {
    s_.erase(bra_, ket_ - bra_);
    c_ = bra_;
  }

  bool particle_etc() {
    if (c_ < p1_) return false;
    const int found = find_suffix({u"kin", u"kaan", u"kään", u"ko", u"kö", u"han", u"hän", u"pa", u"pä", u"sti"}, p1_);
    if (found < 0) return false;
    if (found == 9 ? c_ < p2_ : !char_before(c_, is_particle_end)) return false;
    delete_slice();
    return true;
  }

  bool possessive() {
    if (c_ < p1_) return false;
    const int found = find_suffix({u"si", u"ni", u"nsa", u"nsä", u"mme", u"nne", u"an", u"än", u"en"}, p1_);
    switch (found) {
      case 0:  // si, but not ksi (the comitative case)
        if (c_ > 0 && s_[c_ - 1] == u'k') return false;
        delete_slice();
        return true;
      case 1:  // ni; kseni = ksi + ni
        delete_slice();
        if (ends_with_at(c_, u"kse", 0)) s_.replace(c_ - 3, 3, u"ksi");
        return true;
      case 2: case 3: case 4: case 5:
        delete_slice();
        return true;
      case 6: return delete_if_after({u"ta", u"ssa", u"sta", u"lla", u"lta", u"na"});
      case 7: return delete_if_after({u"tä", u"ssä", u"stä", u"llä", u"ltä", u"nä"});
      case 8: return delete_if_after({u"lle", u"ine"});
      default: return false;
    }
  }
  bool delete_if_after(std::initializer_list<std::u16string_view> before) {
    for (auto b : before) {
      if (ends_with_at(c_, b, 0)) {
        delete_slice();
        return true;
      }
    }
    return false;
  }

  bool is_long_before(std::size_t at) const {
    for (auto pair : {u"aa", u"ee", u"ii", u"oo", u"uu", u"ää", u"öö"}) {
      if (ends_with_at(at, pair, 0)) return true;
    }
    return false;
  }

  bool case_ending() {
    if (c_ < p1_) return false;
    // Without -den -tten -siin -seen (see the class comment).
    const int found = find_suffix({u"han", u"hen", u"hin", u"hon", u"hän", u"hön", u"n", u"a", u"ä", u"tta", u"ttä",
                                   u"ta", u"tä", u"ssa", u"ssä", u"sta", u"stä", u"lla", u"llä", u"lta", u"ltä",
                                   u"lle", u"na", u"nä", u"ksi", u"ine"},
                                  p1_);
    if (found < 0) return false;
    if (found <= 5) {  // illative: the vowel again before -hVn
      static constexpr char16_t kVowels[] = {u'a', u'e', u'i', u'o', u'ä', u'ö'};
      if (!(c_ > 0 && s_[c_ - 1] == kVowels[found])) return false;
    } else if (found == 6) {  // -n: a long vowel or -ie before it goes too
      if ((is_long_before(c_) || ends_with_at(c_, u"ie", 0)) && c_ > 0) bra_ = c_ - 1;
    } else if (found == 7 || found == 8) {  // partitive -a/-ä after vowel + consonant
      if (!(char_before(c_, is_v1) && char_before(c_ - 1, is_consonant))) return false;
    } else if (found == 9 || found == 10) {  // -tta/-ttä after e
      if (!(c_ > 0 && s_[c_ - 1] == u'e')) return false;
    }
    delete_slice();
    ending_removed_ = true;
    return true;
  }

  bool other_endings() {
    if (c_ < p2_) return false;
    const int found = find_suffix({u"mpi", u"mpa", u"mpä", u"mmi", u"mma", u"mmä", u"impi", u"impa", u"impä", u"immi",
                                   u"imma", u"immä", u"eja", u"ejä"},
                                  p2_);
    if (found < 0) return false;
    if (found <= 5 && ends_with_at(c_, u"po", 0)) return false;
    delete_slice();
    return true;
  }

  bool i_plural() {
    if (c_ < p1_) return false;
    if (find_suffix({u"i", u"j"}, p1_) < 0) return false;
    delete_slice();
    return true;
  }

  bool t_plural() {
    if (c_ < p1_) return false;
    if (!(ends_with_at(c_, u"t", p1_) && c_ - 1 > p1_ && is_v1(s_[c_ - 2]))) return false;
    ket_ = c_;
    bra_ = c_ - 1;
    delete_slice();
    c_ = s_.size();
    if (c_ < p2_) return false;
    const int found = find_suffix({u"mma", u"imma"}, p2_);
    if (found < 0) return false;
    if (found == 0 && ends_with_at(c_, u"po", 0)) return false;
    delete_slice();
    return true;
  }

  bool tidy() {
    if (c_ < p1_) return false;
    const std::size_t floor = p1_;
    if (is_long_before(s_.size()) && s_.size() >= floor + 2) s_.pop_back();  // undouble a vowel
    std::size_t end = s_.size();
    if (end >= floor + 2 && is_aei(s_[end - 1]) && is_consonant(s_[end - 2])) s_.pop_back();  // trailing a ä e i
    end = s_.size();
    if (end >= floor + 2 && s_[end - 1] == u'j' && (s_[end - 2] == u'o' || s_[end - 2] == u'u')) s_.pop_back();
    end = s_.size();
    if (end >= floor + 2 && s_[end - 1] == u'o' && s_[end - 2] == u'j') s_.pop_back();
    // Undouble a consonant: the last non-vowel, if the letter before it is the same.
    std::size_t at = s_.size();
    while (at > 0 && !is_consonant(s_[at - 1])) --at;
    if (at >= 2 && s_[at - 2] == s_[at - 1]) s_.erase(at - 1, 1);
    return true;
  }

  std::u16string s_;
  std::size_t p1_ = 0, p2_ = 0, c_ = 0, bra_ = 0, ket_ = 0;
  bool ending_removed_ = false;
};
// Danish. The jar's undouble step removes the last of two equal final letters
// that are not vowels, in R1; Snowball 2's only of two equal ASCII consonants
// (so the jar stems "ãã" "ßß" "00" to one, libstemmer keeps both). Undouble is
// the last step, so the jar's is done here on what libstemmer left.
bool is_danish_vowel(char32_t c) { return std::u32string_view(U"aeiouyæåø").find(c) != std::u32string_view::npos; }

void danish_undouble(const std::u32string& word, std::u32string& stem) {
  // R1 as the jar's mark_regions: after the first non-vowel that follows a vowel, at 3 at least.
  std::size_t p1 = word.size();
  if (word.size() >= 3) {
    std::size_t i = 0;
    while (i < word.size() && !is_danish_vowel(word[i])) ++i;
    while (i < word.size() && is_danish_vowel(word[i])) ++i;
    if (i < word.size()) p1 = std::max<std::size_t>(i + 1, 3);
  }
  const std::size_t n = stem.size();
  if (n < 2 || n - 1 < p1 || stem[n - 1] != stem[n - 2] || is_danish_vowel(stem[n - 1])) return;
  if (std::u32string_view(U"bcdfghjklmnpqrstvwxz").find(stem[n - 1]) != std::u32string_view::npos) return;  // libstemmer's
  stem.pop_back();
}

// Portuguese. The jar's class has Spanish suffixes where Snowball 2 has
// Portuguese ones (snowball commit f0b6a66): -logía(s) and -ución/-uciones
// (R2: to -log, -u) instead of -logia(s) and -ução/-uções. A word ending in
// the Portuguese ones is stemmed with their l or ç hidden (a noncharacter,
// put back by position: Portuguese replaces suffixes at the end only), one
// ending in the Spanish ones with its ending spelt the Portuguese way when the
// suffix is in R2 (the same replacement follows; outside R2 neither matches).
constexpr char32_t kHiddenLetter = 0xFFFF;

bool ends_with(const std::u32string& s, std::u32string_view suffix) {
  return s.size() >= suffix.size() && std::u32string_view(s).substr(s.size() - suffix.size()) == suffix;
}

// R2's start in the jar's Portuguese, on the word as its prelude leaves it (ã õ as a~ o~).
std::size_t portuguese_r2(const std::u32string& units) {
  std::u32string w;
  for (char32_t c : units) {
    if (c == U'ã' || c == U'õ') {
      w += c == U'ã' ? U'a' : U'o';
      w += U'~';
    } else {
      w += c;
    }
  }
  const auto vowel = [](char32_t c) { return std::u32string_view(U"aeiouáéíóúâêô").find(c) != std::u32string_view::npos; };
  std::size_t p = 0;
  for (int region = 0; region < 2; ++region) {
    while (p < w.size() && !vowel(w[p])) ++p;
    while (p < w.size() && vowel(w[p])) ++p;
    if (p == w.size()) return w.size();
    ++p;
  }
  return p;
}

// Rewrites `units` (a word without kHiddenLetter) for libstemmer 2.2 as above.
void portuguese_suffixes(std::u32string& units) {
  for (const auto& [jar, snowball2] : {std::pair{U"logía", U"logia"}, std::pair{U"logías", U"logias"},
                                       std::pair{U"ución", U"ução"}, std::pair{U"uciones", U"uções"}}) {
    const std::u32string_view from(jar);
    const auto tildes = static_cast<std::size_t>(std::count_if(units.begin(), units.end(), [](char32_t c) { return c == U'ã' || c == U'õ'; }));
    if (ends_with(units, from) && units.size() + tildes - from.size() >= portuguese_r2(units)) {
      units.replace(units.size() - from.size(), from.size(), snowball2);
      return;
    }
  }
  for (const auto* ending : {U"logia", U"logias", U"ução", U"uções"}) {
    if (ends_with(units, ending)) units[units.size() - std::u32string_view(ending).size() + 1] = kHiddenLetter;
  }
}

}  // namespace

JarStemmer::JarStemmer(const std::string& algorithm)
    : stemmer_(sb_stemmer_new(algorithm.c_str(), algorithm == "dutch" ? "ISO_8859_1" : "UTF_8")),
      algorithm_(algorithm),
      inert_letters_(inert_letters_of(algorithm)) {
  if (stemmer_ == nullptr) throw Error(ExitCode::internal, "libstemmer has no algorithm " + algorithm);
}

JarStemmer::~JarStemmer() { sb_stemmer_delete(stemmer_); }

std::u32string JarStemmer::stem(std::u32string_view word) const {
  if (algorithm_ == "finnish") return from_utf16(FinnishJarStemmer(utf16_of(word)).run());
  if (algorithm_ == "dutch") {
    if (auto latin1 = latin1_with_stand_ins(word)) {
      const auto& [bytes, stand_in_of] = *latin1;
      const sb_symbol* stemmed = sb_stemmer_stem(stemmer_, reinterpret_cast<const sb_symbol*>(bytes.data()),
                                                 static_cast<int>(bytes.size()));
      std::u16string units;
      for (int i = 0; i < sb_stemmer_length(stemmer_); ++i) {
        const unsigned char b = stemmed[i];
        units += stand_in_of[b] != u'\0' ? stand_in_of[b] : static_cast<char16_t>(b);
      }
      return from_utf16(units);
    }
    // More foreign characters than free stand-ins: UTF-8, whose R1 may start early.
    const std::string bytes = utf8::encode(word);
    struct sb_stemmer* utf8_stemmer = sb_stemmer_new("dutch", "UTF_8");
    const sb_symbol* stemmed = sb_stemmer_stem(utf8_stemmer, reinterpret_cast<const sb_symbol*>(bytes.data()),
                                               static_cast<int>(bytes.size()));
    std::u32string out;
    utf8::decode(std::string_view(reinterpret_cast<const char*>(stemmed), static_cast<std::size_t>(sb_stemmer_length(utf8_stemmer))),
                 out);
    sb_stemmer_delete(utf8_stemmer);
    return out;
  }
  // Java counts a character outside the BMP as two chars (regions, "at least
  // 3 letters"): such characters are stemmed as two stand-ins, one per UTF-16 unit.
  const std::u16string utf16 = utf16_of(word);
  std::u32string units(utf16.begin(), utf16.end());
  std::u32string input = units;
  std::u32string stand_in_of;  // stand-in kFirstStandIn + i -> the letter or unit it replaces
  // A word that already holds a stand-in is stemmed as it is (the mapping back would be ambiguous).
  const bool has_stand_in = std::any_of(input.begin(), input.end(), [&](char32_t c) {
    return c >= kFirstStandIn && c < kFirstStandIn + kStandIns;
  });
  if (!has_stand_in) {
    stand_in_of = inert_letters_;
    for (char32_t& c : input) {
      if (!(inert_letters_.find(c) != std::u32string::npos || (c >= 0xD800 && c < 0xE000))) continue;
      auto at = stand_in_of.find(c);
      if (at == std::u32string::npos) {
        if (stand_in_of.size() == kStandIns) break;  // out of stand-ins: the rest stays as it is
        at = stand_in_of.size();
        stand_in_of += c;
      }
      c = kFirstStandIn + static_cast<char32_t>(at);
    }
  }
  // The jar's Hungarian class is Snowball 2's with õ û in place of ő ű (which
  // it sees as inert, above): õ û are stemmed as ő ű and put back.
  const bool hungarian = algorithm_ == "hungarian" && !has_stand_in;
  if (hungarian) std::replace(input.begin(), input.end(), U'õ', U'ő'), std::replace(input.begin(), input.end(), U'û', U'ű');
  const bool portuguese = algorithm_ == "portuguese" && input.find(kHiddenLetter) == std::u32string::npos;
  if (portuguese) portuguese_suffixes(input);
  const bool french = algorithm_ == "french";
  if (french) {
    for (char32_t& c : input) {
      if (c == U'ë' || c == U'ï') c = kFrenchInertVowel;
    }
  }
  const std::string bytes = utf8::encode(input);
  const sb_symbol* stemmed = sb_stemmer_stem(stemmer_, reinterpret_cast<const sb_symbol*>(bytes.data()),
                                             static_cast<int>(bytes.size()));
  std::u32string stemmed_units;
  utf8::decode(std::string_view(reinterpret_cast<const char*>(stemmed), static_cast<std::size_t>(sb_stemmer_length(stemmer_))),
               stemmed_units);
  if (hungarian) {
    std::replace(stemmed_units.begin(), stemmed_units.end(), U'ő', U'õ');
    std::replace(stemmed_units.begin(), stemmed_units.end(), U'ű', U'û');
  }
  for (char32_t& c : stemmed_units) {
    if (c >= kFirstStandIn && c < kFirstStandIn + stand_in_of.size()) c = stand_in_of[c - kFirstStandIn];
  }
  if (algorithm_ == "danish") danish_undouble(units, stemmed_units);
  if (portuguese) {
    for (std::size_t i = 0; i < stemmed_units.size() && i < units.size(); ++i) {
      if (stemmed_units[i] == kHiddenLetter) stemmed_units[i] = units[i];
    }
  }
  if (french) {
    for (std::size_t i = 0; i < stemmed_units.size() && i < units.size(); ++i) {
      if (stemmed_units[i] == kFrenchInertVowel) stemmed_units[i] = units[i];
    }
    if (stemmed_units.size() == units.size() && french_gu_rule(units)) stemmed_units.pop_back();
  }
  std::u32string out = from_utf16(std::u16string(stemmed_units.begin(), stemmed_units.end()));
  if (algorithm_ == "german" && german_niss_cut(std::u32string(word), out)) out += U's';
  return out;
}

}  // namespace evalcli::meteor15
