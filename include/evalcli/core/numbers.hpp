#pragma once
// Numbers in text evalcli did not write (command-line values, --rouge155-flags,
// signatures, environment variables, data and resource files). std::from_chars
// underneath: no exceptions, no locale, and the whole text must be the number.
#include <charconv>
#include <concepts>
#include <limits>
#include <string>
#include <string_view>
#include <system_error>

#include "evalcli/core/error.hpp"

namespace evalcli {

// Why a text is not the number wanted (ok: it is).
enum class NumberProblem { ok, malformed, out_of_range };

// "[+|-]digits" (a leading '+' as Python's int(), Perl and strtol accept it).
// out_of_range: a whole number that T cannot hold.
template <std::integral T>
NumberProblem parse_integer(std::string_view text, T& value) {
  if (text.starts_with("+-")) return NumberProblem::malformed;  // from_chars would take the '-'
  if (text.starts_with('+')) text.remove_prefix(1);
  const char* last = text.data() + text.size();
  const auto [end, ec] = std::from_chars(text.data(), last, value);
  if (end != last) return NumberProblem::malformed;
  if (ec == std::errc::result_out_of_range) return NumberProblem::out_of_range;
  return ec == std::errc() ? NumberProblem::ok : NumberProblem::malformed;
}

// A decimal number ("0.5", "-1e-3", "+2"). out_of_range: "inf", "nan" and
// values beyond a double ("1e999"); tiny values ("1e-400") read as 0 or
// subnormal.
NumberProblem parse_finite_double(std::string_view text, double& value);

// A whole number from min to max, else an Error(code) naming `what` (the
// option, "FILE:LINE", ...), the value and the range: "WHAT: 'VALUE' is not a
// whole number from MIN to MAX".
long long integer_in_range(std::string_view what, std::string_view text, long long min, long long max,
                           ExitCode code = ExitCode::usage);

template <std::integral T>
requires(sizeof(T) < sizeof(long long) || std::is_signed_v<T>) T
    integer_in_range(std::string_view what, std::string_view text, ExitCode code = ExitCode::usage) {
  return static_cast<T>(
      integer_in_range(what, text, std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), code));
}

// A finite number from min to max (by default any finite number), else an
// Error(code): "WHAT: 'VALUE' is not a number from MIN to MAX" (or "... a
// finite number").
double double_in_range(std::string_view what, std::string_view text, double min = std::numeric_limits<double>::lowest(),
                       double max = std::numeric_limits<double>::max(), ExitCode code = ExitCode::usage);

}  // namespace evalcli
