// `punct-strip`: every punctuation character (Unicode \p{P}, ICU's tables)
// becomes a space, so that the words on either side stay apart for every
// tokenizer ("end.Start" -> "end Start"; 你好，世界 -> 你好 世界). Symbols
// (\p{S}: $ + < ~ ...) are kept.
#include "text/builtin_normalizers.hpp"
#include "evalcli/text/unicode.hpp"

namespace evalcli::normalizers {
namespace {

class NormalizerPunctStrip : public Normalizer {
 public:
  std::string name() const override { return "punct-strip"; }
  std::u32string apply(std::u32string_view line) const override {
    std::u32string out(line);
    for (char32_t& c : out) {
      if (text::is_punctuation(c)) c = U' ';
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Normalizer> make_punct_strip() { return std::make_unique<NormalizerPunctStrip>(); }

}  // namespace evalcli::normalizers
