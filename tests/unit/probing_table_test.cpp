// The one open-addressing hash table (src/core/probing_table.hpp) behind the
// interners, CIDEr's n-gram table, the ARPA model and ROUGE's vocabulary.
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "evalcli/core/detail/probing_table.hpp"
#include "evalcli/core/detail/string_hash.hpp"

using evalcli::detail::ProbingTable;

namespace {

struct PlainSlot {
  std::uint64_t key;  // 0 = empty
  std::uint32_t value;
};
struct StampedSlot {
  std::uint64_t key;
  std::uint32_t value, stamp;
};

}  // namespace

TEST_CASE("ProbingTable finds what it holds and nothing else, across growth", "[probing_table]") {
  ProbingTable<PlainSlot> table(75);
  std::mt19937_64 random(7);
  std::map<std::uint64_t, std::uint32_t> expected;
  for (std::uint32_t i = 0; i < 20000; ++i) {
    const std::uint64_t key = random() | 1;
    bool inserted = false;
    const std::uint32_t value = table.find_or_insert(PlainSlot{key, i}, inserted).value;
    const bool fresh = expected.emplace(key, i).second;
    REQUIRE(inserted == fresh);
    REQUIRE(value == expected[key]);
  }
  CHECK(table.size() == expected.size());
  CHECK(table.size() * 100 <= table.capacity() * 75);
  for (const auto& [key, value] : expected) {
    const PlainSlot* slot = table.find(key);
    REQUIRE(slot != nullptr);
    REQUIRE(slot->value == value);
  }
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t key = random() | 1;
    if (!expected.contains(key)) REQUIRE(table.find(key) == nullptr);
  }
}

TEST_CASE("ProbingTable holds room() keys before an insertion grows it", "[probing_table]") {
  for (const unsigned load : {50u, 75u}) {
    ProbingTable<PlainSlot> table(load);
    table.reserve(1000);
    const std::size_t capacity = table.capacity(), room = table.room();
    CHECK(room >= 1000);
    bool inserted = false;
    for (std::uint64_t key = 1; key <= room; ++key) table.find_or_insert(PlainSlot{key * 2654435761u, 0}, inserted);
    CHECK(table.capacity() == capacity);
    table.find_or_insert(PlainSlot{(room + 1) * 2654435761u, 0}, inserted);
    CHECK(table.capacity() > capacity);
  }
}

TEST_CASE("ProbingTable keeps every inserted value when keys crowd one home slot", "[probing_table]") {
  // Sequential keys (packed id pairs) are the common case; a bad mixer would
  // pile them up. Every one must still be found after the Robin Hood moves.
  ProbingTable<PlainSlot> table(90);
  table.reserve(4000);
  const std::size_t capacity = table.capacity();
  for (std::uint32_t i = 1; i <= 4000; ++i) {
    bool inserted = false;
    table.find_or_insert(PlainSlot{i, i * 3}, inserted);
    REQUIRE(inserted);
  }
  CHECK(table.capacity() == capacity);  // reserve made room: no growth
  for (std::uint32_t i = 1; i <= 4000; ++i) {
    const PlainSlot* slot = table.find(i);
    REQUIRE(slot != nullptr);
    REQUIRE(slot->value == i * 3);
  }
  CHECK(table.find(4001) == nullptr);
}

TEST_CASE("ProbingTable tells apart equal hashes by the `same` predicate", "[probing_table]") {
  // All three strings get one key: only the predicate separates them.
  ProbingTable<PlainSlot> table;
  const std::vector<std::string> words = {"Haus", "haus", "house"};
  const auto same_as = [&](const std::string& word) {
    return [&words, word](const PlainSlot& slot) { return words[slot.value] == word; };
  };
  for (std::uint32_t i = 0; i < words.size(); ++i) {
    bool inserted = false;
    const PlainSlot& slot = table.find_or_insert(PlainSlot{42, i}, same_as(words[i]), inserted);
    REQUIRE(inserted);
    REQUIRE(slot.value == i);
  }
  bool inserted = true;
  CHECK(table.find_or_insert(PlainSlot{42, 9}, same_as("haus"), inserted).value == 1);
  CHECK_FALSE(inserted);
  CHECK(table.find(42, same_as("HOUSE")) == nullptr);
  CHECK(table.find(42, same_as("house"))->value == 2);
}

TEST_CASE("ProbingTable with stamped slots clears in place and allows key 0", "[probing_table]") {
  ProbingTable<StampedSlot> table;
  bool inserted = false;
  table.find_or_insert(StampedSlot{0, 5, 0}, inserted);
  CHECK(inserted);
  CHECK(table.find(0)->value == 5);
  for (std::uint32_t round = 0; round < 3; ++round) {
    table.clear();
    CHECK(table.size() == 0);
    CHECK(table.find(0) == nullptr);
    for (std::uint64_t key = 0; key < 100; ++key) table.find_or_insert(StampedSlot{key, round, 0}, inserted);
    CHECK(table.find(99)->value == round);
  }
}

TEST_CASE("ProbingTable moves its contents, leaving an empty table", "[probing_table]") {
  ProbingTable<PlainSlot> from;
  bool inserted = false;
  from.find_or_insert(PlainSlot{17, 1}, inserted);
  ProbingTable<PlainSlot> to = std::move(from);
  CHECK(to.find(17)->value == 1);
  from = ProbingTable<PlainSlot>();
  CHECK(from.find(17) == nullptr);
  from.find_or_insert(PlainSlot{18, 2}, inserted);
  CHECK(from.find(18)->value == 2);
}

TEST_CASE("hash_bytes is never 0 and tells apart strings that differ in one byte", "[probing_table]") {
  std::vector<std::string> words = {"", "a", "b", "ab", "ba", "abc", "abcd", "abce", "abcdefgh", "abcdefgi",
                                    "abcdefghijklmnopq", "abcdefghijklmnopr", std::string(3, '\0'), std::string(4, '\0')};
  std::map<std::uint64_t, std::string> seen;
  for (const std::string& word : words) {
    const std::uint64_t hash = evalcli::detail::hash_bytes(word);
    CHECK(hash != 0);
    CHECK(seen.emplace(hash, word).second);
  }
}
