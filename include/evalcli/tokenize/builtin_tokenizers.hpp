#pragma once
// Factories for the tokenizers that ship with evalcli (one source file each).
#include <memory>
#include <string>
#include <vector>

#include "evalcli/tokenize/tokenizer.hpp"

namespace evalcli::tokenizers {

std::unique_ptr<Tokenizer> make_none();      // tok_none.cpp
std::unique_ptr<Tokenizer> make_13a();       // tok_13a.cpp
std::unique_ptr<Tokenizer> make_intl();      // tok_intl.cpp
std::unique_ptr<Tokenizer> make_zh();        // tok_zh.cpp
std::unique_ptr<Tokenizer> make_char();      // tok_char.cpp
std::unique_ptr<Tokenizer> make_ja_mecab(const TokenizerOptions& options);  // tok_ja_mecab.cpp
std::unique_ptr<Tokenizer> make_zh_char();   // tok_zh_char.cpp (rouge character level)
std::unique_ptr<Tokenizer> make_zh_jieba(const TokenizerOptions& options);  // tok_zh_jieba.cpp
std::unique_ptr<Tokenizer> make_zh_jieba_nohmm(const TokenizerOptions& options);
std::unique_ptr<Tokenizer> make_zh_icu();  // tok_icu_words.cpp
std::unique_ptr<Tokenizer> make_ja_icu();
std::unique_ptr<Tokenizer> make_ptb();       // tok_ptb.cpp

// pycocoevalcap's PTBTokenizer over a batch of captions that PTB reads as
// consecutive lines (the next caption is look-ahead context for a few rules).
std::vector<std::u32string> ptb_tokenize_batch(const std::vector<std::u32string>& lines);
// The same, each line replaced by its tokens (no second vector of strings),
// the last one read before `following` (null: the text's end).
void ptb_tokenize_batch_in_place(std::vector<std::u32string>& lines, const std::u32string* following = nullptr);
std::unique_ptr<Tokenizer> make_nltk_word();  // tok_nltk_word.cpp

// The regex post-processing that 13a and zh share (mteval-v13a's rules).
// With surround_with_spaces, the rules see " " + text + " " (as 13a passes them).
std::u32string apply_13a_rules(std::u32string_view text, bool surround_with_spaces = false);
// 13a's case without replacements: the rules on " " + text + " " into `out`, or false
// (out unspecified) if `text` holds a character 13a's replacements look for ('<', '&', '\n').
bool apply_13a_rules_unless_replacements(std::u32string_view text, std::u32string& out);
// The same into out.text, locating and hashing the tokens as they are written.
bool apply_13a_rules_unless_replacements(std::u32string_view text, TokenizedText& out);

}  // namespace evalcli::tokenizers
