#include "evalcli/text/unicode.hpp"

#include <unicode/uchar.h>
#include <unicode/ustring.h>

#include <string>

#include <catch2/catch.hpp>

// Python's str.isspace(), as its documentation defines it: general category Zs,
// or bidirectional class WS, B or S. Asked of ICU here, independently of the
// bit mask and the list in is_space.
static bool python_isspace(char32_t c) {
  const auto code_point = static_cast<UChar32>(c);
  const auto direction = u_charDirection(code_point);
  return u_charType(code_point) == U_SPACE_SEPARATOR || direction == U_WHITE_SPACE_NEUTRAL ||
         direction == U_BLOCK_SEPARATOR || direction == U_SEGMENT_SEPARATOR;
}

TEST_CASE("is_space is Python's str.isspace() on every code point", "[unicode]") {
  std::size_t spaces = 0;
  for (char32_t c = 0; c <= 0x10FFFF; ++c) {
    if (evalcli::text::is_space(c) != python_isspace(c)) FAIL("code point U+" << std::hex << static_cast<unsigned>(c));
    spaces += evalcli::text::is_space(c) ? 1 : 0;
  }
  CHECK(spaces == 29);  // docs/text-pipeline.md lists them
  // Beyond Unicode: the mask is indexed modulo 64, the tests above it must still say no.
  for (const char32_t c : {U'\x00110020', U'\xFFFFFFFF', U'\x0060'}) {
    CHECK_FALSE(evalcli::text::is_space(c));
  }
}

namespace {

// ICU's full lowercase mapping (root locale) of a string, asked directly: the
// definition lower()'s per-character path must agree with.
std::u32string icu_full_lower(const std::u32string& text) {
  std::u16string source;
  for (const char32_t c : text) {
    if (c < 0x10000) {
      source.push_back(static_cast<char16_t>(c));
    } else {
      source.push_back(static_cast<char16_t>(0xD800 + ((c - 0x10000) >> 10)));
      source.push_back(static_cast<char16_t>(0xDC00 + ((c - 0x10000) & 0x3FF)));
    }
  }
  std::u16string target(2 * source.size() + 16, u'\0');
  UErrorCode status = U_ZERO_ERROR;
  const int32_t length = u_strToLower(reinterpret_cast<UChar*>(target.data()), static_cast<int32_t>(target.size()),
                                      reinterpret_cast<const UChar*>(source.data()),
                                      static_cast<int32_t>(source.size()), "", &status);
  REQUIRE(U_SUCCESS(status));
  std::u32string out;
  for (int32_t i = 0; i < length; ++i) {
    const char16_t unit = target[static_cast<std::size_t>(i)];
    if (unit >= 0xD800 && unit < 0xDC00) {
      out.push_back(0x10000 + ((static_cast<char32_t>(unit) - 0xD800) << 10) +
                    (static_cast<char32_t>(target[static_cast<std::size_t>(++i)]) - 0xDC00));
    } else {
      out.push_back(unit);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("lower is ICU's full lowercase mapping on every code point, alone and between letters", "[unicode]") {
  std::size_t changed = 0;
  for (char32_t c = 0; c <= 0x10FFFF; ++c) {
    if (c >= 0xD800 && c <= 0xDFFF) continue;  // surrogates: not characters
    for (const std::u32string& text : {std::u32string(1, c), U"A" + std::u32string(1, c) + U"b"}) {
      if (evalcli::text::lower(text) != icu_full_lower(text)) FAIL("code point U+" << std::hex << static_cast<unsigned>(c));
    }
    changed += evalcli::text::lower(std::u32string(1, c)) != std::u32string(1, c) ? 1 : 0;
  }
  CHECK(changed > 1000);  // the test saw real mappings, not only identities
}

TEST_CASE("lower: the context-dependent and one-to-many mappings go through ICU", "[unicode]") {
  using evalcli::text::lower;
  CHECK(lower(U"\u0391\u03a3") == U"\u03b1\u03c2");               // final sigma
  CHECK(lower(U"\u03a3\u0391") == U"\u03c3\u03b1");               // not final
  CHECK(lower(U"\u0391\u03a3 \u0391") == U"\u03b1\u03c2 \u03b1");  // final before a space
  CHECK(lower(U"\u0130X") == U"i\u0307x");                         // I with dot above: two code points
  CHECK(lower(U"Stra\u00dfE \u00c4\u00d6\u00dc \u20ac") == U"stra\u00dfe \u00e4\u00f6\u00fc \u20ac");
}
