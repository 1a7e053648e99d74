#include <catch2/catch.hpp>

#include <cstdint>

#include "evalcli/core/huge_pages.hpp"

using namespace evalcli;

TEST_CASE("map_zeroed_huge: zeroed, writable, at a 2 MiB boundary", "[memory]") {
  for (const std::size_t bytes : {std::size_t{1}, std::size_t{4096}, std::size_t{4097}, memory::kHugePage,
                                  memory::kHugePage * 3 / 2}) {
    auto* data = static_cast<unsigned char*>(memory::map_zeroed_huge(bytes));
    CHECK(reinterpret_cast<std::uintptr_t>(data) % memory::kHugePage == 0);
    bool all_zero = true;
    for (std::size_t i = 0; i < bytes; i += 997) all_zero = all_zero && data[i] == 0;
    CHECK(all_zero);
    CHECK(data[bytes - 1] == 0);
    data[0] = 1;
    data[bytes - 1] = 2;  // the whole length is writable
    CHECK(data[bytes - 1] == 2);
    memory::unmap_zeroed_huge(data, bytes);
  }
}
