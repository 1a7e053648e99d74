// KenLM prints numbers with double-conversion's ToShortest/ToShortestSingle
// (util/float_to_string): shortest round-trip digits, decimal notation when
// the decimal exponent is in [-6, 21), otherwise d.ddde<exp>. std::to_chars
// gives the same shortest digits; only the layout is redone here.
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

#include "evalcli/metrics/ppl.hpp"

namespace evalcli::ppl {
namespace {

template <class T>
std::string shortest(T value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  std::string sci(buffer, result.ptr);  // "-1.2345e+02"
  std::string out;
  if (sci[0] == '-') {
    out = "-";
    sci.erase(0, 1);
  }
  const auto e_pos = sci.find('e');
  const int exponent = std::atoi(sci.c_str() + e_pos + 1);
  std::string digits;
  for (std::size_t i = 0; i < e_pos; ++i) {
    if (sci[i] != '.') digits.push_back(sci[i]);
  }
  if (digits == "0") return out + "0";  // zero (and negative zero) print as "0" / "-0"
  // decimal_point position: value = 0.d1d2... * 10^point
  const int point = exponent + 1;
  if (point > -6 && point <= 21) {
    if (point <= 0) {
      out += "0." + std::string(static_cast<std::size_t>(-point), '0') + digits;
    } else if (static_cast<std::size_t>(point) >= digits.size()) {
      out += digits + std::string(static_cast<std::size_t>(point) - digits.size(), '0');
    } else {
      out += digits.substr(0, static_cast<std::size_t>(point)) + "." + digits.substr(static_cast<std::size_t>(point));
    }
    return out;
  }
  out += digits.substr(0, 1);
  if (digits.size() > 1) out += "." + digits.substr(1);
  out += "e" + std::to_string(exponent);
  return out;
}

}  // namespace

std::string kenlm_number(float value) { return shortest(value); }
std::string kenlm_number(double value) { return shortest(value); }

}  // namespace evalcli::ppl
