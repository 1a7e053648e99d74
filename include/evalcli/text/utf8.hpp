#pragma once
// Strict UTF-8 <-> code points, as Python's "utf-8" codec: overlong forms,
// surrogates and code points above U+10FFFF are invalid.
#include <cstddef>
#include <string>
#include <string_view>

namespace evalcli::utf8 {

inline constexpr std::size_t npos = std::string_view::npos;

// Appends the decoded code points of `bytes` to `out`. Returns npos on success,
// else the 0-based offset of the first byte of the first invalid sequence
// (`out` then holds the code points before it).
std::size_t decode(std::string_view bytes, std::u32string& out);

// Decodes valid UTF-8; throws evalcli::Error(input_data) on invalid input.
std::u32string decode_or_throw(std::string_view bytes, std::string_view where);

void append(std::string& out, char32_t code_point);
// Appends all of `text`, sizing `out` once (the same bytes as appending each code point).
void append(std::string& out, std::u32string_view text);
std::string encode(std::u32string_view text);

// The code points of valid UTF-8 `bytes`: its bytes less its continuation
// bytes (10xxxxxx), counted eight bytes at a time.
std::size_t count_code_points(std::string_view bytes);

}  // namespace evalcli::utf8
