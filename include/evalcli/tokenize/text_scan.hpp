#pragma once
// Looks at the text being scored for the traps that give a wrong number
// without an error (issue 18): text written without spaces between words
// (Chinese, Japanese, Thai) met by a whitespace/ASCII tokenizer, mostly
// non-ASCII text met by ROUGE's ASCII-only tokenizers, and hypotheses that
// end in a tokenized period (" .", SacreBLEU's warning).
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace evalcli {

// The scripts written without spaces between words that the scan tells apart.
enum class UnspacedScript { none, han, kana, thai };

// The tokenizers that split words at spaces or keep only ASCII: they cannot
// segment Chinese, Japanese or Thai (13a, intl, none, ptb, nltk-word, tercom,
// rouge-score's default, METEOR's split).
bool splits_words_at_spaces(std::string_view tokenizer);

// The tokenizer SacreBLEU picks for a target language (BLEU's _TOKENIZER_MAP:
// zh -> zh, ja -> ja-mecab, ko -> ko-mecab), or `fallback` for other languages.
std::string sacrebleu_tokenizer_for_language(std::string_view language, std::string_view fallback);

// The target language of "-l SRC-TGT" (or of a bare "TGT").
std::string target_language(std::string_view language_pair);

class TextScan {
 public:
  // Counts one line: its characters by script, and whether it is mostly unspaced.
  void add_line(std::u32string_view line);
  // One hypothesis of system `system`: also counted for the tokenized-period check.
  void add_hypothesis(std::size_t system, std::u32string_view line);

  std::size_t lines() const { return lines_; }
  std::size_t unspaced_lines() const { return unspaced_lines_; }  // over half their letters unspaced
  std::size_t letters() const { return letters_; }                // non-space, non-punctuation characters
  std::size_t unspaced_letters() const { return han_ + kana_ + thai_; }
  std::size_t non_space_characters() const { return non_space_; }
  std::size_t non_ascii_characters() const { return non_ascii_; }  // of the non-space ones
  // True when most letters are of an unspaced script.
  bool mostly_unspaced() const { return unspaced_letters() * 2 > letters_; }
  // The script that decides the tokenizer: kana means Japanese, else the larger of Han and Thai.
  UnspacedScript dominant_script() const;
  // SacreBLEU counts hypotheses ending in " ." (system by system) and warns from 100.
  std::size_t tokenized_periods(std::size_t system) const;
  std::size_t segments() const { return segments_; }  // hypotheses of system 0

 private:
  // One line's tallies, added to the totals when the line is done.
  struct LineCounts {
    std::size_t letters = 0, unspaced = 0, non_space = 0, non_ascii = 0;
  };
  void add_non_ascii(char32_t c, LineCounts& counts);
  // Counts the line's whole blocks of 8 characters with AVX2 where the CPU has
  // it; returns how many characters it counted (the rest go one by one).
  std::size_t add_blocks(std::u32string_view line, LineCounts& counts);

  std::size_t lines_ = 0, unspaced_lines_ = 0, letters_ = 0, han_ = 0, kana_ = 0, thai_ = 0, segments_ = 0;
  std::size_t non_space_ = 0, non_ascii_ = 0;
  std::vector<std::size_t> tokenized_periods_;
};

// SacreBLEU warns when at least this many hypotheses end in " ." (metrics/base.py).
inline constexpr std::size_t kTokenizedPeriodWarningLines = 100;

// The warning (and hint line) for mostly unspaced text met by `tokenizer`
// (empty when the text does not call for one): which tokenizer to use, and how
// much of the text is affected.
std::string unspaced_text_warning(const TextScan& scan, std::string_view tokenizer);

}  // namespace evalcli
