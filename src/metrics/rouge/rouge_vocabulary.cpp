// TokenVocabulary: token interning and the stem memo both ROUGE modes use.
#include <atomic>

#include "evalcli/core/detail/string_hash.hpp"
#include "metrics/rouge/token_vocabulary.hpp"

namespace evalcli {

int TokenVocabulary::intern(std::string_view token) {
  bool inserted = false;
  if (token.size() <= 7) {
    std::uint64_t key = (std::uint64_t{1} << 63) | (static_cast<std::uint64_t>(token.size()) << 56);
    for (std::size_t k = 0; k < token.size(); ++k) key |= static_cast<std::uint64_t>(static_cast<unsigned char>(token[k])) << (8 * k);
    Slot& slot = short_tokens_.find_or_insert(Slot{key, static_cast<int>(size())}, inserted);
    if (inserted) add(token);
    return slot.id;
  }
  const auto same_text = [&](const Slot& slot) { return text(slot.id) == token; };
  const int id = long_tokens_.find_or_insert(Slot{detail::hash_bytes(token), static_cast<int>(size())}, same_text, inserted).id;
  if (inserted) add(token);
  return id;
}

void TokenVocabulary::add(std::string_view token) {
  offsets_.push_back(static_cast<std::uint32_t>(arena_.size()));
  lengths_.push_back(static_cast<std::uint32_t>(token.size()));
  stems_.push_back(-1);
  arena_.append(token);
}

std::string_view TokenVocabulary::text(int id) const {
  const auto i = static_cast<std::size_t>(id);
  return std::string_view(arena_).substr(offsets_[i], lengths_[i]);
}

std::uint64_t next_stem_owner_id() {
  static std::atomic<std::uint64_t> next{1};
  return next++;
}

}  // namespace evalcli
