#include <fmt/format.h>

#include <functional>
#include <map>

#include "evalcli/core/error.hpp"
#include "text/builtin_normalizers.hpp"
#include "evalcli/text/normalizer.hpp"

namespace evalcli {
namespace {

using Factory = std::function<std::unique_ptr<Normalizer>()>;

// Every normalizer evalcli knows, by registry name. Add new ones here.
const std::map<std::string, Factory, std::less<>>& registry() {
  static const std::map<std::string, Factory, std::less<>> factories = {
      {"nfkc", normalizers::make_nfkc},
      {"fullwidth", normalizers::make_fullwidth},
      {"zh-t2s", normalizers::make_zh_t2s},
      {"whitespace", normalizers::make_whitespace},
      {"punct-strip", normalizers::make_punct_strip},
  };
  return factories;
}

}  // namespace

std::vector<std::string> normalizer_names() {
  std::vector<std::string> names;
  for (const auto& [name, factory] : registry()) names.push_back(name);
  return names;
}

std::unique_ptr<Normalizer> make_normalizer(std::string_view name) {
  auto it = registry().find(name);
  if (it == registry().end()) {
    throw usage_error(fmt::format("unknown normalizer '{}' (known: {})", name,
                                  fmt::join(normalizer_names(), ", ")));
  }
  return it->second();
}

std::unique_ptr<Normalizer> normalizer_from_id(std::string_view id) {
  const auto dash = id.rfind("-v");
  if (dash != std::string_view::npos) {
    auto it = registry().find(id.substr(0, dash));
    if (it != registry().end()) {
      auto normalizer = it->second();
      if (normalizer->id() == id) return normalizer;
    }
  }
  throw usage_error(fmt::format(
      "normalizer '{}' cannot be reproduced by this evalcli (known: {}; write name-vN)", id,
      fmt::join(normalizer_names(), ", ")));
}

}  // namespace evalcli
