#include "stats/numpy_rng.hpp"

#include <catch2/catch.hpp>

namespace evalcli::stats {

TEST_CASE("PCG64 seeded like numpy default_rng(12345)", "[stats][rng]") {
  Pcg64 rng(12345);
  CHECK(rng.next64() == 0x3a32b18db2ffc19dULL);  // spec §8.1
}

TEST_CASE("next32 hands out the low half, then the high half", "[stats][rng]") {
  Pcg64 a(7), b(7);
  const std::uint64_t whole = a.next64();
  CHECK(b.next32() == static_cast<std::uint32_t>(whole));
  CHECK(b.next32() == static_cast<std::uint32_t>(whole >> 32));
}

TEST_CASE("seed words are little-endian 32-bit pieces", "[stats][rng]") {
  CHECK(seed_words(0) == std::vector<std::uint32_t>{0});
  CHECK(seed_words(12345) == std::vector<std::uint32_t>{12345});
  CHECK(seed_words(0x100000002ULL) == std::vector<std::uint32_t>{2, 1});
}

TEST_CASE("a population of one draws nothing and yields zeros", "[stats][rng]") {
  Pcg64 a(1), b(1);
  const auto indices = bootstrap_indices(a, 3, 1);
  CHECK(indices == std::vector<std::uint32_t>{0, 0, 0});
  CHECK(a.next64() == b.next64());
}

TEST_CASE("bounded draws stay below the bound", "[stats][rng]") {
  Pcg64 rng(3);
  for (std::uint32_t bound : {2u, 3u, 5u, 1000u, 0x80000001u}) {
    for (int i = 0; i < 200; ++i) CHECK(rng.bounded(bound) < bound);
  }
}

TEST_CASE("unseeded generators differ", "[stats][rng]") {
  Pcg64 a(std::nullopt), b(std::nullopt);
  CHECK(a.next64() != b.next64());
}

// Blocks of any size continue one stream: drawing a matrix piece by piece
// (rows cut anywhere) gives numpy's whole-matrix draws.
TEST_CASE("bootstrap indices drawn in blocks equal the whole matrix", "[stats][rng]") {
  const std::size_t samples = 9, population = 37;
  Pcg64 whole_rng(2024), block_rng(2024);
  const auto whole = bootstrap_indices(whole_rng, samples, population);
  std::vector<std::uint32_t> pieces(whole.size());
  std::size_t at = 0;
  for (std::size_t block : {1u, 36u, 37u, 5u, 74u, 100u}) {
    draw_bootstrap_indices(block_rng, population, std::span<std::uint32_t>(pieces).subspan(at, block));
    at += block;
  }
  draw_bootstrap_indices(block_rng, population, std::span<std::uint32_t>(pieces).subspan(at));
  CHECK(pieces == whole);
  CHECK(block_rng.next64() == whole_rng.next64());
}

TEST_CASE("randomization masks drawn in blocks keep the bit buffer across blocks", "[stats][rng]") {
  const std::size_t trials = 7, population = 45;  // rows that do not end on a 32-bit draw
  Pcg64 whole_rng(99), block_rng(99);
  const auto whole = randomization_masks(whole_rng, trials, population);
  MaskDraws draws(block_rng);
  std::vector<std::uint8_t> pieces(whole.size());
  std::size_t at = 0;
  for (std::size_t block : {3u, 45u, 31u, 1u, 64u}) {
    draws.draw(std::span<std::uint8_t>(pieces).subspan(at, block));
    at += block;
  }
  draws.draw(std::span<std::uint8_t>(pieces).subspan(at));
  CHECK(pieces == whole);
  CHECK(block_rng.next64() == whole_rng.next64());
}

}  // namespace evalcli::stats
