#pragma once
// A normalizer rewrites a line before tokenization (NFKC, full-width forms,
// ...). Like tokenizers, each has a name and a version recorded in signatures.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace evalcli {

class Normalizer {
 public:
  virtual ~Normalizer() = default;
  virtual std::string name() const = 0;
  virtual int version() const { return 1; }
  std::string id() const { return name() + "-v" + std::to_string(version()); }
  virtual std::u32string apply(std::u32string_view line) const = 0;
};

// By registry name; throws a usage error naming the known ones.
std::unique_ptr<Normalizer> make_normalizer(std::string_view name);
// By versioned id ("nfkc-v1"); throws a usage error for an unknown name or version.
std::unique_ptr<Normalizer> normalizer_from_id(std::string_view id);
std::vector<std::string> normalizer_names();

}  // namespace evalcli
