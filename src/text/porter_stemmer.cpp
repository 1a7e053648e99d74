// Porter stemmer, NLTK 3.8 NLTK_EXTENSIONS and ROUGE-1.5.5 Perl variants.
// Written from the published algorithm and the two tools' documented
// departures from it (docs/rouge.md "Stemmers"); verified against the
// 44,110-token stem table in shared/golden/rouge.
#include "evalcli/text/porter_stemmer.hpp"

#include <array>
#include <span>
#include <utility>

#include "evalcli/text/unicode.hpp"
#include "evalcli/text/utf8.hpp"

namespace evalcli::text {
namespace {

using Word = std::u32string;
using WordView = std::u32string_view;

constexpr bool is_vowel_letter(char32_t c) { return c == U'a' || c == U'e' || c == U'i' || c == U'o' || c == U'u'; }

// Porter's consonant: not a, e, i, o, u, and not a y that follows a consonant.
// A leading y is a consonant (ROUGE's Perl port gets the same by uppercasing it).
bool is_consonant(WordView w, std::size_t i) {
  if (is_vowel_letter(w[i])) return false;
  if (w[i] != U'y') return true;
  return i == 0 || !is_consonant(w, i - 1);
}

// m in [C](VC)^m[V]: the number of vowel->consonant transitions.
int measure(WordView w) {
  int m = 0;
  bool previous_vowel = false;
  for (std::size_t i = 0; i < w.size(); ++i) {
    const bool consonant = is_consonant(w, i);
    if (consonant && previous_vowel) ++m;
    previous_vowel = !consonant;
  }
  return m;
}

bool contains_vowel(WordView w) {
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (!is_consonant(w, i)) return true;
  }
  return false;
}

bool ends_with(WordView w, std::u32string_view suffix) {
  return w.size() >= suffix.size() && w.substr(w.size() - suffix.size()) == suffix;
}

WordView drop(WordView w, std::size_t n) { return w.substr(0, w.size() - n); }

bool ends_double_consonant(WordView w) {
  return w.size() >= 2 && w[w.size() - 1] == w[w.size() - 2] && is_consonant(w, w.size() - 1);
}

// Condition *o: the word ends consonant-vowel-consonant, the last not w, x, y.
bool ends_cvc(WordView w) {
  const std::size_t n = w.size();
  return n >= 3 && is_consonant(w, n - 3) && !is_consonant(w, n - 2) && is_consonant(w, n - 1) &&
         w[n - 1] != U'w' && w[n - 1] != U'x' && w[n - 1] != U'y';
}

struct Rule {
  std::u32string_view suffix;
  std::u32string_view replacement;
};

// ---------------------------------------------------------------- NLTK 3.8

// NLTK's irregular forms, consulted (exact word) before the algorithm.
std::u32string_view nltk_irregular(WordView w) {
  static constexpr std::array<std::pair<std::u32string_view, std::u32string_view>, 17> forms{{
      {U"sky", U"sky"},         {U"skies", U"sky"},       {U"dying", U"die"},
      {U"lying", U"lie"},       {U"tying", U"tie"},       {U"news", U"news"},
      {U"innings", U"inning"},  {U"inning", U"inning"},   {U"outings", U"outing"},
      {U"outing", U"outing"},   {U"cannings", U"canning"}, {U"canning", U"canning"},
      {U"howe", U"howe"},       {U"proceed", U"proceed"}, {U"exceed", U"exceed"},
      {U"succeed", U"succeed"},
  }};
  for (const auto& [form, base] : forms) {
    if (form == w) return base;
  }
  return {};
}

// NLTK's nltk_ext cvc: also true for a 2-letter vowel+consonant word.
bool nltk_ends_cvc(WordView w) {
  return ends_cvc(w) || (w.size() == 2 && !is_consonant(w, 0) && is_consonant(w, 1));
}

Word nltk_step1a(Word w) {
  if (w.size() == 4 && ends_with(w, U"ies")) return Word(drop(w, 3)) + U"ie";
  if (ends_with(w, U"sses")) return Word(drop(w, 2));
  if (ends_with(w, U"ies")) return Word(drop(w, 2));
  if (ends_with(w, U"ss")) return w;
  if (ends_with(w, U"s")) return Word(drop(w, 1));
  return w;
}

Word nltk_step1b(Word w) {
  if (ends_with(w, U"ied")) return Word(drop(w, 3)) + (w.size() == 4 ? U"ie" : U"i");
  if (ends_with(w, U"eed")) {
    const WordView stem = drop(w, 3);
    return measure(stem) > 0 ? Word(stem) + U"ee" : w;
  }
  Word stem;
  bool removed = false;
  for (std::u32string_view suffix : {std::u32string_view(U"ed"), std::u32string_view(U"ing")}) {
    if (ends_with(w, suffix)) {
      stem = Word(drop(w, suffix.size()));
      if (contains_vowel(stem)) {
        removed = true;
        break;
      }
    }
  }
  if (!removed) return w;
  if (ends_with(stem, U"at") || ends_with(stem, U"bl") || ends_with(stem, U"iz")) return stem + U"e";
  if (ends_double_consonant(stem)) {
    const char32_t last = stem.back();
    return (last == U'l' || last == U's' || last == U'z') ? stem : Word(drop(stem, 1));
  }
  if (measure(stem) == 1 && nltk_ends_cvc(stem)) return stem + U"e";
  return stem;
}

Word nltk_step1c(Word w) {
  if (!ends_with(w, U"y")) return w;
  const WordView stem = drop(w, 1);
  if (stem.size() > 1 && is_consonant(stem, stem.size() - 1)) return Word(stem) + U"i";
  return w;
}

// First rule (in list order) whose suffix matches decides; m>0 on the stem.
Word apply_first_rule_m0(Word w, std::span<const Rule> rules) {
  for (const Rule& rule : rules) {
    if (!ends_with(w, rule.suffix)) continue;
    const WordView stem = drop(w, rule.suffix.size());
    return measure(stem) > 0 ? Word(stem) + Word(rule.replacement) : w;
  }
  return w;
}

Word nltk_step2(Word w) {
  if (ends_with(w, U"alli") && measure(drop(w, 4)) > 0) return nltk_step2(Word(drop(w, 4)) + U"al");
  static constexpr Rule rules[] = {
      {U"ational", U"ate"}, {U"tional", U"tion"}, {U"enci", U"ence"},   {U"anci", U"ance"},
      {U"izer", U"ize"},    {U"bli", U"ble"},     {U"alli", U"al"},     {U"entli", U"ent"},
      {U"eli", U"e"},       {U"ousli", U"ous"},   {U"ization", U"ize"}, {U"ation", U"ate"},
      {U"ator", U"ate"},    {U"alism", U"al"},    {U"iveness", U"ive"}, {U"fulness", U"ful"},
      {U"ousness", U"ous"}, {U"aliti", U"al"},    {U"iviti", U"ive"},   {U"biliti", U"ble"},
      {U"fulli", U"ful"},
  };
  for (const Rule& rule : rules) {
    if (ends_with(w, rule.suffix)) return apply_first_rule_m0(w, std::span<const Rule>(&rule, 1));
  }
  // 'logi' -> 'log' with the 'l' counted in the stem (geo-logi, theo-logi).
  if (ends_with(w, U"logi")) return measure(drop(w, 3)) > 0 ? Word(drop(w, 1)) : w;
  return w;
}

constexpr Rule kStep3Rules[] = {
    {U"icate", U"ic"}, {U"ative", U""}, {U"alize", U"al"}, {U"iciti", U"ic"},
    {U"ical", U"ic"},  {U"ful", U""},   {U"ness", U""},
};

Word nltk_step4(Word w) {
  static constexpr std::u32string_view suffixes[] = {
      U"al",   U"ance", U"ence", U"er",  U"ic",  U"able", U"ible", U"ant", U"ement", U"ment",
      U"ent",  U"ion",  U"ou",   U"ism", U"ate", U"iti",  U"ous",  U"ive", U"ize",
  };
  for (std::u32string_view suffix : suffixes) {
    if (!ends_with(w, suffix)) continue;
    const WordView stem = drop(w, suffix.size());
    bool ok = measure(stem) > 1;
    if (suffix == U"ion") ok = ok && (stem.back() == U's' || stem.back() == U't');
    return ok ? Word(stem) : w;
  }
  return w;
}

Word nltk_step5(Word w) {
  if (ends_with(w, U"e")) {
    const WordView stem = drop(w, 1);
    const int m = measure(stem);
    if (m > 1 || (m == 1 && !nltk_ends_cvc(stem))) w = Word(stem);
  }
  if (ends_with(w, U"ll") && measure(drop(w, 1)) > 1) w.pop_back();
  return w;
}

// ------------------------------------------------------- ROUGE-1.5.5 (Perl)
// The Perl port matches suffix alternations with a regex anchored at the end,
// so the longest matching suffix of a group wins; its measure regexes equal
// Porter's m with the consonant definition above.

// The longest suffix in `rules` that `w` ends with, or nullptr.
const Rule* longest_suffix(WordView w, std::span<const Rule> rules) {
  const Rule* best = nullptr;
  for (const Rule& rule : rules) {
    if (ends_with(w, rule.suffix) && (best == nullptr || rule.suffix.size() > best->suffix.size())) best = &rule;
  }
  return best;
}

// ^C v [^aeiouwxy]$: exactly consonant-run, one vowel, one consonant.
bool perl_short_syllable(WordView w) {
  if (w.size() < 3) return false;
  const std::size_t n = w.size();
  const char32_t last = w[n - 1];
  if (is_vowel_letter(last) || last == U'w' || last == U'x' || last == U'y') return false;
  if (is_consonant(w, n - 2)) return false;
  for (std::size_t i = 0; i + 2 < n; ++i) {
    if (!is_consonant(w, i)) return false;
  }
  return true;
}

Word perl_step1(Word w) {
  // Step 1a.
  if (ends_with(w, U"sses") || ends_with(w, U"ies")) {
    w.resize(w.size() - 2);
  } else if (w.size() >= 2 && w.back() == U's' && w[w.size() - 2] != U's') {
    w.pop_back();
  }
  // Step 1b.
  if (ends_with(w, U"eed")) {
    if (measure(drop(w, 3)) > 0) w.pop_back();
  } else if (ends_with(w, U"ed") || ends_with(w, U"ing")) {
    const WordView stem = drop(w, ends_with(w, U"ed") ? 2 : 3);
    if (contains_vowel(stem)) {
      w = Word(stem);
      const char32_t last = w.empty() ? 0 : w.back();
      if (ends_with(w, U"at") || ends_with(w, U"bl") || ends_with(w, U"iz")) {
        w += U"e";
      } else if (w.size() >= 2 && last == w[w.size() - 2] && !is_vowel_letter(last) && last != U'y' &&
                 last != U'l' && last != U's' && last != U'z') {
        w.pop_back();
      } else if (perl_short_syllable(w)) {
        w += U"e";
      }
    }
  }
  // Step 1c.
  if (ends_with(w, U"y") && contains_vowel(drop(w, 1))) w.back() = U'i';
  return w;
}

Word perl_replace_if_m0(Word w, std::span<const Rule> rules) {
  const Rule* rule = longest_suffix(w, rules);
  if (rule == nullptr) return w;
  const WordView stem = drop(w, rule->suffix.size());
  return measure(stem) > 0 ? Word(stem) + Word(rule->replacement) : w;
}

Word perl_step4(Word w) {
  static constexpr Rule suffixes[] = {
      {U"al", U""},  {U"ance", U""}, {U"ence", U""}, {U"er", U""},    {U"ic", U""},  {U"able", U""},
      {U"ible", U""}, {U"ant", U""},  {U"ement", U""}, {U"ou", U""},  {U"ism", U""}, {U"ate", U""},
      {U"iti", U""}, {U"ous", U""},  {U"ive", U""},  {U"ize", U""},
  };
  auto strip_if_m1 = [&w](std::size_t n) {
    if (measure(drop(w, n)) > 1) w.resize(w.size() - n);
  };
  if (const Rule* rule = longest_suffix(w, suffixes)) strip_if_m1(rule->suffix.size());
  // ROUGE's 2004 change: "-ment" and "-ent" are tried again on the result.
  if (ends_with(w, U"ment")) strip_if_m1(4);
  if (ends_with(w, U"ent")) {
    strip_if_m1(3);
  } else if (ends_with(w, U"sion") || ends_with(w, U"tion")) {
    strip_if_m1(3);
  }
  return w;
}

Word perl_step5(Word w) {
  if (ends_with(w, U"e")) {
    const WordView stem = drop(w, 1);
    const int m = measure(stem);
    if (m > 1 || (m == 1 && !perl_short_syllable(stem))) w = Word(stem);
  }
  if (ends_with(w, U"ll") && measure(w) > 1) w.pop_back();
  return w;
}

}  // namespace

std::u32string PorterStemmer::stem(std::u32string_view word) const {
  return variant_ == PorterVariant::nltk ? stem_nltk(Word(word)) : stem_rouge155(Word(word));
}

std::string PorterStemmer::stem(std::string_view word_utf8) const {
  return utf8::encode(stem(utf8::decode_or_throw(word_utf8, "porter stemmer input")));
}

std::string PorterStemmer::id() const {
  return variant_ == PorterVariant::nltk ? "porter-nltk38-v1" : "porter-rouge155-v1";
}

std::u32string PorterStemmer::stem_nltk(std::u32string word) const {
  // NLTK looks the *unlowered* word up in its irregular table.
  if (const auto base = nltk_irregular(word); !base.empty()) return Word(base);
  Word w = lower(word);
  if (word.size() <= 2) return w;
  w = nltk_step1a(std::move(w));
  w = nltk_step1b(std::move(w));
  w = nltk_step1c(std::move(w));
  w = nltk_step2(std::move(w));
  w = apply_first_rule_m0(std::move(w), kStep3Rules);
  w = nltk_step4(std::move(w));
  return nltk_step5(std::move(w));
}

std::u32string PorterStemmer::stem_rouge155(std::u32string w) const {
  if (w.size() < 3) return w;
  static constexpr Rule step2[] = {
      {U"ational", U"ate"}, {U"tional", U"tion"}, {U"enci", U"ence"},   {U"anci", U"ance"},
      {U"izer", U"ize"},    {U"bli", U"ble"},     {U"alli", U"al"},     {U"entli", U"ent"},
      {U"eli", U"e"},       {U"ousli", U"ous"},   {U"ization", U"ize"}, {U"ation", U"ate"},
      {U"ator", U"ate"},    {U"alism", U"al"},    {U"iveness", U"ive"}, {U"fulness", U"ful"},
      {U"ousness", U"ous"}, {U"aliti", U"al"},    {U"iviti", U"ive"},   {U"biliti", U"ble"},
      {U"logi", U"log"},
  };
  w = perl_step1(std::move(w));
  w = perl_replace_if_m0(std::move(w), step2);
  w = perl_replace_if_m0(std::move(w), kStep3Rules);
  w = perl_step4(std::move(w));
  return perl_step5(std::move(w));
}

}  // namespace evalcli::text
