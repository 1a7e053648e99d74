#include "metrics/bertscore/bpe.hpp"

#include <fmt/format.h>

#include <climits>
#include <cstdint>
#include <unicode/uchar.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

#include "evalcli/core/error.hpp"
#include "evalcli/text/utf8.hpp"
#include "metrics/bertscore/unicode_classes.hpp"

namespace evalcli::bertscore {
namespace {

bool is_letter(char32_t c) { return major_category(c) == 'L'; }  // \p{L}
bool is_number(char32_t c) { return major_category(c) == 'N'; }  // \p{N}
bool is_space(char32_t c) { return u_isUWhiteSpace(static_cast<UChar32>(c)) != 0; }  // the regex module's \s
bool is_other(char32_t c) { return !is_space(c) && !is_letter(c) && !is_number(c); }

// Length of a match of " ?CLASS+" at `i`, or 0.
template <typename Class>
std::size_t optional_space_run(std::u32string_view text, std::size_t i, Class in_class) {
  std::size_t j = i + (text[i] == U' ' ? 1 : 0);
  const std::size_t first = j;
  while (j < text.size() && in_class(text[j])) ++j;
  return j > first ? j - i : 0;
}

// Length of the regex's match at `i` (never 0 for a non-empty rest).
std::size_t gpt2_match(std::u32string_view text, std::size_t i) {
  if (text[i] == U'\'') {
    for (const std::u32string_view suffix : {U"s", U"t", U"re", U"ve", U"m", U"ll", U"d"}) {
      if (text.compare(i + 1, suffix.size(), suffix) == 0) return 1 + suffix.size();
    }
  }
  if (const std::size_t n = optional_space_run(text, i, is_letter)) return n;
  if (const std::size_t n = optional_space_run(text, i, is_number)) return n;
  if (const std::size_t n = optional_space_run(text, i, is_other)) return n;
  std::size_t end = i;
  while (end < text.size() && is_space(text[end])) ++end;
  // \s+(?!\S): a run followed by text leaves its last space to that text; a run of one is \s+.
  if (end == text.size() || end - i == 1) return end - i;
  return end - i - 1;
}

std::array<char32_t, 256> byte_chars() {
  std::array<char32_t, 256> chars{};
  char32_t next = 256;
  for (int b = 0; b < 256; ++b) {
    const bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
    chars[b] = printable ? static_cast<char32_t>(b) : next++;
  }
  return chars;
}

std::u32string decode(const std::string& s, const std::string& where) { return utf8::decode_or_throw(s, where); }

}  // namespace

char32_t gpt2_byte_char(unsigned char byte) {
  static const std::array<char32_t, 256> chars = byte_chars();
  return chars[byte];
}

std::vector<std::u32string> gpt2_pretokenize(std::u32string_view text) {
  std::vector<std::u32string> pieces;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = gpt2_match(text, i);
    pieces.emplace_back(text.substr(i, n));
    i += n;
  }
  return pieces;
}

BpeTokenizer::BpeTokenizer(const std::string& vocab_json, const std::string& merges_txt, BpeSettings settings)
    : settings_(std::move(settings)) {
  std::ifstream vocab_in(vocab_json);
  if (!vocab_in) throw Error(ExitCode::missing_resource, fmt::format("{}: cannot read the BPE vocabulary", vocab_json));
  try {
    const nlohmann::json vocab = nlohmann::json::parse(vocab_in);
    for (const auto& [token, id] : vocab.items()) {
      if (!id.is_number_unsigned() || id.get<std::uint64_t>() > static_cast<std::uint64_t>(INT_MAX)) {
        throw Error(ExitCode::missing_resource, fmt::format("{}: the id of '{}' is not a whole number from 0 to {}",
                                                            vocab_json, token, INT_MAX));
      }
      vocab_[decode(token, vocab_json)] = static_cast<int>(id.get<std::uint64_t>());
    }
  } catch (const nlohmann::json::exception& e) {
    throw Error(ExitCode::missing_resource, fmt::format("{}: {}", vocab_json, e.what()));
  }
  std::ifstream merges_in(merges_txt, std::ios::binary);
  if (!merges_in) throw Error(ExitCode::missing_resource, fmt::format("{}: cannot read the BPE merges", merges_txt));
  // As transformers reads it: split("\n")[1:-1], the first line being "#version: ...".
  std::vector<std::string> lines;
  for (std::string line; std::getline(merges_in, line);) lines.push_back(line);
  for (std::size_t k = 1; k < lines.size(); ++k) {
    const std::u32string merge = decode(lines[k], merges_txt);
    const std::size_t space = merge.find(U' ');
    if (space == std::u32string::npos) continue;
    ranks_.emplace(std::make_pair(merge.substr(0, space), merge.substr(space + 1)), static_cast<int>(k - 1));
  }
  const auto required = [&](const std::string& token) {
    const auto it = vocab_.find(decode(token, vocab_json));
    if (it == vocab_.end()) throw Error(ExitCode::missing_resource, fmt::format("{}: no token {}", vocab_json, token));
    return it->second;
  };
  bos_id_ = required(settings_.bos);
  eos_id_ = required(settings_.eos);
  unk_id_ = required(settings_.unk);
}

// GPT-2's bpe(): merge the pair of lowest rank everywhere, until none has a rank.
void BpeTokenizer::bpe(const std::u32string& word, std::vector<std::u32string>& out) const {
  std::vector<std::u32string> parts;
  for (const char32_t c : word) parts.emplace_back(1, c);
  while (parts.size() > 1) {
    int best = std::numeric_limits<int>::max();
    for (std::size_t k = 0; k + 1 < parts.size(); ++k) {
      const auto it = ranks_.find({parts[k], parts[k + 1]});
      if (it != ranks_.end()) best = std::min(best, it->second);
    }
    if (best == std::numeric_limits<int>::max()) break;
    std::vector<std::u32string> merged;
    for (std::size_t k = 0; k < parts.size(); ++k) {
      const bool merge = k + 1 < parts.size() && [&] {
        const auto it = ranks_.find({parts[k], parts[k + 1]});
        return it != ranks_.end() && it->second == best;
      }();
      if (merge) {
        merged.push_back(parts[k] + parts[k + 1]);
        ++k;
      } else {
        merged.push_back(parts[k]);
      }
    }
    parts = std::move(merged);
  }
  out.insert(out.end(), parts.begin(), parts.end());
}

std::vector<std::u32string> BpeTokenizer::tokenize(std::u32string_view text) const {
  std::vector<std::u32string> tokens;
  for (const TextPiece& piece : split_special_tokens(text, settings_.specials)) {
    if (piece.special) {
      tokens.push_back(piece.text);
      continue;
    }
    for (const std::u32string& word : gpt2_pretokenize(piece.text)) {
      std::u32string mapped;
      for (const unsigned char byte : utf8::encode(word)) mapped += gpt2_byte_char(byte);
      bpe(mapped, tokens);
    }
  }
  return tokens;
}

std::vector<int> BpeTokenizer::encode(std::u32string_view sentence) const {
  std::vector<int> ids = {bos_id_};
  const std::u32string_view stripped = python_strip(sentence);
  if (!stripped.empty()) {
    const std::size_t room = settings_.model_max_length > 2 ? settings_.model_max_length - 2 : 0;
    // bert_score passes add_prefix_space=True: the first word is a word after a space.
    std::u32string text = U" ";
    text.append(stripped);
    for (const std::u32string& token : tokenize(text)) {
      if (ids.size() - 1 == room) break;
      const auto it = vocab_.find(token);
      ids.push_back(it == vocab_.end() ? unk_id_ : it->second);
    }
  }
  ids.push_back(eos_id_);
  return ids;
}

}  // namespace evalcli::bertscore
