#include "evalcli/core/format.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string_view>

namespace evalcli {

std::string format_fixed(double value, int decimals) { return fmt::format("{:.{}f}", value, decimals); }

double python_round(double value, int decimals) {
  if (!std::isfinite(value)) return value;
  const std::string text = format_fixed(value, decimals);
  return std::strtod(text.c_str(), nullptr);
}

namespace {

template <class T>
ShortestDecimal shortest_decimal_of(T value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  const std::string_view sci(buffer, static_cast<std::size_t>(result.ptr - buffer));  // "-3.8368523555e+01"
  ShortestDecimal decimal;
  decimal.negative = sci.front() == '-';
  const auto e_pos = sci.find('e');
  for (char c : sci.substr(decimal.negative ? 1 : 0, e_pos - (decimal.negative ? 1 : 0))) {
    if (c != '.') decimal.digit_buffer[decimal.digit_count++] = c;
  }
  // to_chars writes no terminating NUL: parse the exponent within the view ("+01" -> 1)
  const std::size_t exponent_start = e_pos + (sci[e_pos + 1] == '+' ? 2 : 1);
  std::from_chars(sci.data() + exponent_start, sci.data() + sci.size(), decimal.exponent);
  return decimal;
}

}  // namespace

ShortestDecimal shortest_decimal(double value) { return shortest_decimal_of(value); }
ShortestDecimal shortest_decimal(float value) { return shortest_decimal_of(value); }

std::string python_float_repr(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  const ShortestDecimal decimal = shortest_decimal(value);
  const std::string digits(decimal.digits());
  const int exponent = decimal.exponent;
  const std::string sign = decimal.negative ? "-" : "";
  if (exponent >= -5 + 1 && exponent < 16) {  // Python: -4 <= exponent < 16 -> fixed
    std::string out;
    if (exponent >= 0) {
      const auto int_len = static_cast<std::size_t>(exponent) + 1;
      if (digits.size() <= int_len) {
        out = digits + std::string(int_len - digits.size(), '0') + ".0";
      } else {
        out = digits.substr(0, int_len) + "." + digits.substr(int_len);
      }
    } else {
      out = "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
    }
    return sign + out;
  }
  std::string mantissa = digits.substr(0, 1);
  if (digits.size() > 1) {  // appended piece by piece: "." + substr trips GCC 12's -Wstringop-overflow
    mantissa += '.';
    mantissa.append(digits, 1);
  }
  return sign + fmt::format("{}e{}{:02d}", mantissa, exponent < 0 ? '-' : '+', std::abs(exponent));
}

}  // namespace evalcli
