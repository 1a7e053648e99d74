// mteval-v14 "international" tokenization as SacreBLEU's TokenizerV14International:
// punctuation next to a non-number and every symbol are separated
// (Unicode general categories from ICU, Unicode 15 like python3-regex).
#include <array>
#include <atomic>
#include <cstdint>

#include "evalcli/text/unicode.hpp"
#include "evalcli/tokenize/builtin_tokenizers.hpp"
#include "tokenize/rewrite.hpp"

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

  static const CategoryTable& instance() {
    static const CategoryTable table;
    return table;
  }
  ~CategoryTable() {
    for (auto& block : blocks_) delete[] block.load(std::memory_order_acquire);
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

class TokenizerIntl : public Tokenizer {
 public:
  TokenizerIntl() : categories_(CategoryTable::instance()) {}

  std::string name() const override { return "intl"; }
  std::string sacrebleu_name() const override { return "intl"; }

  std::u32string tokenize(std::u32string_view line) const override {
    std::u32string out;
    tokenize_into(line, out);
    return out;
  }

  void tokenize_into(std::u32string_view line, std::u32string& out) const override {
    thread_local std::u32string first_rule, second_rule;  // reused: no allocation per line
    const CategoryTable& is = categories_;
    // (\P{N})(\p{P}) -> "\1 \2 "
    replace_pairs_into(line, [&is](char32_t x, char32_t y) { return !is.number(x) && is.punctuation(y); }, false,
                       first_rule);
    // (\p{P})(\P{N}) -> " \1 \2"
    replace_pairs_into(first_rule, [&is](char32_t x, char32_t y) { return is.punctuation(x) && !is.number(y); },
                       true, second_rule);
    join_padding_symbols(second_rule, out);
  }

 private:
  // (\p{S}) -> " \1 ", then ' '.join(split()), in one pass: each symbol is a
  // token of its own, and whitespace separates the others.
  void join_padding_symbols(std::u32string_view text, std::u32string& out) const {
    out.clear();
    bool in_token = false;
    for (const char32_t c : text) {
      if (text::is_space(c)) {
        in_token = false;
        continue;
      }
      const bool symbol = categories_.symbol(c);
      if ((!in_token || symbol) && !out.empty()) out.push_back(U' ');
      out.push_back(c);
      in_token = !symbol;
    }
  }

  const CategoryTable& categories_;
};

}  // namespace

std::unique_ptr<Tokenizer> make_intl() { return std::make_unique<TokenizerIntl>(); }

}  // namespace evalcli::tokenizers
