// mteval-v14 "international" tokenization as SacreBLEU's TokenizerV14International:
// punctuation next to a non-number and every symbol are separated
// (Unicode general categories from ICU, Unicode 15 like python3-regex).
#include <array>
#include <atomic>
#include <cstdint>

#include "evalcli/text/unicode.hpp"
#include "evalcli/tokenize/builtin_tokenizers.hpp"
#include "tokenize/rule_chain.hpp"

namespace evalcli::tokenizers {
namespace {

// The three general categories the rules test (N, P, S), read from ICU once
// per block of 256 code points below U+10000, when a character of the block
// is first looked up. The rules test each character up to five times; a call
// into ICU for each test was half of `bleu -tok intl`'s time. (A table of the
// whole BMP, made at once, cost a millisecond at each start.)
class CategoryTable {
 public:
  static constexpr std::uint8_t kNumber = 1, kPunctuation = 2, kSymbol = 4;

  // Never destroyed (nor its blocks): a thread still tokenizing while the
  // process exits (a Python interpreter's) must not find it freed.
  static const CategoryTable& instance() {
    static const CategoryTable* const table = new CategoryTable;
    return *table;
  }

  std::uint8_t of(char32_t c) const {
    if (c >= kBlocks * kBlockSize) return from_icu(c);
    const std::uint8_t* block = blocks_[c / kBlockSize].load(std::memory_order_acquire);
    if (block == nullptr) block = read_block(c / kBlockSize);
    return block[c % kBlockSize];
  }
  bool number(char32_t c) const { return (of(c) & kNumber) != 0; }
  bool punctuation(char32_t c) const { return (of(c) & kPunctuation) != 0; }
  bool symbol(char32_t c) const { return (of(c) & kSymbol) != 0; }

 private:
  static constexpr std::size_t kBlockSize = 256, kBlocks = 256;

  CategoryTable() = default;

  static std::uint8_t from_icu(char32_t c) {
    return static_cast<std::uint8_t>((text::is_number(c) ? kNumber : 0) | (text::is_punctuation(c) ? kPunctuation : 0) |
                                     (text::is_symbol(c) ? kSymbol : 0));
  }
  // Threads that meet an unread block read it each; the first to publish its
  // copy wins, the others drop theirs (the copies are equal).
  const std::uint8_t* read_block(std::size_t index) const {
    auto* block = new std::uint8_t[kBlockSize];
    for (std::size_t k = 0; k < kBlockSize; ++k) block[k] = from_icu(static_cast<char32_t>(index * kBlockSize + k));
    std::uint8_t* published = nullptr;
    if (blocks_[index].compare_exchange_strong(published, block, std::memory_order_acq_rel)) return block;
    delete[] block;
    return published;
  }

  mutable std::array<std::atomic<std::uint8_t*>, kBlocks> blocks_{};
};

// Each character goes through the rules with its categories above its 21
// code point bits, looked up once (the rules test a character up to five
// times); the spaces the rules insert carry none, as U+0020 has none.
constexpr int kCategoryShift = 24;
constexpr char32_t kCodePointBits = 0x1FFFFF;
constexpr bool has(char32_t tagged, std::uint8_t category) {
  return ((tagged >> kCategoryShift) & category) != 0;
}

// `(\P{N})(\p{P})` -> r'\1 \2 '
struct PunctuationAfterNonNumber : rule_chain::SpaceAfterEach {
  static bool can_start(char32_t x) { return !has(x, CategoryTable::kNumber); }
  static bool matches(char32_t x, char32_t y) {
    return has(y, CategoryTable::kPunctuation) && !has(x, CategoryTable::kNumber);
  }
};

// `(\p{P})(\P{N})` -> r' \1 \2'
struct PunctuationBeforeNonNumber : rule_chain::SpaceBeforeEach {
  static bool can_start(char32_t x) { return has(x, CategoryTable::kPunctuation); }
  static bool matches(char32_t x, char32_t y) {
    return has(x, CategoryTable::kPunctuation) && !has(y, CategoryTable::kNumber);
  }
};

// The last stage before the join: the code point without its categories.
template <class Join>
struct DropCategories {
  Join& join;
  void put(char32_t tagged) { join.put(tagged & kCodePointBits); }
  void finish() { join.finish(); }
};

class TokenizerIntl : public Tokenizer {
 public:
  TokenizerIntl() : categories_(&CategoryTable::instance()) {}

  std::string name() const override { return "intl"; }
  std::string sacrebleu_name() const override { return "intl"; }

  std::u32string tokenize(std::u32string_view line) const override {
    std::u32string out;
    tokenize_into(line, out);
    return out;
  }

  // Each character, and a space before it at most.
  void tokenize_into(std::u32string_view line, std::u32string& out) const override {
    rule_chain::write_joined(2 * line.size() + 1, out, [&](auto& join) { run_rules(line, join); });
  }
  void tokenize_located_into(std::u32string_view line, TokenizedText& out) const override {
    rule_chain::write_located(2 * line.size() + 1, out, [&](auto& join) { run_rules(line, join); });
  }

 private:
  // SacreBLEU's three re.sub calls in turn, then ' '.join(split()), as one pass.
  template <class Join>
  void run_rules(std::u32string_view line, Join& join) const {
    DropCategories<Join> untagged{join};
    const auto is_symbol = [](char32_t c) { return has(c, CategoryTable::kSymbol); };  // (\p{S}) -> r' \1 '
    rule_chain::PadEach<decltype(is_symbol), decltype(untagged)> pad(untagged, is_symbol);
    rule_chain::PairRule<PunctuationBeforeNonNumber, decltype(pad)> second(pad);
    rule_chain::PairRule<PunctuationAfterNonNumber, decltype(second)> first(second);
    for (const char32_t c : line) first.put(c | static_cast<char32_t>(categories_->of(c)) << kCategoryShift);
    first.finish();
  }

  const CategoryTable* categories_;
};

}  // namespace

std::unique_ptr<Tokenizer> make_intl() { return std::make_unique<TokenizerIntl>(); }

}  // namespace evalcli::tokenizers
