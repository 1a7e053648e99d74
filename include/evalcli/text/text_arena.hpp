#pragma once
// Texts that never move (interners keep views of them), stored in large
// blocks: a run sees tens of thousands of distinct words, and one allocation
// each would cost about as much to free at exit as to make, and scatter them.
#include <algorithm>
#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

namespace evalcli::text {

class TextArena {
 public:
  // A copy of `text` that stays valid as long as the arena.
  std::u32string_view store(std::u32string_view text) {
    if (blocks_.empty() || used_ + text.size() > capacity_) {
      capacity_ = std::max<std::size_t>(kBlock, text.size());
      blocks_.push_back(std::make_unique_for_overwrite<char32_t[]>(capacity_));
      used_ = 0;
    }
    char32_t* at = blocks_.back().get() + used_;
    std::copy(text.begin(), text.end(), at);
    used_ += text.size();
    return {at, text.size()};
  }

 private:
  static constexpr std::size_t kBlock = std::size_t{1} << 16;
  std::vector<std::unique_ptr<char32_t[]>> blocks_;
  std::size_t used_ = 0, capacity_ = 0;
};

}  // namespace evalcli::text
