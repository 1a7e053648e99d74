// `whitespace`: every run of Unicode whitespace (Python str.isspace(): ASCII
// controls TAB..CR and FS..US, NEL, NBSP, U+1680, U+2000..U+200A, LS, PS,
// U+202F, U+205F, U+3000) becomes one ASCII space; leading and trailing
// whitespace goes.
#include "text/builtin_normalizers.hpp"
#include "evalcli/text/unicode.hpp"

namespace evalcli::normalizers {
namespace {

class NormalizerWhitespace : public Normalizer {
 public:
  std::string name() const override { return "whitespace"; }
  std::u32string apply(std::u32string_view line) const override { return text::squeeze_spaces(line); }
};

}  // namespace

std::unique_ptr<Normalizer> make_whitespace() { return std::make_unique<NormalizerWhitespace>(); }

}  // namespace evalcli::normalizers
