// numpy 1.24's SeedSequence, PCG64 and bounded integer sampling, re-implemented
// from the algorithm descriptions in ../shared/specs/sacrebleu.md §8.1.
#include "stats/numpy_rng.hpp"

#include <array>
#include <random>
#include <stdexcept>

namespace evalcli::stats {
namespace {

constexpr std::uint32_t kInitA = 0x43b0d7e5;
constexpr std::uint32_t kMultA = 0x931e8875;
constexpr std::uint32_t kInitB = 0x8b51f9dd;
constexpr std::uint32_t kMultB = 0x58f38ded;
constexpr std::uint32_t kMixMultL = 0xca01f9dd;
constexpr std::uint32_t kMixMultR = 0x4973f715;
constexpr int kXShift = 16;
constexpr std::size_t kPoolSize = 4;

// SeedSequence's hashmix: the hash constant runs on across calls.
struct HashMix {
  std::uint32_t constant = kInitA;
  std::uint32_t operator()(std::uint32_t value) {
    value ^= constant;
    constant *= kMultA;
    value *= constant;
    value ^= value >> kXShift;
    return value;
  }
};

std::uint32_t mix(std::uint32_t x, std::uint32_t y) {
  std::uint32_t result = kMixMultL * x - kMixMultR * y;
  result ^= result >> kXShift;
  return result;
}

std::array<std::uint32_t, kPoolSize> mix_entropy(const std::vector<std::uint32_t>& entropy) {
  std::array<std::uint32_t, kPoolSize> pool{};
  HashMix hashmix;
  for (std::size_t i = 0; i < kPoolSize; ++i) pool[i] = hashmix(i < entropy.size() ? entropy[i] : 0);
  for (std::size_t src = 0; src < kPoolSize; ++src) {
    for (std::size_t dst = 0; dst < kPoolSize; ++dst) {
      if (src != dst) pool[dst] = mix(pool[dst], hashmix(pool[src]));
    }
  }
  for (std::size_t src = kPoolSize; src < entropy.size(); ++src) {
    for (std::size_t dst = 0; dst < kPoolSize; ++dst) pool[dst] = mix(pool[dst], hashmix(entropy[src]));
  }
  return pool;
}

const unsigned __int128 kPcgMultiplier =
    (static_cast<unsigned __int128>(0x2360ed051fc65da4ULL) << 64) | 0x4385df649fccf645ULL;

}  // namespace

std::vector<std::uint32_t> seed_words(std::uint64_t seed) {
  std::vector<std::uint32_t> words;
  do {
    words.push_back(static_cast<std::uint32_t>(seed & 0xffffffffU));
    seed >>= 32;
  } while (seed != 0);
  return words;
}

std::vector<std::uint32_t> seed_sequence_state(const std::vector<std::uint32_t>& entropy, std::size_t n_words) {
  const auto pool = mix_entropy(entropy);
  std::vector<std::uint32_t> state(n_words);
  std::uint32_t constant = kInitB;
  for (std::size_t i = 0; i < n_words; ++i) {
    std::uint32_t value = pool[i % kPoolSize];
    value ^= constant;
    constant *= kMultB;
    value *= constant;
    value ^= value >> kXShift;
    state[i] = value;
  }
  return state;
}

std::vector<std::uint32_t> fresh_entropy() {
  std::random_device device;
  std::vector<std::uint32_t> entropy;
  for (int i = 0; i < 4; ++i) entropy.push_back(device());
  return entropy;
}

Pcg64::Pcg64(std::optional<std::uint64_t> seed) : Pcg64(seed ? seed_words(*seed) : fresh_entropy()) {}

Pcg64::Pcg64(const std::vector<std::uint32_t>& entropy) {
  const auto words = seed_sequence_state(entropy, 8);
  std::array<std::uint64_t, 4> u64{};
  for (std::size_t k = 0; k < 4; ++k) u64[k] = words[2 * k] | (static_cast<std::uint64_t>(words[2 * k + 1]) << 32);
  const unsigned __int128 initstate = (static_cast<unsigned __int128>(u64[0]) << 64) | u64[1];
  const unsigned __int128 initseq = (static_cast<unsigned __int128>(u64[2]) << 64) | u64[3];
  increment_ = (initseq << 1) | 1;
  state_ = 0;
  step();
  state_ += initstate;
  step();
}

void Pcg64::step() { state_ = state_ * kPcgMultiplier + increment_; }

std::uint64_t Pcg64::next64() {
  step();
  const auto high = static_cast<std::uint64_t>(state_ >> 64);
  const auto low = static_cast<std::uint64_t>(state_);
  const auto value = high ^ low;
  const unsigned rotation = static_cast<unsigned>(state_ >> 122);
  return (value >> rotation) | (value << ((64 - rotation) & 63));
}

std::uint32_t Pcg64::next32() {
  if (has_high_half_) {
    has_high_half_ = false;
    return high_half_;
  }
  const std::uint64_t value = next64();
  has_high_half_ = true;
  high_half_ = static_cast<std::uint32_t>(value >> 32);
  return static_cast<std::uint32_t>(value);
}

std::uint32_t Pcg64::bounded(std::uint32_t bound) {
  // numpy: rng = bound - 1; rng == 0 draws nothing; rng == 2^32-1 takes next32 as is.
  if (bound <= 1) return 0;
  std::uint64_t m = static_cast<std::uint64_t>(next32()) * bound;
  auto leftover = static_cast<std::uint32_t>(m);
  if (leftover < bound) {
    const std::uint32_t threshold = static_cast<std::uint32_t>(-bound) % bound;
    while (leftover < threshold) {
      m = static_cast<std::uint64_t>(next32()) * bound;
      leftover = static_cast<std::uint32_t>(m);
    }
  }
  return static_cast<std::uint32_t>(m >> 32);
}

void draw_bootstrap_indices(Pcg64& rng, std::size_t population, std::span<std::uint32_t> out) {
  if (population > 0xffffffffULL) throw std::length_error("bootstrap population must be below 2^32");
  const auto bound = static_cast<std::uint32_t>(population);
  for (auto& index : out) index = rng.bounded(bound);
}

void MaskDraws::draw(std::span<std::uint8_t> out) {
  for (auto& bit : out) {
    if (remaining_ == 0) {
      buffer_ = rng_.next32();
      remaining_ = 31;
    } else {
      buffer_ >>= 1;
      --remaining_;
    }
    bit = static_cast<std::uint8_t>(buffer_ & 1U);
  }
}

std::vector<std::uint32_t> bootstrap_indices(Pcg64& rng, std::size_t samples, std::size_t population) {
  std::vector<std::uint32_t> indices(samples * population);
  draw_bootstrap_indices(rng, population, indices);
  return indices;
}

std::vector<std::uint8_t> randomization_masks(Pcg64& rng, std::size_t trials, std::size_t population) {
  std::vector<std::uint8_t> masks(trials * population);
  MaskDraws(rng).draw(masks);
  return masks;
}

}  // namespace evalcli::stats
