#include "evalcli/text/unicode.hpp"

#include <unicode/uchar.h>
#include <unicode/ustring.h>

#include "evalcli/core/error.hpp"

namespace evalcli::text {

std::u32string_view rstrip(std::u32string_view s) {
  std::size_t end = s.size();
  while (end > 0 && is_space(s[end - 1])) --end;
  return s.substr(0, end);
}

std::u32string_view strip(std::u32string_view s) {
  s = rstrip(s);
  std::size_t begin = 0;
  while (begin < s.size() && is_space(s[begin])) ++begin;
  return s.substr(begin);
}

std::vector<std::u32string_view> split(std::u32string_view s) {
  std::vector<std::u32string_view> pieces;
  for_each_split(s, [&](std::u32string_view word) { pieces.push_back(word); });
  return pieces;
}

std::u32string squeeze_spaces(std::u32string_view s) {
  std::u32string result(s.size(), U' ');
  char32_t* out = result.data();
  const char32_t* const begin = out;
  std::size_t i = 0;
  const std::size_t n = s.size();
  while (i < n) {
    while (i < n && is_space(s[i])) ++i;
    if (i == n) break;
    if (out != begin) *out++ = U' ';
    while (i < n && !is_space(s[i])) *out++ = s[i++];
  }
  result.resize(static_cast<std::size_t>(out - begin));
  return result;
}

namespace {

std::u16string to_utf16(std::u32string_view s) {
  std::u16string out;
  out.reserve(s.size());
  for (char32_t c : s) {
    if (c < 0x10000) {
      out.push_back(static_cast<char16_t>(c));
    } else {
      c -= 0x10000;
      out.push_back(static_cast<char16_t>(0xD800 + (c >> 10)));
      out.push_back(static_cast<char16_t>(0xDC00 + (c & 0x3FF)));
    }
  }
  return out;
}

std::u32string from_utf16(std::u16string_view s) {
  std::u32string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    char32_t c = s[i];
    if (c >= 0xD800 && c <= 0xDBFF && i + 1 < s.size() && s[i + 1] >= 0xDC00 && s[i + 1] <= 0xDFFF) {
      c = 0x10000 + ((c - 0xD800) << 10) + (s[i + 1] - 0xDC00);
      ++i;
    }
    out.push_back(c);
  }
  return out;
}

}  // namespace

namespace {

// The whole string through ICU's full case mapping (root locale).
std::u32string lower_with_icu(std::u32string_view s) {
  const std::u16string source = to_utf16(s);
  std::u16string target(source.size() + 16, u'\0');
  UErrorCode status = U_ZERO_ERROR;
  int32_t length = u_strToLower(reinterpret_cast<UChar*>(target.data()),
                                static_cast<int32_t>(target.size()),
                                reinterpret_cast<const UChar*>(source.data()),
                                static_cast<int32_t>(source.size()), "", &status);
  if (status == U_BUFFER_OVERFLOW_ERROR) {
    target.assign(static_cast<std::size_t>(length), u'\0');
    status = U_ZERO_ERROR;
    length = u_strToLower(reinterpret_cast<UChar*>(target.data()), length,
                          reinterpret_cast<const UChar*>(source.data()),
                          static_cast<int32_t>(source.size()), "", &status);
  }
  if (U_FAILURE(status)) throw Error(ExitCode::internal, "ICU u_strToLower failed");
  target.resize(static_cast<std::size_t>(length));
  return from_utf16(target);
}

}  // namespace

// The full lowercase mapping differs from the one-code-point (simple) one, in
// the root locale, only for U+0130 (to "i" + U+0307) and for U+03A3, whose
// Final_Sigma context decides between U+03C3 and U+03C2: a string holding
// neither maps character by character with u_tolower, without converting to
// UTF-16 and back. tests/unit/unicode_test.cpp checks every code point against
// the full mapping.
std::u32string lower(std::u32string_view s) {
  std::u32string out(s);
  for (char32_t& c : out) {
    if (c < 0x80) {  // most text is ASCII
      if (c >= U'A' && c <= U'Z') c += 32;
      continue;
    }
    if (c == 0x130 || c == 0x3A3) return lower_with_icu(s);
    c = static_cast<char32_t>(u_tolower(static_cast<UChar32>(c)));
  }
  return out;
}

bool is_number(char32_t c) {
  const auto mask = U_GET_GC_MASK(static_cast<UChar32>(c));
  return (mask & U_GC_N_MASK) != 0;
}

bool is_punctuation(char32_t c) {
  const auto mask = U_GET_GC_MASK(static_cast<UChar32>(c));
  return (mask & U_GC_P_MASK) != 0;
}

bool is_symbol(char32_t c) {
  const auto mask = U_GET_GC_MASK(static_cast<UChar32>(c));
  return (mask & U_GC_S_MASK) != 0;
}

}  // namespace evalcli::text
