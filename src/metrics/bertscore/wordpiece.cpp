#include "metrics/bertscore/wordpiece.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>

#include "evalcli/core/error.hpp"
#include "evalcli/text/unicode.hpp"
#include "evalcli/text/utf8.hpp"
#include "metrics/bertscore/unicode_classes.hpp"

namespace evalcli::bertscore {
namespace {

constexpr std::size_t kMaxWordChars = 100;  // WordpieceTokenizer's max_input_chars_per_word

bool is_chinese_char(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x2A6DF) ||
         (c >= 0x2A700 && c <= 0x2B73F) || (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B820 && c <= 0x2CEAF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

// BERT's _is_punctuation: all ASCII non-alphanumerics count, "$" and "^" included.
bool is_bert_punctuation(char32_t c) {
  if ((c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126)) return true;
  return major_category(c) == 'P';
}

// _clean_text: NUL, U+FFFD and control/format characters go, whitespace becomes " ".
std::u32string clean_text(std::u32string_view text) {
  std::u32string out;
  for (const char32_t c : text) {
    const bool tab_or_newline = c == U'\t' || c == U'\n' || c == U'\r';
    if (c == 0 || c == 0xFFFD || (!tab_or_newline && major_category(c) == 'C')) continue;
    out.push_back(tab_or_newline || c == U' ' || is_space_separator(c) ? U' ' : c);
  }
  return out;
}

std::vector<std::u32string> python_split(std::u32string_view text) {
  std::vector<std::u32string> words;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && is_python_space(text[i])) ++i;
    const std::size_t start = i;
    while (i < text.size() && !is_python_space(text[i])) ++i;
    if (i > start) words.emplace_back(text.substr(start, i - start));
  }
  return words;
}

std::u32string strip_accents(std::u32string_view word) {
  std::u32string out;
  for (const char32_t c : nfd(word)) {
    if (!is_nonspacing_mark(c)) out.push_back(c);
  }
  return out;
}

std::u32string to_u32(const std::string& s) { return utf8::decode_or_throw(s, "tokenizer vocabulary"); }

}  // namespace

WordpieceTokenizer::WordpieceTokenizer(const std::string& vocab_path, WordpieceSettings settings)
    : settings_(std::move(settings)) {
  std::ifstream in(vocab_path, std::ios::binary);
  if (!in) throw Error(ExitCode::missing_resource, fmt::format("{}: cannot read the WordPiece vocabulary", vocab_path));
  std::string line;
  for (int id = 0; std::getline(in, line); ++id) vocab_[to_u32(line)] = id;  // as load_vocab: a repeated token keeps its last id
  // BERT's special tokens are plain strings: the text beside them is stripped on both sides.
  for (const std::string& s : {settings_.unk, settings_.sep, settings_.pad, settings_.cls, settings_.mask}) specials_.push_back({to_u32(s)});
  for (const std::string& s : settings_.extra_special) specials_.push_back({to_u32(s)});
  unk_ = to_u32(settings_.unk);
  const auto required = [&](const std::string& token) {
    const auto it = vocab_.find(to_u32(token));
    if (it == vocab_.end()) throw Error(ExitCode::missing_resource, fmt::format("{}: no token {}", vocab_path, token));
    return it->second;
  };
  cls_id_ = required(settings_.cls);
  sep_id_ = required(settings_.sep);
  unk_id_ = required(settings_.unk);
}

std::vector<std::u32string> WordpieceTokenizer::basic_tokenize(std::u32string_view text) const {
  std::u32string cleaned = clean_text(text);
  if (settings_.tokenize_chinese_chars) {
    std::u32string spaced;
    for (const char32_t c : cleaned) {
      if (is_chinese_char(c)) {
        spaced += U' ';
        spaced += c;
        spaced += U' ';
      } else {
        spaced += c;
      }
    }
    cleaned = std::move(spaced);
  }
  const bool strip = settings_.strip_accents == 1 || (settings_.strip_accents == -1 && settings_.do_lower_case);
  std::vector<std::u32string> out;
  for (std::u32string word : python_split(nfc(cleaned))) {
    if (settings_.do_lower_case) word = text::lower(word);
    if (strip) word = strip_accents(word);
    std::u32string piece;
    for (const char32_t c : word) {  // every punctuation character is a token of its own
      if (!is_bert_punctuation(c)) {
        piece += c;
        continue;
      }
      if (!piece.empty()) out.push_back(std::move(piece));
      piece.clear();
      out.emplace_back(1, c);
    }
    if (!piece.empty()) out.push_back(std::move(piece));
  }
  return out;
}

void WordpieceTokenizer::wordpiece(const std::u32string& word, std::vector<std::u32string>& out) const {
  if (word.size() > kMaxWordChars) {
    out.push_back(unk_);
    return;
  }
  std::vector<std::u32string> pieces;
  for (std::size_t start = 0; start < word.size();) {
    std::size_t end = word.size();
    std::u32string found;
    for (; end > start; --end) {
      std::u32string candidate = (start > 0 ? U"##" : U"") + word.substr(start, end - start);
      if (vocab_.count(candidate) != 0) {
        found = std::move(candidate);
        break;
      }
    }
    if (found.empty()) {  // one unmatched piece makes the whole word unknown
      out.push_back(unk_);
      return;
    }
    pieces.push_back(std::move(found));
    start = end;
  }
  out.insert(out.end(), pieces.begin(), pieces.end());
}

std::vector<std::u32string> WordpieceTokenizer::tokenize(std::u32string_view text) const {
  std::vector<std::u32string> tokens;
  // PreTrainedTokenizer.tokenize lower-cases the text outside special tokens before splitting.
  for (const TextPiece& piece : split_special_tokens(text, specials_)) {
    if (piece.special) {
      tokens.push_back(piece.text);
      continue;
    }
    const std::u32string lowered = settings_.do_lower_case ? text::lower(piece.text) : piece.text;
    for (const std::u32string& word : basic_tokenize(lowered)) wordpiece(word, tokens);
  }
  return tokens;
}

int WordpieceTokenizer::id_of(const std::u32string& token) const {
  const auto it = vocab_.find(token);
  return it == vocab_.end() ? unk_id_ : it->second;
}

std::vector<int> WordpieceTokenizer::encode(std::u32string_view sentence) const {
  std::vector<int> ids = {cls_id_};
  const std::u32string_view stripped = python_strip(sentence);
  if (!stripped.empty()) {
    const std::size_t room = settings_.model_max_length > 2 ? settings_.model_max_length - 2 : 0;
    for (const std::u32string& token : tokenize(stripped)) {
      if (ids.size() - 1 == room) break;
      ids.push_back(id_of(token));
    }
  }
  ids.push_back(sep_id_);
  return ids;
}

}  // namespace evalcli::bertscore
