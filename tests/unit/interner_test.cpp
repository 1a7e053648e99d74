// The id tables behind BLEU's and chrF's n-gram counting.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "evalcli/text/detail/pair_interner.hpp"
#include "evalcli/text/detail/prefix_pair_interner.hpp"
#include "evalcli/text/detail/string_interner.hpp"

using evalcli::text::PairInterner;
using evalcli::text::PrefixPairInterner;
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

TEST_CASE("PrefixPairInterner numbers pairs from first_id and keeps a prefix's other continuations", "[interner]") {
  PrefixPairInterner interner;
  interner.clear(3, 6);
  CHECK(interner.id(0, 1) == 3);
  CHECK(interner.id(0, 2) == 4);  // a second continuation of prefix 0: the hash table
  CHECK(interner.id(0, 1) == 3);
  CHECK(interner.id(0, 2) == 4);
  CHECK(interner.id(4, 0) == 5);  // an n-gram id as prefix
  CHECK(interner.find(0, 2) == 4);
  CHECK(interner.find(0, 0) == PrefixPairInterner::kAbsent);
  CHECK(interner.find(1, 0) == PrefixPairInterner::kAbsent);  // a prefix without continuations
  CHECK(interner.find(5, 0) == PrefixPairInterner::kAbsent);
  CHECK(interner.next_id() == 6);
  interner.clear(0, 2);
  CHECK(interner.find(0, 1) == PrefixPairInterner::kAbsent);
  CHECK(interner.id(0, 1) == 0);
}

TEST_CASE("PrefixPairInterner gives the ids and answers of a PairInterner on BLEU's n-gram walks", "[interner]") {
  // Sentences over a few words, so prefixes often have several continuations.
  std::mt19937 random(20261204);
  std::uniform_int_distribution<std::uint32_t> vocabulary_size(1, 12);
  std::uniform_int_distribution<std::size_t> length(0, 40), order(1, 6);
  PairInterner expected;
  PrefixPairInterner interner;
  for (int sentence = 0; sentence < 3000; ++sentence) {
    std::uniform_int_distribution<std::uint32_t> word(0, vocabulary_size(random) - 1);
    std::vector<std::uint32_t> hyp(length(random)), ref(length(random));
    for (auto& token : hyp) token = word(random);
    for (auto& token : ref) token = word(random);
    const std::size_t max_order = order(random);
    const std::uint32_t first_id = 12;  // ids above every token
    expected.clear(first_id);
    interner.clear(first_id, hyp.size() * (max_order - 1));
    std::vector<std::uint32_t> expected_ids(hyp), ids(hyp);
    for (std::size_t n = 2; n <= max_order; ++n) {
      for (std::size_t i = 0; i + n <= hyp.size(); ++i) {
        expected_ids[i] = expected.id(expected_ids[i], hyp[i + n - 1]);
        ids[i] = interner.id(ids[i], hyp[i + n - 1]);
        REQUIRE(ids[i] == expected_ids[i]);
      }
    }
    REQUIRE(interner.next_id() == expected.next_id());
    // Look-ups of reference n-grams, present or not, whose prefix is known.
    std::vector<std::uint32_t> current(ref);
    for (std::size_t n = 2; n <= max_order; ++n) {
      for (std::size_t i = 0; i + n <= ref.size(); ++i) {
        if (current[i] == PairInterner::kAbsent) continue;
        const std::uint32_t found = interner.find(current[i], ref[i + n - 1]);
        REQUIRE(found == expected.find(current[i], ref[i + n - 1]));
        current[i] = found;
      }
    }
  }
}

TEST_CASE("TextHash fed one code point at a time equals TextHash::of and tells short strings apart", "[interner]") {
  using evalcli::text::TextHash;
  // Every string of 1 to 3 code points over 40 (ASCII, Latin, CJK, an emoji, U+0000): 65,640
  // strings, anagrams included; a 48-bit hash with no structure collides here with odds of 1e-5.
  std::u32string alphabet = U"abcdefghijklmnopqrstuvwxyz0123456789";
  alphabet += U'\u00E9';
  alphabet += U'\u4E2D';
  alphabet += U'\U0001F600';
  alphabet += U'\0';
  std::vector<std::uint64_t> hashes;
  std::u32string text;
  const auto visit = [&](const std::u32string& s) {
    TextHash incremental;
    for (const char32_t c : s) incremental.add(c);
    CHECK(incremental.value() == TextHash::of(s));
    hashes.push_back(TextHash::of(s));
  };
  for (const char32_t a : alphabet) {
    visit(std::u32string(1, a));
    for (const char32_t b : alphabet) {
      visit(std::u32string{a, b});
      for (const char32_t c : alphabet) visit(std::u32string{a, b, c});
    }
  }
  REQUIRE(hashes.size() == 40 + 40 * 40 + 40 * 40 * 40);
  std::sort(hashes.begin(), hashes.end());
  CHECK(std::adjacent_find(hashes.begin(), hashes.end()) == hashes.end());
  CHECK(TextHash::of(U"") != TextHash::of(std::u32string(1, U'\0')));  // a U+0000 still changes the hash
}
