#pragma once
// One row of TER's banded edit distance, costs only (the shift search
// computes millions of them): for j in [first, end),
//   cur[j] = min(inf, prev[j-1] + (word != ref[j-1]), prev[j] + 1, cur[j-1] + 1),
// with cur[first-1] = left on entry (first >= 1). Returns cur[end-1], or
// `left` when the range is empty.
//
// The left-to-right chain is a prefix minimum: cur[j] is the least over
// k <= j of t[k] + (j - k), t[k] being the first three terms. With AVX2,
// eight cells per step: their t's at once, then the prefix minimum across
// lanes in three shifted steps (by 1, 2 and 4 lanes) and the cell before
// them; the same integers, so the same result as the plain loop.
#include <cstddef>
#include <cstdint>

namespace evalcli::detail {

// The move that reached a cell; ties prefer match/substitution, then
// deletion, then insertion (kUndefined: no move below `inf`).
enum TerOp : std::uint8_t { kTerUndefined, kTerNop, kTerSub, kTerIns, kTerDel };

std::int32_t edit_row_costs(const std::int32_t* prev, std::int32_t* cur, const std::uint32_t* ref,
                            std::uint32_t word, std::size_t first, std::size_t end, std::int32_t left,
                            std::int32_t inf);

// The plain loop, whatever the CPU (the definition the tests compare against).
std::int32_t edit_row_costs_plain(const std::int32_t* prev, std::int32_t* cur, const std::uint32_t* ref,
                                  std::uint32_t word, std::size_t first, std::size_t end, std::int32_t left,
                                  std::int32_t inf);

// The same, also writing each cell's move: ops[j] for j in [first, end).
std::int32_t edit_row_costs_and_ops(const std::int32_t* prev, std::int32_t* cur, std::uint8_t* ops,
                                    const std::uint32_t* ref, std::uint32_t word, std::size_t first,
                                    std::size_t end, std::int32_t left, std::int32_t inf);
std::int32_t edit_row_costs_and_ops_plain(const std::int32_t* prev, std::int32_t* cur, std::uint8_t* ops,
                                          const std::uint32_t* ref, std::uint32_t word, std::size_t first,
                                          std::size_t end, std::int32_t left, std::int32_t inf);

}  // namespace evalcli::detail
