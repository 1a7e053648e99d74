#include "evalcli/tokenize/text_scan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>

#include "evalcli/text/unicode.hpp"

namespace evalcli {
namespace {

// Code point ranges of the unspaced scripts (Unicode blocks).
UnspacedScript script_of(char32_t c) {
  if ((c >= 0x3040 && c <= 0x30FF) || (c >= 0x31F0 && c <= 0x31FF) || (c >= 0xFF66 && c <= 0xFF9F)) {
    return UnspacedScript::kana;  // hiragana, katakana, half-width katakana
  }
  if ((c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0xF900 && c <= 0xFAFF) ||
      (c >= 0x20000 && c <= 0x3FFFF)) {
    return UnspacedScript::han;
  }
  if (c >= 0x0E00 && c <= 0x0E7F) return UnspacedScript::thai;
  return UnspacedScript::none;
}

// Both ASCII counts of a character in one number, added with one load: 1 in
// the low half for letters and digits, 1 in the high half for characters
// other than white space (a line's counts stay far below 2^32).
constexpr int kNonSpaceShift = 32;
constexpr std::array<std::uint64_t, 128> kAsciiCounts = [] {
  std::array<std::uint64_t, 128> table{};
  for (char32_t c = 0; c < 128; ++c) {
    const bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    table[c] = std::uint64_t{alnum} | (std::uint64_t{!text::is_space(c)} << kNonSpaceShift);
  }
  return table;
}();

bool is_letter_like(char32_t c) { return !text::is_space(c) && !text::is_punctuation(c) && !text::is_symbol(c); }

double percent(std::size_t part, std::size_t whole) {
  return whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

}  // namespace

bool splits_words_at_spaces(std::string_view tokenizer) {
  static constexpr std::array<std::string_view, 8> kSpaceSplitters = {
      "13a", "intl", "none", "ptb", "nltk-word", "tercom", "rouge-score", "meteor-split"};
  return std::find(kSpaceSplitters.begin(), kSpaceSplitters.end(), tokenizer) != kSpaceSplitters.end();
}

std::string target_language(std::string_view language_pair) {
  const auto dash = language_pair.find('-');
  return std::string(dash == std::string_view::npos ? language_pair : language_pair.substr(dash + 1));
}

std::string sacrebleu_tokenizer_for_language(std::string_view language, std::string_view fallback) {
  if (language == "zh") return "zh";
  if (language == "ja") return "ja-mecab";
  if (language == "ko") return "ko-mecab";
  return std::string(fallback);
}

void TextScan::add_line(std::u32string_view line) {
  std::size_t letters = 0, unspaced = 0, non_space = 0, non_ascii = 0;
  std::uint64_t ascii_counts = 0;  // kAsciiCounts summed
  for (const char32_t c : line) {
    if (c < 0x80) {  // the common case: a table, not a Unicode property look-up
      ascii_counts += kAsciiCounts[c];
      continue;
    }
    if (text::is_space(c)) continue;
    ++non_space, ++non_ascii;
    if (!is_letter_like(c)) continue;
    ++letters;
    switch (script_of(c)) {
      case UnspacedScript::han: ++han_, ++unspaced; break;
      case UnspacedScript::kana: ++kana_, ++unspaced; break;
      case UnspacedScript::thai: ++thai_, ++unspaced; break;
      case UnspacedScript::none: break;
    }
  }
  letters += static_cast<std::size_t>(ascii_counts & 0xFFFFFFFFu);
  non_space += static_cast<std::size_t>(ascii_counts >> kNonSpaceShift);
  ++lines_;
  letters_ += letters;
  non_space_ += non_space;
  non_ascii_ += non_ascii;
  if (unspaced * 2 > letters) ++unspaced_lines_;
}

void TextScan::add_hypothesis(std::size_t system, std::u32string_view line) {
  add_line(line);
  if (tokenized_periods_.size() <= system) tokenized_periods_.resize(system + 1);
  if (line.ends_with(U" .")) ++tokenized_periods_[system];
  if (system == 0) ++segments_;
}

UnspacedScript TextScan::dominant_script() const {
  if (unspaced_letters() == 0) return UnspacedScript::none;
  if (kana_ > 0) return UnspacedScript::kana;
  return thai_ > han_ ? UnspacedScript::thai : UnspacedScript::han;
}

std::size_t TextScan::tokenized_periods(std::size_t system) const {
  return system < tokenized_periods_.size() ? tokenized_periods_[system] : 0;
}

std::string unspaced_text_warning(const TextScan& scan, std::string_view tokenizer) {
  if (!splits_words_at_spaces(tokenizer) || !scan.mostly_unspaced()) return {};
  std::string language, advice;
  switch (scan.dominant_script()) {
    case UnspacedScript::kana:
      language = "Japanese";
      advice = "give the language pair (-l SRC-ja) to segment Japanese, or --tokenize ja-mecab";
      break;
    case UnspacedScript::thai:
      language = "Thai";
      advice = "use --tokenize char (SacreBLEU has no Thai word tokenizer)";
      break;
    default:
      language = "Chinese";
      advice = "give the language pair (-l SRC-zh) to segment Chinese, or --tokenize zh";
  }
  return fmt::format(
      "evalcli: warning: the text is mostly {} ({} of {} lines, {:.0f}% of the characters), written without spaces "
      "between words, and tokenizer {} splits only at spaces: whole phrases count as single words, so the score "
      "is misleading.\n"
      "hint: {}; -q silences this\n",
      language, scan.unspaced_lines(), scan.lines(), percent(scan.unspaced_letters(), scan.letters()), tokenizer,
      advice);
}

}  // namespace evalcli
