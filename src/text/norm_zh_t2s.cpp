// `zh-t2s`: traditional -> simplified Chinese with ICU's "Traditional-Simplified"
// transliterator (character by character, from ICU's data).
#include <unicode/translit.h>

#include <mutex>

#include "evalcli/core/error.hpp"
#include "text/builtin_normalizers.hpp"
#include "text/icu_string.hpp"

namespace evalcli::normalizers {
namespace {

class NormalizerZhT2s : public Normalizer {
 public:
  NormalizerZhT2s() {
    UErrorCode status = U_ZERO_ERROR;
    transliterator_.reset(icu::Transliterator::createInstance("Traditional-Simplified", UTRANS_FORWARD, status));
    if (U_FAILURE(status) || !transliterator_) {
      throw Error(ExitCode::missing_resource,
                  std::string("zh-t2s: ICU transliterator Traditional-Simplified unavailable: ") +
                      u_errorName(status),
                  "hint: install the Debian package libicu72");
    }
  }
  std::string name() const override { return "zh-t2s"; }
  std::u32string apply(std::u32string_view line) const override {
    icu::UnicodeString text = text::to_icu(line);
    {
      std::lock_guard<std::mutex> lock(mutex_);  // ICU does not promise thread safety here
      transliterator_->transliterate(text);
    }
    return text::from_icu(text);
  }

 private:
  std::unique_ptr<icu::Transliterator> transliterator_;
  mutable std::mutex mutex_;
};

}  // namespace

std::unique_ptr<Normalizer> make_zh_t2s() { return std::make_unique<NormalizerZhT2s>(); }

}  // namespace evalcli::normalizers
