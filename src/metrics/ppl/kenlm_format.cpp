// KenLM prints numbers with double-conversion's ToShortest/ToShortestSingle
// (util/float_to_string): shortest round-trip digits, decimal notation when
// the decimal exponent is in [-6, 21), otherwise d.ddde<exp>. std::to_chars
// gives the same shortest digits (shortest_decimal); only the layout is
// KenLM's. Written into a stack buffer without a std::string in between:
// `ppl --kenlm-output` prints one number per word.
#include <charconv>
#include <cmath>
#include <cstring>
#include <string>

#include "evalcli/core/format.hpp"
#include "evalcli/metrics/ppl.hpp"

namespace evalcli::ppl {
namespace {

// Copies `text` to `at` and returns the end.
char* put(char* at, std::string_view text) {
  std::memcpy(at, text.data(), text.size());
  return at + text.size();
}
char* put_zeros(char* at, int count) {
  for (int i = 0; i < count; ++i) *at++ = '0';
  return at;
}

// Writes KenLM's text of a finite `value` at `out` (room for 64 characters) and returns its end.
template <class T>
char* write_finite(char* out, T value) {
  const ShortestDecimal decimal = shortest_decimal(value);
  const std::string_view digits = decimal.digits();
  const auto count = static_cast<int>(digits.size());
  if (decimal.negative) *out++ = '-';
  if (digits == "0") return put(out, "0");  // zero (and negative zero) print as "0" / "-0"
  const int point = decimal.exponent + 1;  // value = 0.d1d2... * 10^point
  if (point > -6 && point <= 21) {
    if (point <= 0) return put(put_zeros(put(out, "0."), -point), digits);
    if (point >= count) return put_zeros(put(out, digits), point - count);
    out = put(out, digits.substr(0, static_cast<std::size_t>(point)));
    *out++ = '.';
    return put(out, digits.substr(static_cast<std::size_t>(point)));
  }
  *out++ = digits[0];
  if (count > 1) {
    *out++ = '.';
    out = put(out, digits.substr(1));
  }
  *out++ = 'e';
  return std::to_chars(out, out + 8, decimal.exponent).ptr;
}

template <class T>
void append_shortest(std::string& out, T value) {
  if (std::isnan(value)) {
    out += "NaN";
  } else if (std::isinf(value)) {
    out += value > 0 ? "inf" : "-inf";
  } else {
    char text[64];
    out.append(text, write_finite(text, value));
  }
}

template <class T>
std::string shortest(T value) {
  std::string out;
  append_shortest(out, value);
  return out;
}

}  // namespace

void append_kenlm_number(std::string& out, float value) { append_shortest(out, value); }
void append_kenlm_number(std::string& out, double value) { append_shortest(out, value); }

std::string kenlm_number(float value) { return shortest(value); }
std::string kenlm_number(double value) { return shortest(value); }

}  // namespace evalcli::ppl
