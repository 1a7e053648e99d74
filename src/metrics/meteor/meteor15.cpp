// CMU METEOR 1.5 (placeholder until the implementation lands).
#include "evalcli/metrics/meteor15.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "evalcli/core/error.hpp"

namespace evalcli {

struct Meteor15::Resources {};

Meteor15Normalization parse_meteor15_normalization(std::string_view name) {
  if (name == "none") return Meteor15Normalization::none;
  if (name == "lower") return Meteor15Normalization::lowercase;
  if (name == "norm") return Meteor15Normalization::norm;
  if (name == "norm-nopunct") return Meteor15Normalization::norm_nopunct;
  throw usage_error(fmt::format("unknown --norm '{}' (known: none, lower, norm, norm-nopunct)", name));
}

Meteor15::Meteor15(Meteor15Options options) : options_(std::move(options)) {
  throw Error(ExitCode::usage, "--compat meteor15 is not implemented yet");
}
Meteor15::~Meteor15() = default;
std::vector<std::string> Meteor15::stat_names() const { return {}; }
void Meteor15::segment_stats(std::u32string_view, std::span<const std::u32string>, Stat*) const {}
double Meteor15::score(std::span<const Stat>) const { return 0; }
std::string Meteor15::signature() const { return {}; }
nlohmann::json Meteor15::details(std::span<const Stat>) const { return nlohmann::json::object(); }

}  // namespace evalcli
