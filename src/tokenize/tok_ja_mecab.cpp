// SacreBLEU's `ja-mecab`: MeCab 0.996 word segmentation (-Owakati) with the
// IPA dictionary from Debian's mecab-ipadic-utf8. Debian's dictionary adds
// one entry (令和) to the 392126 of the PyPI `ipadic` package SacreBLEU pins;
// only text containing that word can segment differently (docs/tokenizers.md).
#include <mecab.h>

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>

#include "evalcli/core/error.hpp"
#include "evalcli/core/sha256.hpp"
#include "evalcli/text/unicode.hpp"
#include "evalcli/text/utf8.hpp"
#include "evalcli/tokenize/builtin_tokenizers.hpp"

namespace evalcli::tokenizers {
namespace {

constexpr const char* kDictionaryDir = "/var/lib/mecab/dic/ipadic-utf8";

// The dictionary folder: --mecab-dict, else EVALCLI_MECAB_DICDIR, else Debian's
// IPA dictionary; and how the user chose it, for messages.
struct DictionaryChoice {
  std::string dir;
  std::string given_as;  // "--mecab-dict DIR", "EVALCLI_MECAB_DICDIR=DIR" or ""
};

DictionaryChoice dictionary_choice(const TokenizerOptions& options) {
  if (!options.mecab_dict.empty()) return {options.mecab_dict, "--mecab-dict " + options.mecab_dict};
  const char* chosen = std::getenv("EVALCLI_MECAB_DICDIR");
  if (chosen != nullptr && *chosen != '\0') return {chosen, std::string("EVALCLI_MECAB_DICDIR=") + chosen};
  return {kDictionaryDir, ""};
}

// Why MeCab cannot start with `args`. MeCab 0.996's createTagger() drops the
// reason (getLastError() is empty after it); createModel() keeps it
// ("dictionary file is broken: DIR/sys.dic").
std::string mecab_error(const std::string& args) {
  std::unique_ptr<MeCab::Model> model(MeCab::createModel(args.c_str()));
  std::string reason = MeCab::getLastError();
  while (!reason.empty() && reason.back() == ' ') reason.pop_back();
  // "viterbi.cpp(50) [check] ... dictionary.cpp(94) [check] what": the source trail is for MeCab's authors.
  if (const std::size_t trail = reason.rfind("] "); trail != std::string::npos) reason.erase(0, trail + 2);
  if (reason.empty()) return "no reason given (is the dictionary folder complete?)";
  return reason;
}

class TokenizerJaMecab : public Tokenizer {
 public:
  explicit TokenizerJaMecab(const TokenizerOptions& options) {
    const DictionaryChoice choice = dictionary_choice(options);
    dictionary_dir_ = choice.dir;
    if (!std::filesystem::is_regular_file(dictionary_dir_ + "/sys.dic")) {
      if (!choice.given_as.empty()) {
        throw Error(ExitCode::missing_resource,
                    fmt::format("ja-mecab: {}: no MeCab dictionary (sys.dic) there", choice.given_as),
                    "hint: give a folder with a compiled MeCab dictionary (sys.dic, matrix.def, char.bin, unk.dic)");
      }
      throw Error(ExitCode::missing_resource,
                  std::string("ja-mecab: MeCab IPA dictionary not found in ") + kDictionaryDir,
                  "hint: install the Debian packages libmecab2 and mecab-ipadic-utf8");
    }
    // An empty rc file keeps the user's ~/.mecabrc from changing the output.
    const std::string args = "-r /dev/null -d " + dictionary_dir_ + " -Owakati";
    tagger_.reset(MeCab::createTagger(args.c_str()));
    if (!tagger_) {
      throw Error(ExitCode::missing_resource, "ja-mecab: cannot start MeCab: " + mecab_error(args));
    }
  }

  std::string name() const override { return "ja-mecab"; }
  // Another dictionary than Debian's IPA one is named by content in the
  // signature (dict:), as jieba's; the default prints nothing (SacreBLEU's form).
  std::string signature_fields() const override {
    if (dictionary_dir_ == kDictionaryDir) return {};
    std::call_once(hash_once_, [this] {
      dict_field_ = "dict:mecab-sha256." + sha256_file_hex(dictionary_dir_ + "/sys.dic").substr(0, 12);
    });
    return dict_field_;
  }
  std::string sacrebleu_name() const override { return "ja-mecab-0.996-IPA"; }

  std::u32string tokenize(std::u32string_view line) const override {
    const std::string input = utf8::encode(text::strip(line));
    std::string output;
    {
      std::lock_guard<std::mutex> lock(mutex_);  // a MeCab tagger is not thread-safe
      const char* result = tagger_->parse(input.c_str(), input.size());
      if (result != nullptr) output = result;
    }
    std::u32string decoded;
    utf8::decode(output, decoded);
    return text::squeeze_spaces(decoded);
  }

 private:
  std::string dictionary_dir_;
  std::unique_ptr<MeCab::Tagger> tagger_;
  mutable std::mutex mutex_;
  mutable std::once_flag hash_once_;
  mutable std::string dict_field_;
};

}  // namespace

std::unique_ptr<Tokenizer> make_ja_mecab(const TokenizerOptions& options) {
  return std::make_unique<TokenizerJaMecab>(options);
}

}  // namespace evalcli::tokenizers
