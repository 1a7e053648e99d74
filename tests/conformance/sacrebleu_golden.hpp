#pragma once
// Replays a SacreBLEU golden's command line through `evalcli sacrebleu`.
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "evalcli/core/version.hpp"
#include "support/test_support.hpp"

namespace evalcli::test {

// The golden's command split into words, with "NAME=value" env prefixes and a
// "< file" stdin redirection taken out.
struct GoldenCommand {
  std::vector<std::string> args;  // after "sacrebleu"
  std::vector<std::pair<std::string, std::string>> env;
  std::string stdin_path;
};

inline GoldenCommand parse_golden_command(const std::string& command) {
  GoldenCommand parsed;
  std::vector<std::string> words;
  std::size_t start = 0;
  while (start < command.size()) {
    const auto space = command.find(' ', start);
    const auto end = space == std::string::npos ? command.size() : space;
    if (end > start) words.push_back(command.substr(start, end - start));
    start = end + 1;
  }
  std::size_t i = 0;
  for (; i < words.size() && words[i] != "sacrebleu"; ++i) {
    const auto eq = words[i].find('=');
    if (eq != std::string::npos) parsed.env.emplace_back(words[i].substr(0, eq), words[i].substr(eq + 1));
  }
  for (++i; i < words.size(); ++i) {
    if (words[i] == "<" && i + 1 < words.size()) {
      parsed.stdin_path = words[++i];
    } else {
      parsed.args.push_back(words[i]);
    }
  }
  return parsed;
}

// SacreBLEU's version in printed signatures becomes evalcli's.
inline std::string with_evalcli_version(std::string text) {
  const std::string ours = evalcli_version_tag();
  for (const std::string& key : {std::string("version:"), std::string("v:"), std::string("\"version\": \"")}) {
    const std::string from = key + "2.6.0";
    for (std::size_t pos = 0; (pos = text.find(from, pos)) != std::string::npos; pos += key.size() + ours.size()) {
      text.replace(pos, from.size(), key + ours);
    }
  }
  return text;
}

// Runs `evalcli sacrebleu ...` as the golden ran sacrebleu: from the folder that holds shared/.
inline CliResult run_golden_command(const std::filesystem::path& parent, const GoldenCommand& command) {
  const auto previous = std::filesystem::current_path();
  std::filesystem::current_path(parent);
  for (const auto& [name, value] : command.env) ::setenv(name.c_str(), value.c_str(), 1);
  std::vector<std::string> args = {"sacrebleu"};
  args.insert(args.end(), command.args.begin(), command.args.end());
  const std::string input = command.stdin_path.empty() ? std::string() : read_file(command.stdin_path);
  CliResult result = run_cli(args, input);
  for (const auto& [name, value] : command.env) ::unsetenv(name.c_str());
  std::filesystem::current_path(previous);
  return result;
}

// Which metrics a SacreBLEU command line asks for (default: bleu).
inline std::vector<std::string> golden_metrics(const GoldenCommand& command) {
  std::vector<std::string> metrics;
  for (std::size_t i = 0; i < command.args.size(); ++i) {
    if (command.args[i] != "-m" && command.args[i] != "--metrics") continue;
    while (i + 1 < command.args.size() && command.args[i + 1][0] != '-') metrics.push_back(command.args[++i]);
  }
  if (metrics.empty()) metrics.push_back("bleu");
  return metrics;
}

inline bool golden_uses_option(const GoldenCommand& command, const std::vector<std::string>& options) {
  for (const auto& arg : command.args) {
    for (const auto& option : options) {
      if (arg == option) return true;
    }
  }
  return false;
}

}  // namespace evalcli::test
