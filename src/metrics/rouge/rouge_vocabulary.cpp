// TokenVocabulary: token interning and the stem memo both ROUGE modes use.
#include "evalcli/metrics/rouge.hpp"

namespace evalcli {
namespace {

std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

}  // namespace

// A slot holds id + 1 in its low 32 bits (0 = empty) and the high 32 bits
// of the token's hash, so most probes never touch the token text.
int TokenVocabulary::intern(std::string_view token) {
  if (token.size() <= 7) {
    // Short tokens (most words) are their own key: no text comparison.
    std::uint64_t key = static_cast<std::uint64_t>(token.size()) << 56;
    for (std::size_t k = 0; k < token.size(); ++k) key |= static_cast<std::uint64_t>(static_cast<unsigned char>(token[k])) << (8 * k);
    if (short_slots_.empty()) short_slots_.assign(1024, ShortSlot{});
    std::size_t mask = short_slots_.size() - 1;
    std::size_t slot = static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> 40) & mask;
    while (short_slots_[slot].key != 0) {
      if (short_slots_[slot].key == key) return short_slots_[slot].id;
      slot = (slot + 1) & mask;
    }
    const int id = intern_long(token);
    short_slots_[slot] = {key, id};
    if (2 * ++short_count_ > short_slots_.size()) {
      std::vector<ShortSlot> old(2 * short_slots_.size());
      old.swap(short_slots_);
      mask = short_slots_.size() - 1;
      for (const auto& entry : old) {
        if (entry.key == 0) continue;
        slot = static_cast<std::size_t>((entry.key * 0x9E3779B97F4A7C15ULL) >> 40) & mask;
        while (short_slots_[slot].key != 0) slot = (slot + 1) & mask;
        short_slots_[slot] = entry;
      }
    }
    return id;
  }
  return intern_long(token);
}

int TokenVocabulary::intern_long(std::string_view token) {
  if (slots_.empty()) slots_.assign(1024, 0);
  const std::uint64_t hash = fnv1a(token);
  const std::uint64_t tag = hash & 0xFFFFFFFF00000000ULL;
  const std::size_t mask = slots_.size() - 1;
  std::size_t slot = static_cast<std::size_t>(hash ^ (hash >> 29)) & mask;
  while (slots_[slot] != 0) {
    if ((slots_[slot] & 0xFFFFFFFF00000000ULL) == tag) {
      const int id = static_cast<int>((slots_[slot] & 0xFFFFFFFFULL) - 1);
      if (text(id) == token) return id;
    }
    slot = (slot + 1) & mask;
  }
  const int id = static_cast<int>(offsets_.size());
  offsets_.push_back(static_cast<std::uint32_t>(arena_.size()));
  lengths_.push_back(static_cast<std::uint32_t>(token.size()));
  hashes_.push_back(hash);
  stems_.push_back(-1);
  arena_.append(token);
  slots_[slot] = tag | static_cast<std::uint64_t>(id + 1);
  if (2 * offsets_.size() > slots_.size()) grow_slots();
  return id;
}

void TokenVocabulary::grow_slots() {
  slots_.assign(2 * slots_.size(), 0);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t id = 0; id < offsets_.size(); ++id) {
    const std::uint64_t hash = hashes_[id];
    std::size_t slot = static_cast<std::size_t>(hash ^ (hash >> 29)) & mask;
    while (slots_[slot] != 0) slot = (slot + 1) & mask;
    slots_[slot] = (hash & 0xFFFFFFFF00000000ULL) | static_cast<std::uint64_t>(id + 1);
  }
}

std::string_view TokenVocabulary::text(int id) const {
  const auto i = static_cast<std::size_t>(id);
  return std::string_view(arena_).substr(offsets_[i], lengths_[i]);
}

std::uint64_t TokenVocabulary::next_owner_id() {
  static std::atomic<std::uint64_t> next{1};
  return next++;
}

}  // namespace evalcli
