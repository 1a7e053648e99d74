#pragma once
// numpy's `default_rng(seed)` (numpy 1.24: SeedSequence + PCG64), re-implemented
// so bootstrap resamples and randomisation masks are the very draws SacreBLEU
// makes (../shared/specs/sacrebleu.md §8.1). Only what SacreBLEU uses is here:
// `choice(N, size=(n, N))` and `integers(2, size=(n, N), dtype=bool)`.
#include <cstdint>
#include <optional>
#include <vector>

namespace evalcli::stats {

// SeedSequence(entropy).generate_state(n_words) for a non-negative integer seed.
std::vector<std::uint32_t> seed_sequence_state(const std::vector<std::uint32_t>& entropy, std::size_t n_words);

// The seed as numpy's SeedSequence sees it: little-endian 32-bit words.
std::vector<std::uint32_t> seed_words(std::uint64_t seed);

class Pcg64 {
 public:
  // default_rng(seed); an empty seed takes 128 bits from std::random_device,
  // as numpy takes fresh OS entropy for default_rng(None).
  explicit Pcg64(std::optional<std::uint64_t> seed);

  std::uint64_t next64();
  // numpy's next_uint32: the low half of a fresh 64-bit draw, then its high half.
  std::uint32_t next32();
  // Generator.integers(0, bound) element for bound < 2^32 (Lemire, buffered 32-bit draws).
  std::uint32_t bounded(std::uint32_t bound);

 private:
  void step();
  unsigned __int128 state_ = 0;
  unsigned __int128 increment_ = 0;
  bool has_high_half_ = false;
  std::uint32_t high_half_ = 0;
};

// rng.choice(population, size=(samples, population)): row-major indices.
std::vector<std::uint32_t> bootstrap_indices(Pcg64& rng, std::size_t samples, std::size_t population);

// rng.integers(2, size=(trials, population), dtype=bool): row-major 0/1 values.
std::vector<std::uint8_t> randomization_masks(Pcg64& rng, std::size_t trials, std::size_t population);

}  // namespace evalcli::stats
