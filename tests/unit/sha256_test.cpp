#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <string_view>

#include "evalcli/core/sha256.hpp"

TEST_CASE("sha256 matches FIPS 180-4 test vectors", "[sha256]") {
  CHECK(evalcli::sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(evalcli::sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(evalcli::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(evalcli::sha256_hex(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("sha256 with the CPU's SHA extensions (where it has them) equals the portable code at every length", "[sha256]") {
  std::string bytes;
  std::uint32_t state = 12345;
  for (int i = 0; i < 4096 + 100; ++i) {
    state = state * 1664525u + 1013904223u;
    bytes.push_back(static_cast<char>(state >> 24));
  }
  for (std::size_t length = 0; length <= 300; ++length) {
    INFO("length " << length);
    REQUIRE(evalcli::sha256_hex(std::string_view(bytes).substr(0, length)) ==
            evalcli::detail::sha256_hex_portable(std::string_view(bytes).substr(0, length)));
  }
  CHECK(evalcli::sha256_hex(bytes) == evalcli::detail::sha256_hex_portable(bytes));
  CHECK(evalcli::detail::sha256_hex_portable(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
