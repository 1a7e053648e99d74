#pragma once
// The character classes and normalisations of transformers' slow tokenizers
// (Python's unicodedata and str methods), through ICU.
#include <string>
#include <string_view>

namespace evalcli::bertscore {

// unicodedata.category(c) starts with this letter ('L', 'M', 'N', 'P', 'S', 'Z', 'C').
char major_category(char32_t c);
bool is_nonspacing_mark(char32_t c);  // category Mn
bool is_space_separator(char32_t c);  // category Zs
// Python's str.isspace(): what str.split() and str.strip() treat as whitespace.
bool is_python_space(char32_t c);
// Python's str.strip() / str.split() without arguments.
std::u32string_view python_strip(std::u32string_view s);
std::u32string nfc(std::u32string_view s);
std::u32string nfd(std::u32string_view s);

}  // namespace evalcli::bertscore
