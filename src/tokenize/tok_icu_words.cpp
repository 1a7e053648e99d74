// `zh-icu` and `ja-icu`: ICU's word break iterator (dictionary-based for Han,
// Hiragana and Katakana: ICU's cjdict) for the zh / ja locale. Every segment
// between two boundaries is a token unless it is all whitespace. The output
// depends on ICU's data, so the ICU version is a signature field (icu:72.1).
#include <unicode/brkiter.h>
#include <unicode/uversion.h>

#include <mutex>

#include "evalcli/core/error.hpp"
#include "evalcli/text/unicode.hpp"
#include "evalcli/tokenize/builtin_tokenizers.hpp"

namespace evalcli::tokenizers {
namespace {

icu::UnicodeString to_icu(std::u32string_view text) {
  return icu::UnicodeString::fromUTF32(reinterpret_cast<const UChar32*>(text.data()),
                                       static_cast<int32_t>(text.size()));
}

class TokenizerIcuWords : public Tokenizer {
 public:
  TokenizerIcuWords(std::string name, const char* locale) : name_(std::move(name)) {
    UErrorCode status = U_ZERO_ERROR;
    iterator_.reset(icu::BreakIterator::createWordInstance(icu::Locale(locale), status));
    if (U_FAILURE(status) || !iterator_) {
      throw Error(ExitCode::missing_resource,
                  name_ + ": ICU word break iterator unavailable: " + u_errorName(status),
                  "hint: install the Debian package libicu72 (or the libicu matching this build)");
    }
  }

  std::string name() const override { return name_; }
  std::string signature_fields() const override { return std::string("icu:") + U_ICU_VERSION; }

  std::u32string tokenize(std::u32string_view line) const override {
    const icu::UnicodeString text = to_icu(line);
    std::u32string out;
    std::lock_guard<std::mutex> lock(mutex_);  // a break iterator holds its text: not thread-safe
    iterator_->setText(text);
    int32_t start = iterator_->first();
    for (int32_t end = iterator_->next(); end != icu::BreakIterator::DONE; start = end, end = iterator_->next()) {
      const icu::UnicodeString piece = text.tempSubStringBetween(start, end);
      std::u32string token;
      for (int32_t i = 0; i < piece.length(); i = piece.moveIndex32(i, 1)) {
        token.push_back(static_cast<char32_t>(piece.char32At(i)));
      }
      // Whitespace-only segments are not tokens; whitespace inside one (none
      // expected) must not survive into the space-joined output.
      for (const auto word : text::split(token)) {
        if (!out.empty()) out.push_back(U' ');
        out += word;
      }
    }
    return out;
  }

 private:
  std::string name_;
  std::unique_ptr<icu::BreakIterator> iterator_;
  mutable std::mutex mutex_;
};

}  // namespace

std::unique_ptr<Tokenizer> make_zh_icu() { return std::make_unique<TokenizerIcuWords>("zh-icu", "zh"); }
std::unique_ptr<Tokenizer> make_ja_icu() { return std::make_unique<TokenizerIcuWords>("ja-icu", "ja"); }

}  // namespace evalcli::tokenizers
