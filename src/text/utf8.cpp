#include "evalcli/text/utf8.hpp"

#include <fmt/format.h>

#include "evalcli/core/error.hpp"

namespace evalcli::utf8 {

std::size_t decode(std::string_view bytes, std::u32string& out) {
  const auto* s = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t n = bytes.size();
  out.reserve(out.size() + n);
  std::size_t i = 0;
  while (i < n) {
    // ASCII runs are the common case: copy them without per-character checks.
    std::size_t run = i;
    while (run < n && s[run] < 0x80) ++run;
    if (run > i) {
      const std::size_t old_size = out.size();
      out.resize(old_size + (run - i));
      char32_t* dst = out.data() + old_size;
      for (std::size_t k = i; k < run; ++k) *dst++ = s[k];
      i = run;
      if (i == n) break;
    }
    const unsigned char c = s[i];
    std::size_t length;
    char32_t cp;
    char32_t minimum;
    if (c >= 0xC2 && c <= 0xDF) {
      length = 2, cp = c & 0x1F, minimum = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3, cp = c & 0x0F, minimum = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4, cp = c & 0x07, minimum = 0x10000;
    } else {
      return i;
    }
    if (i + length > n) return i;
    for (std::size_t k = 1; k < length; ++k) {
      const unsigned char cc = s[i + k];
      if ((cc & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (cc & 0x3F);
    }
    if (cp < minimum || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    out.push_back(cp);
    i += length;
  }
  return npos;
}

std::u32string decode_or_throw(std::string_view bytes, std::string_view where) {
  std::u32string out;
  const std::size_t bad = decode(bytes, out);
  if (bad != npos) {
    throw input_error(fmt::format("{}:byte {}: invalid UTF-8 (byte 0x{:02X})", where, bad + 1,
                                  static_cast<unsigned char>(bytes[bad])));
  }
  return out;
}

void append(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

void append(std::string& out, std::u32string_view text) {
  std::size_t size = 0;
  for (char32_t cp : text) size += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  const std::size_t old_size = out.size();
  out.resize(old_size + size);
  char* p = out.data() + old_size;
  for (char32_t cp : text) {
    if (cp < 0x80) {
      *p++ = static_cast<char>(cp);
    } else if (cp < 0x800) {
      *p++ = static_cast<char>(0xC0 | (cp >> 6));
      *p++ = static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      *p++ = static_cast<char>(0xE0 | (cp >> 12));
      *p++ = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      *p++ = static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      *p++ = static_cast<char>(0xF0 | (cp >> 18));
      *p++ = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      *p++ = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      *p++ = static_cast<char>(0x80 | (cp & 0x3F));
    }
  }
}

std::string encode(std::u32string_view text) {
  std::string out;
  append(out, text);
  return out;
}

}  // namespace evalcli::utf8
