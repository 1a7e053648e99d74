#pragma once
// Code points <-> ICU strings, for the pieces that call ICU services
// (normalizers, transliterators, break iterators).
#include <unicode/unistr.h>

#include <string>
#include <string_view>

namespace evalcli::text {

inline icu::UnicodeString to_icu(std::u32string_view text) {
  return icu::UnicodeString::fromUTF32(reinterpret_cast<const UChar32*>(text.data()),
                                       static_cast<int32_t>(text.size()));
}

inline std::u32string from_icu(const icu::UnicodeString& text) {
  std::u32string out;
  out.reserve(static_cast<std::size_t>(text.length()));
  for (int32_t i = 0; i < text.length(); i = text.moveIndex32(i, 1)) {
    out.push_back(static_cast<char32_t>(text.char32At(i)));
  }
  return out;
}

}  // namespace evalcli::text
