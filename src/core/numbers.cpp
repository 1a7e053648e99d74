#include "evalcli/core/numbers.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

namespace evalcli {

NumberProblem parse_finite_double(std::string_view text, double& value) {
  if (text.starts_with("+-")) return NumberProblem::malformed;  // from_chars would take the '-'
  if (text.starts_with('+')) text.remove_prefix(1);
  const char* last = text.data() + text.size();
  double parsed = 0;
  const auto [end, ec] = std::from_chars(text.data(), last, parsed);
  if (end != last) return NumberProblem::malformed;
  if (ec == std::errc::result_out_of_range) {
    // from_chars reports underflow as out of range too; only overflow is.
    const std::string copy(text);
    parsed = std::strtod(copy.c_str(), nullptr);
    if (!std::isfinite(parsed)) return NumberProblem::out_of_range;
  } else if (ec != std::errc()) {
    return NumberProblem::malformed;
  }
  if (!std::isfinite(parsed)) return NumberProblem::out_of_range;
  value = parsed;
  return NumberProblem::ok;
}

long long integer_in_range(std::string_view what, std::string_view text, long long min, long long max, ExitCode code) {
  long long value = 0;
  if (parse_integer(text, value) != NumberProblem::ok || value < min || value > max) {
    throw Error(code, fmt::format("{}: '{}' is not a whole number from {} to {}", what, text, min, max));
  }
  return value;
}

double double_in_range(std::string_view what, std::string_view text, double min, double max, ExitCode code) {
  double value = 0;
  if (parse_finite_double(text, value) != NumberProblem::ok || value < min || value > max) {
    const bool any_finite = min == std::numeric_limits<double>::lowest() && max == std::numeric_limits<double>::max();
    throw Error(code, any_finite ? fmt::format("{}: '{}' is not a finite number", what, text)
                                 : fmt::format("{}: '{}' is not a number from {} to {}", what, text, min, max));
  }
  return value;
}

}  // namespace evalcli
