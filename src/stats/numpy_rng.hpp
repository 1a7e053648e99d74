#pragma once
// numpy's `default_rng(seed)` (numpy 1.24: SeedSequence + PCG64), re-implemented
// so bootstrap resamples and randomisation masks are the very draws SacreBLEU
// makes (../shared/specs/sacrebleu.md §8.1). Only what SacreBLEU uses is here:
// `choice(N, size=(n, N))` and `integers(2, size=(n, N), dtype=bool)`, both
// drawable in blocks of any size with the same stream as one whole-matrix call.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace evalcli::stats {

// SeedSequence(entropy).generate_state(n_words) for a non-negative integer seed.
std::vector<std::uint32_t> seed_sequence_state(const std::vector<std::uint32_t>& entropy, std::size_t n_words);

// The seed as numpy's SeedSequence sees it: little-endian 32-bit words.
std::vector<std::uint32_t> seed_words(std::uint64_t seed);

// 128 bits from std::random_device, as numpy's SeedSequence(None) takes fresh OS entropy.
std::vector<std::uint32_t> fresh_entropy();

class Pcg64 {
 public:
  // default_rng(seed); an empty seed takes fresh_entropy().
  explicit Pcg64(std::optional<std::uint64_t> seed);
  // default_rng(SeedSequence(entropy)): seed_words() of a seed, or fresh_entropy()
  // kept to start several generators on the same unseeded stream.
  explicit Pcg64(const std::vector<std::uint32_t>& entropy);

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

// rng.choice(population, size=(samples, population)), drawn a block at a time:
// numpy fills the whole matrix row-major from one stream (the buffered 32-bit
// half lives in the generator), so consecutive calls continue it exactly.
// Fills `out` with the next out.size() indices.
void draw_bootstrap_indices(Pcg64& rng, std::size_t population, std::span<std::uint32_t> out);

// rng.integers(2, size=(trials, population), dtype=bool), drawn a block at a
// time. numpy's bool fill takes a 32-bit draw per 32 values (LSB first) with a
// bit buffer that runs on across rows, so the buffer is kept here between calls.
class MaskDraws {
 public:
  explicit MaskDraws(Pcg64& rng) : rng_(rng) {}
  // Fills `out` with the next out.size() values (0 or 1).
  void draw(std::span<std::uint8_t> out);

 private:
  Pcg64& rng_;
  std::uint32_t buffer_ = 0;
  int remaining_ = 0;
};

// The whole matrices at once (tests, small draws): row-major indices, 0/1 values.
std::vector<std::uint32_t> bootstrap_indices(Pcg64& rng, std::size_t samples, std::size_t population);
std::vector<std::uint8_t> randomization_masks(Pcg64& rng, std::size_t trials, std::size_t population);

}  // namespace evalcli::stats
