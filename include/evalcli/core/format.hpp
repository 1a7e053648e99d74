#pragma once
// Number formatting that matches Python, so printed output is byte-identical.
#include <string>

namespace evalcli {

// Python's "%.{decimals}f" (correctly rounded, round-half-even on the exact binary value).
std::string format_fixed(double value, int decimals);

// Python's repr(float): shortest round-trip digits, "29.0", "1e-14", "1e+16".
std::string python_float_repr(double value);

// Python's round(value, decimals) (correctly rounded through decimal).
double python_round(double value, int decimals);

}  // namespace evalcli
