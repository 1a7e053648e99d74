#include "evalcli/core/format.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace evalcli {

std::string format_fixed(double value, int decimals) { return fmt::format("{:.{}f}", value, decimals); }

double python_round(double value, int decimals) {
  if (!std::isfinite(value)) return value;
  const std::string text = format_fixed(value, decimals);
  return std::strtod(text.c_str(), nullptr);
}

std::string python_float_repr(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  std::string sci(buffer, result.ptr);  // e.g. "-3.8368523555e+01"
  std::string sign;
  if (sci[0] == '-') {
    sign = "-";
    sci.erase(0, 1);
  }
  const auto e_pos = sci.find('e');
  const int exponent = std::atoi(sci.c_str() + e_pos + 1);
  std::string digits;
  for (std::size_t i = 0; i < e_pos; ++i) {
    if (sci[i] != '.') digits.push_back(sci[i]);
  }
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
  if (digits.size() > 1) mantissa += "." + digits.substr(1);
  return sign + fmt::format("{}e{}{:02d}", mantissa, exponent < 0 ? '-' : '+', std::abs(exponent));
}

}  // namespace evalcli
