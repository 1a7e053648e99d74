// Number formatting shared by the SacreBLEU/rouge-score outputs and KenLM's.
#include <catch2/catch.hpp>

#include "evalcli/core/format.hpp"

using evalcli::python_float_repr;
using evalcli::shortest_decimal;

TEST_CASE("shortest_decimal splits sign, shortest digits and exponent", "[format]") {
  const auto tenth = shortest_decimal(0.1);
  CHECK_FALSE(tenth.negative);
  CHECK(tenth.digits() == "1");
  CHECK(tenth.exponent == -1);

  const auto negative = shortest_decimal(-1234.5);
  CHECK(negative.negative);
  CHECK(negative.digits() == "12345");
  CHECK(negative.exponent == 3);

  // float keeps float's shortest digits, not those of the widened double
  const auto single = shortest_decimal(0.1F);
  CHECK(single.digits() == "1");
  CHECK(single.exponent == -1);
  CHECK(shortest_decimal(static_cast<double>(0.1F)).digits().size() > 1);

  CHECK(shortest_decimal(0.0).digits() == "0");
  CHECK(shortest_decimal(-0.0).negative);
}

TEST_CASE("python_float_repr prints what Python's repr(float) prints", "[format]") {
  // Expected strings are Python 3's repr of the same literals.
  CHECK(python_float_repr(29.0) == "29.0");
  CHECK(python_float_repr(1e-14) == "1e-14");
  CHECK(python_float_repr(1e16) == "1e+16");
  CHECK(python_float_repr(0.0001) == "0.0001");
  CHECK(python_float_repr(0.00001) == "1e-05");
  CHECK(python_float_repr(-3.5) == "-3.5");
  CHECK(python_float_repr(123456789012345.6) == "123456789012345.6");
  CHECK(python_float_repr(1e15) == "1000000000000000.0");
  CHECK(python_float_repr(0.1 + 0.2) == "0.30000000000000004");
  CHECK(python_float_repr(-0.0) == "-0.0");
  CHECK(python_float_repr(0.0) == "0.0");
}
