#pragma once
// Digests of int64 buffers for tests that compare SHA-256 values stored in goldens.
#include <cstdint>
#include <string>
#include <vector>

#include "evalcli/core/sha256.hpp"

namespace evalcli::test {

// SHA-256 of values written as little-endian int64 (numpy's int64/bool->int64 buffers).
template <typename Int>
std::string sha256_of_int64(const std::vector<Int>& values) {
  std::string bytes;
  bytes.reserve(values.size() * 8);
  for (Int value : values) {
    const auto wide = static_cast<std::uint64_t>(static_cast<std::int64_t>(value));
    for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<char>(wide >> (8 * i)));
  }
  return sha256_hex(bytes);
}

}  // namespace evalcli::test
