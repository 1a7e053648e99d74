#include "evalcli/text/unicode.hpp"

#include <unicode/uchar.h>

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
