// KenLM prints numbers with double-conversion's ToShortest/ToShortestSingle
// (util/float_to_string): shortest round-trip digits, decimal notation when
// the decimal exponent is in [-6, 21), otherwise d.ddde<exp>. std::to_chars
// gives the same shortest digits (shortest_decimal); only the layout is KenLM's.
#include <cmath>
#include <string>

#include "evalcli/core/format.hpp"
#include "evalcli/metrics/ppl.hpp"

namespace evalcli::ppl {
namespace {

template <class T>
std::string shortest(T value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  const auto [negative, digits, exponent] = shortest_decimal(value);
  std::string out = negative ? "-" : "";
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
  // Appended piece by piece: GCC 12 warns (-Wstringop-overflow, a false positive) on "." + substr here.
  out += digits.front();
  if (digits.size() > 1) {
    out += '.';
    out.append(digits, 1);
  }
  out += 'e';
  out += std::to_string(exponent);
  return out;
}

}  // namespace

std::string kenlm_number(float value) { return shortest(value); }
std::string kenlm_number(double value) { return shortest(value); }

}  // namespace evalcli::ppl
