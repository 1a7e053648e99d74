#pragma once
// For tests: the `ptb` lexer with its plain-word shortcut off (every rule tried
// at every token start), to check that the shortcut gives the same tokens.
#include <string>
#include <vector>

namespace evalcli::tokenizers::detail {

// ptb_tokenize_batch(lines), every rule tried at every token start.
std::vector<std::u32string> ptb_tokenize_batch_trying_every_rule(const std::vector<std::u32string>& lines);

}  // namespace evalcli::tokenizers::detail
