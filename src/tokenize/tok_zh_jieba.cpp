// `zh-jieba` / `zh-jieba-nohmm`: Chinese word segmentation token for token as
// jieba 0.42.1's jieba.cut(line, HMM=True/False), with jieba's own dictionary
// and HMM tables read from Debian's python3-jieba at run time (or a dictionary
// given with --jieba-dict). Whitespace tokens are dropped, the rest joined by
// one space (docs/segmentation.md).
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <regex>

#include "evalcli/core/error.hpp"
#include "evalcli/core/sha256.hpp"
#include "evalcli/tokenize/builtin_tokenizers.hpp"
#include "tokenize/jieba.hpp"

namespace evalcli::tokenizers {
namespace {

// A dictionary is loaded once per process and path, however many tokenizers use it.
std::shared_ptr<const jieba::Dictionary> shared_dictionary(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const jieba::Dictionary>> loaded;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = loaded[path];
  if (!slot) slot = std::make_shared<const jieba::Dictionary>(jieba::Dictionary::load(path));
  return slot;
}

std::shared_ptr<const jieba::HmmModel> shared_hmm(const std::string& dir) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const jieba::HmmModel>> loaded;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = loaded[dir];
  if (!slot) slot = std::make_shared<const jieba::HmmModel>(jieba::HmmModel::load(dir));
  return slot;
}

// jieba's __version__ from the installed package ("0.42.1"), or "unknown".
std::string installed_jieba_version() {
  std::ifstream in(std::string(jieba::kDebianJiebaDir) + "/__init__.py");
  const std::regex version_line(R"(^__version__\s*=\s*['"]([^'"]+)['"])");
  std::smatch match;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_search(line, match, version_line)) return match[1];
  }
  return "unknown";
}

// Why `path` cannot be a dictionary file ("" when it can): missing, a
// directory, or a path the system refuses (a symlink loop, too long a name).
std::string dictionary_file_problem(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (status.type() == std::filesystem::file_type::not_found) return "no such file";
  if (ec) return ec.message();
  if (std::filesystem::is_directory(status)) return "is a directory, expected the dictionary file";
  if (!std::filesystem::is_regular_file(status)) return "not a regular file";
  return "";
}

class TokenizerZhJieba : public Tokenizer {
 public:
  TokenizerZhJieba(bool hmm, const std::string& user_dictionary) : hmm_(hmm), user_dictionary_(user_dictionary) {
    const std::string default_dictionary = std::string(jieba::kDebianJiebaDir) + "/dict.txt";
    dictionary_path_ = user_dictionary.empty() ? default_dictionary : user_dictionary;
    if (user_dictionary.empty() && !std::filesystem::exists(dictionary_path_)) {
      throw Error(ExitCode::missing_resource,
                  fmt::format("zh-jieba: jieba's dictionary {} not found", dictionary_path_),
                  jieba::kDebianPackageHint);
    }
    if (!user_dictionary.empty()) {
      if (const std::string problem = dictionary_file_problem(dictionary_path_); !problem.empty()) {
        throw Error(ExitCode::missing_resource, fmt::format("zh-jieba: --jieba-dict {}: {}", dictionary_path_, problem));
      }
    }
    dictionary_ = shared_dictionary(dictionary_path_);
    if (hmm_) hmm_model_ = shared_hmm(std::string(jieba::kDebianJiebaDir) + "/finalseg");
  }

  std::string name() const override { return hmm_ ? "zh-jieba" : "zh-jieba-nohmm"; }

  // The dictionary by content (computed when first asked: `evalcli tokenize`
  // never pays for hashing 5 MB), with jieba's version for the default one,
  // whose package also provides the HMM tables.
  std::string signature_fields() const override {
    std::call_once(hash_once_, [this] {
      const std::string digest = sha256_file_hex(dictionary_path_).substr(0, 12);
      dict_field_ = user_dictionary_.empty()
                        ? fmt::format("dict:jieba-{}-sha256.{}", installed_jieba_version(), digest)
                        : fmt::format("dict:user-sha256.{}", digest);
    });
    return dict_field_;
  }

  std::u32string tokenize(std::u32string_view line) const override {
    thread_local std::vector<jieba::Span> tokens;  // reused: no allocation per line
    tokens.clear();
    jieba::cut(line, *dictionary_, hmm_model_.get(), tokens);
    std::u32string out;
    out.reserve(line.size() + tokens.size());
    for (const auto& [first, last] : tokens) {
      if (!out.empty()) out.push_back(U' ');
      out.append(line.substr(first, last - first));
    }
    return out;
  }

 private:
  bool hmm_;
  std::string user_dictionary_;
  std::string dictionary_path_;
  std::shared_ptr<const jieba::Dictionary> dictionary_;
  std::shared_ptr<const jieba::HmmModel> hmm_model_;
  mutable std::once_flag hash_once_;
  mutable std::string dict_field_;
};

}  // namespace

std::unique_ptr<Tokenizer> make_zh_jieba(const TokenizerOptions& options) {
  return std::make_unique<TokenizerZhJieba>(options.jieba_hmm, options.jieba_dict);
}

std::unique_ptr<Tokenizer> make_zh_jieba_nohmm(const TokenizerOptions& options) {
  return std::make_unique<TokenizerZhJieba>(false, options.jieba_dict);
}

}  // namespace evalcli::tokenizers
