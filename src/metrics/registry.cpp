#include "evalcli/metrics/registry.hpp"

#include <fmt/format.h>

#include <string_view>

#include "evalcli/core/error.hpp"
#include "evalcli/core/signature.hpp"
#include "evalcli/metrics/bleu.hpp"
#include "evalcli/metrics/chrf.hpp"
#include "evalcli/metrics/ppl_metric.hpp"
#include "evalcli/metrics/signature_factories.hpp"
#include "evalcli/metrics/ter.hpp"

namespace evalcli {
namespace {

std::unique_ptr<StatsModel> bleu(const std::string& signature) { return bleu_from_signature(signature, std::nullopt); }
std::unique_ptr<StatsModel> chrf(const std::string& signature) {
  return std::make_unique<Chrf>(chrf_options_from_signature(signature, std::nullopt));
}
std::unique_ptr<StatsModel> ter(const std::string& signature) {
  return std::make_unique<Ter>(ter_options_from_signature(signature, std::nullopt));
}

// CIDEr's document frequencies come from all references: statistics of
// shards that each counted their own (df:corpus) are not parts of one run.
std::string cider_shard_problem(const std::string& signature) {
  if (find_field(parse_signature(signature), "df").value_or("corpus") != "corpus") return "";
  return "CIDEr shards scored with document frequencies of their own references (df:corpus) cannot be merged: "
         "count them once over all references (evalcli cider ... --save-df DF) and score every shard with --df DF";
}

struct Registration {
  std::string_view name_prefix;  // matches name() values starting with it ("chrF" for chrF2++)
  std::string_view command;      // the evalcli command that scores it
  std::unique_ptr<StatsModel> (*from_signature)(const std::string& signature);
  bool higher_is_better;
  // Why shards with this signature cannot be merged, or "" (null: statistics are additive).
  std::string (*shard_problem)(const std::string& signature) = nullptr;
  // False where a segment's statistics need more than the segment: CIDEr's
  // document frequencies over all references (its model from a signature has none).
  bool segments_alone = true;
};

// One line per metric.
const Registration kRegistry[] = {
    {"BLEU", "bleu", bleu, true},
    {"chrF", "chrf", chrf, true},
    {"TER", "ter", ter, false},
    {"METEOR", "meteor", meteor_from_signature, true},
    {"ROUGE", "rouge", rouge_from_signature, true},
    {"ROUGE-1.5.5", "rouge", rouge155_from_signature, true},
    {"CIDEr", "cider", cider_from_signature, true, cider_shard_problem, false},
    {"PPL", "ppl", ppl::ppl_from_signature, false},
};

const Registration* find(const std::string& name) {
  const Registration* best = nullptr;
  for (const auto& entry : kRegistry) {
    if (name.rfind(entry.name_prefix, 0) == 0 &&
        (best == nullptr || entry.name_prefix.size() > best->name_prefix.size())) {
      best = &entry;
    }
  }
  return best;
}

}  // namespace

std::unique_ptr<StatsModel> metric_from_signature(const std::string& name, const std::string& signature) {
  const Registration* entry = find(name);
  if (entry == nullptr) {
    throw usage_error(fmt::format("metric '{}' cannot be rebuilt from a signature by this evalcli", name));
  }
  return entry->from_signature(signature);
}

std::unique_ptr<Metric> segment_scorer_from_signature(const std::string& name, const std::string& signature) {
  std::unique_ptr<StatsModel> model = metric_from_signature(name, signature);
  const Registration* entry = find(name);
  if (auto* scorer = dynamic_cast<Metric*>(model.get()); scorer != nullptr && entry->segments_alone) {
    model.release();
    return std::unique_ptr<Metric>(scorer);
  }
  // Perplexity needs its model, METEOR 1.5 its resources, CIDEr all references at once.
  throw usage_error(fmt::format("{} cannot be re-scored segment by segment from -r/-i; run `evalcli {} ...` on the "
                                "files (with --stats-out FILE) instead",
                                name, entry->command));
}

std::string shard_merge_problem(const std::string& name, const std::string& signature) {
  const Registration* entry = find(name);
  return entry != nullptr && entry->shard_problem != nullptr ? entry->shard_problem(signature) : "";
}

bool higher_is_better(const std::string& name) {
  const Registration* entry = find(name);
  if (entry != nullptr) return entry->higher_is_better;
  return name.rfind("TER", 0) != 0 && name.rfind("PPL", 0) != 0 && name.rfind("Perplexity", 0) != 0;
}

}  // namespace evalcli
