// The id tables behind BLEU's and chrF's n-gram counting.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "evalcli/text/detail/pair_interner.hpp"
#include "evalcli/text/detail/string_interner.hpp"

using evalcli::text::PairInterner;
using evalcli::text::StringInterner;

TEST_CASE("StringInterner gives equal strings one id and distinct strings dense ids", "[interner]") {
  StringInterner interner;
  interner.clear();
  const std::u32string a = U"Haus", b = U"haus", a_again = U"Haus";
  CHECK(interner.id(a) == 0);
  CHECK(interner.id(b) == 1);
  CHECK(interner.id(a_again) == 0);  // another buffer, same text
  CHECK(interner.find(U"Haus") == 0);
  CHECK(interner.find(U"Hau") == StringInterner::kAbsent);
  CHECK(interner.size() == 2);
  interner.clear();
  CHECK(interner.find(a) == StringInterner::kAbsent);
  CHECK(interner.id(b) == 0);
}

TEST_CASE("StringInterner keeps ids when it grows", "[interner]") {
  StringInterner interner;
  interner.clear();
  std::vector<std::u32string> words;
  for (int i = 0; i < 5000; ++i) words.push_back(U"w" + std::u32string(1, static_cast<char32_t>(0x4E00 + i)));
  for (std::size_t i = 0; i < words.size(); ++i) REQUIRE(interner.id(words[i]) == i);
  for (std::size_t i = 0; i < words.size(); ++i) REQUIRE(interner.find(words[i]) == i);
}

TEST_CASE("PairInterner numbers pairs from first_id and tells them apart exactly", "[interner]") {
  PairInterner interner;
  interner.clear(10);
  interner.reserve(4);
  CHECK(interner.id(1, 2) == 10);
  CHECK(interner.id(2, 1) == 11);  // order matters
  CHECK(interner.id(1, 2) == 10);
  CHECK(interner.find(2, 1) == 11);
  CHECK(interner.find(1, 1) == PairInterner::kAbsent);
  CHECK(interner.next_id() == 12);
  interner.clear();
  CHECK(interner.find(1, 2) == PairInterner::kAbsent);
  interner.reserve(20000);
  for (std::uint32_t i = 0; i < 20000; ++i) REQUIRE(interner.id(i, i + 1) == i);
  for (std::uint32_t i = 0; i < 20000; ++i) REQUIRE(interner.find(i, i + 1) == i);
}
