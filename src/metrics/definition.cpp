#include "evalcli/metrics/definition.hpp"

#include <fmt/format.h>

#include <cmath>
#include <algorithm>
#include <set>

#include "evalcli/core/error.hpp"
#include "evalcli/core/numbers.hpp"

namespace evalcli {
namespace {

const std::string& first_or_empty(const std::vector<std::string>& values) {
  static const std::string empty;
  return values.empty() ? empty : values.front();
}

// A whole number or a finite decimal, in range; else a usage error naming `where`.
void check_number(const OptionSpec& spec, const std::string& value, const std::string& where) {
  if (spec.kind == OptionKind::integer) {
    const auto bound = [](double b, long long fallback) { return std::isfinite(b) ? static_cast<long long>(b) : fallback; };
    integer_in_range(where, value, bound(spec.min, std::numeric_limits<int>::min()),
                     bound(spec.max, std::numeric_limits<int>::max()));
  } else {
    double_in_range(where, value, std::isfinite(spec.min) ? spec.min : std::numeric_limits<double>::lowest(),
                    std::isfinite(spec.max) ? spec.max : std::numeric_limits<double>::max());
  }
}

// The long key of `key`: the metric's own short keys first (TER's t = tok),
// then SacreBLEU's short keys of the fields every metric has.
std::string canonical_key(const MetricDefinition& definition, const std::string& key) {
  for (const auto& spec : definition.options) {
    if (!spec.signature_key.empty() && key == spec.signature_short_key) return spec.signature_key;
  }
  for (const auto& entry : definition.signature_keys) {
    if (!entry.short_key.empty() && key == entry.short_key) return entry.key;
  }
  static const std::map<std::string, std::string, std::less<>> kRunKeys = {
      {"#", "nrefs"}, {"v", "version"}, {"t", "test"}, {"l", "lang"}, {"o", "origlang"}, {"S", "subset"}, {"rs", "seed"}};
  const auto found = kRunKeys.find(key);
  return found == kRunKeys.end() ? key : found->second;
}

bool is_metric_key(const MetricDefinition& definition, const std::string& key) {
  return std::any_of(definition.options.begin(), definition.options.end(),
                     [&](const OptionSpec& s) { return !s.signature_key.empty() && s.signature_key == key; }) ||
         std::any_of(definition.signature_keys.begin(), definition.signature_keys.end(),
                     [&](const SignatureKey& k) { return k.key == key; });
}

// Sets the option a one-to-one field stands for.
void apply_option_field(const OptionSpec& spec, const SignatureField& field, OptionValues& values) {
  const std::string where = fmt::format("signature field '{}:{}'", field.key, field.value);
  if (spec.kind == OptionKind::flag) {
    const bool yes_no = spec.flag_words[0] == "yes" || spec.flag_words[0] == "no";
    // SacreBLEU 1.x writes yes/no fields as true/false.
    const bool on = field.value == spec.flag_words[0] || (yes_no && field.value == (spec.flag_words[0] == "yes" ? "true" : "false"));
    const bool off = field.value == spec.flag_words[1] || (yes_no && field.value == (spec.flag_words[1] == "yes" ? "true" : "false"));
    if (!on && !off) {
      throw usage_error(fmt::format("signature: unknown {} '{}' (known: {}, {})", field.key, field.value,
                                    spec.flag_words[0], spec.flag_words[1]));
    }
    values.set_flag(spec.name, on);
    return;
  }
  check_option_value(spec, field.value, where);
  values.set(spec.name, field.value);
}

void check_metric_name(const MetricDefinition& definition, const std::string& name) {
  for (const auto& prefix : definition.names) {
    if (name.rfind(prefix, 0) == 0) return;
  }
  throw usage_error(fmt::format("signature is for {}, not {}", name, definition.names.front()));
}

}  // namespace

bool OptionValues::has(std::string_view name) const { return values_.find(name) != values_.end(); }

std::string OptionValues::text(std::string_view name, std::string_view fallback) const {
  const auto found = values_.find(name);
  return found == values_.end() ? std::string(fallback) : first_or_empty(found->second);
}

int OptionValues::integer(std::string_view name, int fallback) const {
  const auto found = values_.find(name);
  if (found == values_.end()) return fallback;
  return integer_in_range<int>(fmt::format("--{}", name), first_or_empty(found->second));
}

double OptionValues::real(std::string_view name, double fallback) const { return optional_real(name).value_or(fallback); }

std::optional<double> OptionValues::optional_real(std::string_view name) const {
  const auto found = values_.find(name);
  if (found == values_.end()) return std::nullopt;
  return double_in_range(fmt::format("--{}", name), first_or_empty(found->second));
}

bool OptionValues::flag(std::string_view name) const { return text(name) == "true"; }

std::vector<std::string> OptionValues::list(std::string_view name) const {
  const auto found = values_.find(name);
  return found == values_.end() ? std::vector<std::string>{} : found->second;
}

void OptionValues::set(const std::string& name, std::string value) { values_[name] = {std::move(value)}; }
void OptionValues::set_flag(const std::string& name, bool on) { set(name, on ? "true" : "false"); }
void OptionValues::set_list(const std::string& name, std::vector<std::string> values) { values_[name] = std::move(values); }

void OptionValues::merge_role(const OptionValues& other, const std::vector<OptionSpec>& specs, OptionRole role) {
  if (other.from_signature_) from_signature_ = true;
  for (const auto& spec : specs) {
    if (spec.role != role) continue;
    if (const auto found = other.values_.find(spec.name); found != other.values_.end()) values_[spec.name] = found->second;
  }
}

namespace {

// The printed value of `key` for `model`: the option whose field it is, or the
// signature key's printer; a key with neither is a bug in the definition.
std::optional<std::string> printed_value(const MetricDefinition& definition, const std::string& key,
                                         const StatsModel& model) {
  for (const auto& spec : definition.options) {
    if (spec.signature_key != key) continue;
    if (!spec.print) break;
    const auto value = spec.print(model);
    if (!value || spec.kind != OptionKind::flag) return value;
    return spec.flag_words[*value == "true" ? 0 : 1];
  }
  for (const auto& entry : definition.signature_keys) {
    if (entry.key == key && entry.print) return entry.print(model);
  }
  throw std::logic_error(fmt::format("{}: signature field '{}' has no printer", definition.command, key));
}

}  // namespace

FieldPrinter fixed_value(std::string value) {
  return [value = std::move(value)](const StatsModel&) -> std::optional<std::string> { return value; };
}

SignatureKey fixed_signature_key(const std::string& label, const std::string& key, const std::string& value) {
  return {key, "",
          [label, key, value](const std::string& given, OptionValues&) {
            if (given != value) throw usage_error(fmt::format("{}: signature field {}:{} is not {}", label, key, given, value));
          },
          fixed_value(value)};
}

std::string print_signature(const MetricDefinition& definition, const StatsModel& model) {
  std::string signature;
  for (const auto& key : definition.signature_layout) {
    const auto value = printed_value(definition, key, model);
    if (!value) continue;
    if (!signature.empty()) signature += '|';
    signature += key + ":" + *value;
  }
  return signature;
}

std::vector<SacrebleuField> print_sacrebleu_fields(const MetricDefinition& definition, const StatsModel& model) {
  std::vector<SacrebleuField> fields;
  for (const auto& field : definition.sacrebleu_layout) {
    const auto value = field.print ? field.print(model) : printed_value(definition, field.key, model);
    if (value) fields.push_back({field.key, field.short_key, *value});
  }
  return fields;
}

SignatureKey* MetricDefinition::find_signature_key(std::string_view key) {
  for (auto& entry : signature_keys) {
    if (entry.key == key) return &entry;
  }
  return nullptr;
}

const OptionSpec* MetricDefinition::find_option(std::string_view name) const {
  for (const auto& spec : options) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

OptionSpec refused_lowercase(std::string reason) {
  return {.name = "lowercase",
          .kind = OptionKind::flag,
          .sacrebleu_alias = "-lc",
          .role = OptionRole::no_effect,
          .refusal = std::move(reason)};
}

void check_option_value(const OptionSpec& spec, const std::string& value, const std::string& where) {
  if (spec.kind == OptionKind::integer || spec.kind == OptionKind::real) {
    check_number(spec, value, where);
  } else if (!spec.choices.empty() && std::find(spec.choices.begin(), spec.choices.end(), value) == spec.choices.end()) {
    throw usage_error(fmt::format("{}: unknown value '{}' (known: {})", where, value, fmt::join(spec.choices, ", ")));
  }
}

bool informational_signature_key(std::string_view key) {
  for (const char* info : {"version", "test", "lang", "origlang", "subset"}) {
    if (key == info) return true;
  }
  return false;
}

OptionValues option_values_from_signature(const MetricDefinition& definition,
                                          const std::vector<SignatureField>& fields) {
  OptionValues values;
  values.mark_from_signature();
  std::set<std::string> seen;
  for (const auto& field : fields) {
    const std::string key = canonical_key(definition, field.key);
    if (!seen.insert(key).second) {
      throw usage_error(fmt::format("signature gives '{}' twice (last: '{}:{}')", key, field.key, field.value));
    }
    if (!is_metric_key(definition, key) &&
        (key == "nrefs" || key == "bs" || key == "ar" || key == "seed" || informational_signature_key(key))) {
      continue;  // the run's own fields, read by the front end
    }
    const auto spec = std::find_if(definition.options.begin(), definition.options.end(), [&](const OptionSpec& s) {
      return !s.signature_key.empty() && s.signature_key == key;
    });
    if (spec != definition.options.end()) {
      apply_option_field(*spec, field, values);
      continue;
    }
    const auto entry = std::find_if(definition.signature_keys.begin(), definition.signature_keys.end(),
                                    [&](const SignatureKey& k) { return k.key == key; });
    if (entry == definition.signature_keys.end() && key == "metric") {
      // A whole pasted line starts with the metric's name ("CIDEr-D|nrefs:2|...").
      check_metric_name(definition, field.value);
      continue;
    }
    if (entry == definition.signature_keys.end()) {
      throw usage_error(fmt::format("signature field '{}:{}' is not a {} option evalcli knows", field.key, field.value,
                                    definition.names.front()));
    }
    entry->apply(field.value, values);
  }
  return values;
}

}  // namespace evalcli
