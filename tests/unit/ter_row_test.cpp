// TER's edit-distance row (metrics/ter_row.hpp): the dispatched version (AVX2
// where the CPU has it) equals the plain loop cell for cell, costs and moves, on random rows
// with cells outside the band (inf), runs of equal words and every length
// around the eight-cell step.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "metrics/ter_row.hpp"

TEST_CASE("TER edit-distance row equals the plain loop on random rows", "[ter]") {
  constexpr std::int32_t kInf = 1 << 29;
  std::mt19937 random(20261207);
  std::size_t cells = 0;
  std::size_t moves[5] = {};  // cells by move: undefined, match, substitution, insertion, deletion
  for (int trial = 0; trial < 20000; ++trial) {
    const std::size_t width = 1 + random() % 70;
    std::vector<std::int32_t> prev(width + 1);
    std::vector<std::uint32_t> ref(width);
    // Four kinds of rows: costs near each other (ties between the three
    // moves); a row above far costlier than the cell on the left (every cell
    // comes from the left, as many as 70 steps); a row mostly outside the
    // band; and the cell on the left outside it.
    const int kind = trial % 4;
    const std::int32_t base = static_cast<std::int32_t>(random() % 40);
    const std::int32_t above = kind == 1 ? base + 80 : base;
    const unsigned outside_one_in = kind == 2 ? 2 : 9;
    for (auto& cost : prev) {
      cost = random() % outside_one_in == 0 ? kInf : above + static_cast<std::int32_t>(random() % 6);
    }
    for (auto& id : ref) id = static_cast<std::uint32_t>(random() % 4);
    const auto word = static_cast<std::uint32_t>(random() % 4);
    const std::size_t first = 1 + random() % width;
    const std::size_t end = first + random() % (width + 1 - first + 1);
    const std::int32_t left = kind == 3 ? kInf : base + static_cast<std::int32_t>(random() % 6);
    std::vector<std::int32_t> ours(width + 1, -7), plain(width + 1, -7);
    const std::int32_t ours_last =
        evalcli::detail::edit_row_costs(prev.data(), ours.data(), ref.data(), word, first, end, left, kInf);
    const std::int32_t plain_last =
        evalcli::detail::edit_row_costs_plain(prev.data(), plain.data(), ref.data(), word, first, end, left, kInf);
    INFO("trial " << trial << ": cells [" << first << ", " << end << ")");
    REQUIRE(ours == plain);  // cells outside [first, end) untouched by both
    REQUIRE(ours_last == plain_last);
    // With each cell's move as well (the trace of the hypothesis' own DP).
    std::vector<std::int32_t> ours_with_ops(width + 1, -7), plain_with_ops(width + 1, -7);
    std::vector<std::uint8_t> ours_ops(width + 1, 99), plain_ops(width + 1, 99);
    const std::int32_t ours_with_ops_last = evalcli::detail::edit_row_costs_and_ops(
        prev.data(), ours_with_ops.data(), ours_ops.data(), ref.data(), word, first, end, left, kInf);
    const std::int32_t plain_with_ops_last = evalcli::detail::edit_row_costs_and_ops_plain(
        prev.data(), plain_with_ops.data(), plain_ops.data(), ref.data(), word, first, end, left, kInf);
    REQUIRE(plain_with_ops == plain);
    REQUIRE(ours_with_ops == plain);
    REQUIRE(ours_ops == plain_ops);
    REQUIRE(ours_with_ops_last == plain_last);
    REQUIRE(plain_with_ops_last == plain_last);
    for (std::size_t j = first; j < end; ++j) ++moves[plain_ops[j]];
    cells += end - first;
  }
  CHECK(cells > 150000);
  for (const std::size_t count : moves) CHECK(count > 20);  // every move occurs (undefined, the rarest: 58)
}

TEST_CASE("TER edit-distance row: a worked example", "[ter]") {
  // prev = row 1 of "a b" against "a b c": [1, 0, 1, 2]; row 2 for word "b".
  const std::vector<std::int32_t> prev = {1, 0, 1, 2};
  const std::vector<std::uint32_t> ref = {0, 1, 2};  // a b c
  std::vector<std::int32_t> cur(4, 0);
  cur[0] = 2;
  const std::int32_t last = evalcli::detail::edit_row_costs(prev.data(), cur.data(), ref.data(), 1, 1, 4, 2, 1 << 29);
  CHECK(cur == std::vector<std::int32_t>{2, 1, 0, 1});
  CHECK(last == 1);
}
