#pragma once
// The registered metrics that the metric-independent test tables cover
// without being told about them (docs/adding-a-metric.md): every definition
// whose build, from its defaults alone, gives a segment scorer. A metric
// added to src/metrics/registry.cpp, or registered at run time by a test
// (tests/unit/adding_a_metric_test.cpp), is then in bad_input_test,
// run_signature_test and merge_conformance with its default options.
#include <algorithm>
#include <string>
#include <vector>

#include "evalcli/core/error.hpp"
#include "evalcli/metrics/definition.hpp"

namespace evalcli::test {

// True when `definition` scores -r/-i segment by segment with no option
// given: a Metric, whose segments need nothing else (not CIDEr's document
// frequencies), and whose defaults need no resource (a model, a folder).
inline bool scores_segments_by_default(const MetricDefinition& definition) {
  if (!definition.segments_alone) return false;
  try {
    const auto model = definition.build(OptionValues{}, BuildContext{});
    return dynamic_cast<const Metric*>(model.get()) != nullptr;
  } catch (const Error&) {
    return false;  // a resource is needed: its own hand-written cases cover it
  }
}

// The subcommands of those definitions, in registry order.
inline std::vector<std::string> registered_segment_commands() {
  std::vector<std::string> commands;
  for (const MetricDefinition* definition : metric_definitions()) {
    if (scores_segments_by_default(*definition)) commands.push_back(definition->command);
  }
  return commands;
}

// `hand_written` followed by the registered segment commands it lacks.
inline std::vector<std::string> with_registered_commands(std::vector<std::string> hand_written) {
  for (const auto& command : registered_segment_commands()) {
    if (std::find(hand_written.begin(), hand_written.end(), command) == hand_written.end()) {
      hand_written.push_back(command);
    }
  }
  return hand_written;
}

}  // namespace evalcli::test
