#pragma once
// Number formatting that matches Python, so printed output is byte-identical.
#include <cstddef>
#include <string>
#include <string_view>

namespace evalcli {

// Python's "%.{decimals}f" (correctly rounded, round-half-even on the exact binary value).
std::string format_fixed(double value, int decimals);

// Python's repr(float): shortest round-trip digits, "29.0", "1e-14", "1e+16".
std::string python_float_repr(double value);

// The shortest decimal digits that read back as the same value (std::to_chars):
// value = (negative ? -1 : 1) * d1.d2d3... * 10^exponent. Layouts (Python's repr,
// KenLM's double-conversion) differ only in where they put the point. Finite values only.
// Held in place, without a heap allocation (KenLM's output prints one per word).
struct ShortestDecimal {
  bool negative = false;
  int exponent = 0;
  char digit_buffer[24] = {};  // a double has at most 17 significant digits
  std::size_t digit_count = 0;

  std::string_view digits() const { return {digit_buffer, digit_count}; }  // "0" for zero
};
ShortestDecimal shortest_decimal(double value);
ShortestDecimal shortest_decimal(float value);

// Python's round(value, decimals) (correctly rounded through decimal).
double python_round(double value, int decimals);

}  // namespace evalcli
