// `nfkc`: Unicode NFKC through ICU's Normalizer2 (the Unicode version of the
// system ICU: 15.0 with Debian 12's ICU 72).
#include <unicode/normalizer2.h>

#include "evalcli/core/error.hpp"
#include "text/builtin_normalizers.hpp"
#include "text/icu_string.hpp"

namespace evalcli::normalizers {
namespace {

class NormalizerNfkc : public Normalizer {
 public:
  NormalizerNfkc() {
    UErrorCode status = U_ZERO_ERROR;
    nfkc_ = icu::Normalizer2::getNFKCInstance(status);
    if (U_FAILURE(status)) {
      throw Error(ExitCode::missing_resource, std::string("nfkc: ICU NFKC data unavailable: ") + u_errorName(status),
                  "hint: install the Debian package libicu72");
    }
  }
  std::string name() const override { return "nfkc"; }
  std::u32string apply(std::u32string_view line) const override {
    UErrorCode status = U_ZERO_ERROR;
    const icu::UnicodeString normalized = nfkc_->normalize(text::to_icu(line), status);
    if (U_FAILURE(status)) throw Error(ExitCode::internal, std::string("nfkc: ") + u_errorName(status));
    return text::from_icu(normalized);
  }

 private:
  const icu::Normalizer2* nfkc_ = nullptr;  // owned by ICU, thread-safe
};

}  // namespace

std::unique_ptr<Normalizer> make_nfkc() { return std::make_unique<NormalizerNfkc>(); }

}  // namespace evalcli::normalizers
