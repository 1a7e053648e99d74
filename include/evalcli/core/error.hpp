#pragma once
// Errors carry the documented process exit code (docs/errors.md), so every
// layer can throw and only the CLI decides how to print and exit.
#include <stdexcept>
#include <string>

namespace evalcli {

enum class ExitCode : int {
  ok = 0,
  usage = 2,             // bad option or value, unknown tokenizer, unparsable signature
  input_data = 3,        // missing/unreadable file, invalid UTF-8, line-count mismatch, bad data
  missing_resource = 4,  // WordNet, dictionary, model file
  check_failed = 5,      // `evalcli check` regression
  internal = 70,         // a bug
};

class Error : public std::runtime_error {
 public:
  Error(ExitCode code, const std::string& message, std::string hint = {})
      : std::runtime_error(message), code_(code), hint_(std::move(hint)) {}
  ExitCode code() const { return code_; }
  const std::string& hint() const { return hint_; }

 private:
  ExitCode code_;
  std::string hint_;
};

// An error whose text is printed exactly as given (no "evalcli: error:" prefix)
// with any exit code: the `sacrebleu` front end reproduces SacreBLEU's messages.
class RawExit : public Error {
 public:
  RawExit(int exit_code, const std::string& text) : Error(static_cast<ExitCode>(exit_code), text) {}
};

inline Error usage_error(const std::string& message) { return Error(ExitCode::usage, message); }
inline Error input_error(const std::string& message) { return Error(ExitCode::input_data, message); }

}  // namespace evalcli
