// ROUGE's rule for the tokens of a shared-pipeline tokenizer, one rule for
// rouge-score mode and ROUGE-1.5.5 mode (docs/rouge.md, "Tokenizers").
#include <unicode/uchar.h>
#include <unicode/uscript.h>

#include <algorithm>

#include "evalcli/metrics/rouge.hpp"
#include "evalcli/text/unicode.hpp"
#include "evalcli/text/utf8.hpp"

namespace evalcli {
namespace {

// \p{L}, \p{N} or Script=Han. Han radicals (U+2E80-U+2EFF, U+2F00-U+2FDF)
// are symbols (So) but Han script: OCR turns 小 into ⼩ in real references,
// and `zh-char` makes each one a Han token, so ROUGE keeps it.
bool is_word_character(char32_t c) {
  const auto u = static_cast<UChar32>(c);
  if ((U_GET_GC_MASK(u) & (U_GC_L_MASK | U_GC_N_MASK)) != 0) return true;
  UErrorCode status = U_ZERO_ERROR;
  return uscript_getScript(u, &status) == USCRIPT_HAN && U_SUCCESS(status);
}

}  // namespace

RougeTokens rouge_pipeline_words(std::u32string_view tokenized) {
  RougeTokens words;
  for (const auto piece : text::split(tokenized)) {
    // Lowercased here because not every tokenizer does (jieba keeps "SD卡" as "SD" "卡").
    const std::u32string lowered = text::lower(piece);
    if (std::any_of(lowered.begin(), lowered.end(), is_word_character)) words.push_back(utf8::encode(lowered));
  }
  return words;
}

}  // namespace evalcli
