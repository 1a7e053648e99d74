#pragma once
// A metric declared once (docs/adding-a-metric.md): its options as data, and
// how it is built from their values. From the table follow the command-line
// options of its subcommand (flags, SacreBLEU aliases, help, range checks with
// NaN/inf refused), the reading of its signature back (`--signature`, `evalcli
// merge`, `evalcli check`), and what --signature refuses to be given twice.
// The metric's signature() is printed from the same table (print_signature):
// every field has its printer beside the key that reads it back, and
// tests/unit/run_signature_test.cpp checks for every metric that a printed
// signature read back reproduces the run.
#include <array>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "evalcli/core/signature.hpp"
#include "evalcli/metrics/metric.hpp"

namespace evalcli {

enum class OptionKind { flag, integer, real, text, list };

// How a built metric prints one signature field: the value, or nullopt to
// leave the field out (BLEU's order: at its default 4). For an option's field
// the value is the option's as OptionValues holds it (a flag's "true" or
// "false", printed as its flag_words).
using FieldPrinter = std::function<std::optional<std::string>(const StatsModel&)>;

// A printer over the metric's own class. It prints nothing for a model of
// another class: a definition that builds two (ROUGE's rouge-score and
// ROUGE-1.5.5 modes) lays out the fields of both.
template <class Model, class Get>
FieldPrinter field_printer(Get get) {
  return [get](const StatsModel& model) -> std::optional<std::string> {
    const auto* own = dynamic_cast<const Model*>(&model);
    if (own == nullptr) return std::nullopt;
    return get(*own);
  };
}

// The printer of a field whose value never changes ("compat:pycocoevalcap-1.2").
FieldPrinter fixed_value(std::string value);
// "true"/"false": a flag option's value for its printer.
inline std::string flag_value(bool on) { return on ? "true" : "false"; }

// metric: in the signature, so refused next to --signature; resource: data the
// signature cannot carry (a folder, a model), given on every run; no_effect:
// accepted for compatibility, changes nothing.
enum class OptionRole { metric, resource, no_effect };

struct OptionSpec {
  std::string name;  // the long flag without "--" ("max-ngram-order"), and the key of its value
  OptionKind kind = OptionKind::text;
  std::string help;
  std::string default_text;  // shown in the help ("4"); the default itself is the build function's
  double min = -std::numeric_limits<double>::infinity();  // integer and real: allowed range
  double max = std::numeric_limits<double>::infinity();
  std::vector<std::string> choices;  // text: the allowed values (empty: any)
  std::string short_flag;            // "-s", or ""
  std::string sacrebleu_alias;       // SacreBLEU's single-dash long form ("-tok"), or ""
  std::vector<std::string> aliases;  // more long flags ("--chrf-lowercase")
  OptionRole role = OptionRole::metric;
  // The signature field that is this option's value one to one ("order"), with
  // SacreBLEU's short key ("e"), or "" when a SignatureKey of the metric reads it.
  std::string signature_key;
  std::string signature_short_key;
  // Flags: the field's value when the flag is given, and when it is not.
  std::array<std::string, 2> flag_words = {"yes", "no"};
  // Not empty: a flag other commands have (-lc) that this one refuses with
  // this reason, in its own words; hidden from the help.
  std::string refusal;
  // With signature_key: prints the field (see FieldPrinter).
  FieldPrinter print;
};

// `--lowercase` (-lc) refused by a metric that decides case itself.
OptionSpec refused_lowercase(std::string reason);

// Option values by name, as given on the command line or read from a
// signature; an option not given has no value (the build function's default).
class OptionValues {
 public:
  bool has(std::string_view name) const;
  std::string text(std::string_view name, std::string_view fallback = "") const;
  int integer(std::string_view name, int fallback) const;
  double real(std::string_view name, double fallback) const;
  std::optional<double> optional_real(std::string_view name) const;
  bool flag(std::string_view name) const;
  std::vector<std::string> list(std::string_view name) const;

  void set(const std::string& name, std::string value);
  void set_flag(const std::string& name, bool on);
  void set_list(const std::string& name, std::vector<std::string> values);
  // The values of `other`'s options of `role` replace these (a --signature run
  // keeps the resources given on its command line).
  void merge_role(const OptionValues& other, const std::vector<OptionSpec>& specs, OptionRole role);

  // True for values read from a signature: fields that name data (a tokenizer's
  // dict:, a model's md5) are then checked against what the run uses.
  bool from_signature() const { return from_signature_; }
  void mark_from_signature() { from_signature_ = true; }

 private:
  std::map<std::string, std::vector<std::string>, std::less<>> values_;
  bool from_signature_ = false;
};

// A signature field that is not one option's value ("smooth:floor[0.10]",
// "stages:exact+stem-..."): how it sets the options it stands for.
struct SignatureKey {
  std::string key;
  std::string short_key;
  std::function<void(const std::string& value, OptionValues& values)> apply;
  // Prints the field (null: a field only read, such as SacreBLEU 1.x's forms).
  FieldPrinter print;
};

// A field whose value is always `value` ("compat:pycocoevalcap-1.2"): printed
// so, and any other value read back is refused ("<label>: signature field
// compat:x is not pycocoevalcap-1.2").
SignatureKey fixed_signature_key(const std::string& label, const std::string& key, const std::string& value);

// One field of `evalcli sacrebleu`'s signature: a key of the table printed
// with SacreBLEU's short key, by its own printer unless `print` is given
// (SacreBLEU names some tokenizers otherwise: ja-mecab-0.996-IPA).
struct SacrebleuLayoutField {
  std::string key;
  std::string short_key;
  FieldPrinter print;
};

// What building a metric knows beyond its options.
struct BuildContext {
  bool sentence_level = false;  // BLEU: SacreBLEU turns on effective order for sentence scores
};

struct MetricDefinition {
  std::string command;              // the subcommand: "bleu"
  std::string summary;              // its one-line help
  std::vector<std::string> names;   // name() prefixes of what it builds ("BLEU"; "chrF" for chrF2++)
  bool higher_is_better = true;
  int default_width = 1;  // decimals of printed scores when -w is not given (CIDEr 4: a 0..10 scale)
  // The usual span of the score (100 for BLEU, 1 for METEOR and ROUGE, 10 for
  // CIDEr); 0 when unbounded (perplexity). `evalcli check` refuses a --max-drop
  // that is large for it unless asked.
  double score_scale = 100;
  std::vector<OptionSpec> options;
  std::vector<SignatureKey> signature_keys;
  // The keys signature() prints, in order; each is an option's signature_key
  // or one of signature_keys, whose printer gives its value.
  std::vector<std::string> signature_layout;
  // The fields `evalcli sacrebleu` prints (BLEU, chrF, TER), in order.
  std::vector<SacrebleuLayoutField> sacrebleu_layout;
  // The metric from option values (command line or signature); throws usage errors.
  std::function<std::unique_ptr<StatsModel>(const OptionValues&, const BuildContext&)> build;
  // What merge and check need of a run when building its segment scorer needs
  // resources a signature does not carry (METEOR 1.5's folder, a language
  // model): the statistics model alone (null: build).
  std::function<std::unique_ptr<StatsModel>(const std::string& signature)> statistics_model;
  // Why shards with this signature cannot be merged, or "" (null: statistics are additive).
  std::function<std::string(const std::string& signature)> shard_problem;
  // The tokenizer that splits words for these option values, for the warning
  // about mostly Chinese/Japanese/Thai text met by one that splits only at
  // spaces (text_scan.hpp); null: no such check (chrF counts characters).
  std::function<std::string(const OptionValues&)> word_tokenizer;
  // True when the tokenizer for these values keeps only ASCII letters and
  // digits (ROUGE's own): the warning about mostly non-ASCII text.
  std::function<bool(const OptionValues&)> ascii_only_tokenizer;
  // SacreBLEU's BLEU warning about hypotheses ending in a tokenized period.
  bool tokenized_period_warning = false;
  // False where a segment's statistics need more than the segment (CIDEr's
  // document frequencies): `evalcli check` then cannot re-score -r/-i itself.
  bool segments_alone = true;

  const OptionSpec* find_option(std::string_view name) const;
  // The key that reads `key` (to give it another printer), or null.
  SignatureKey* find_signature_key(std::string_view key);
};

// The signature of `model`, which `definition` built: "key:value" for each key
// of signature_layout whose printer prints, joined by "|". A key without a
// printer is a bug (logic_error).
std::string print_signature(const MetricDefinition& definition, const StatsModel& model);
// The fields of sacrebleu_layout, for StatsModel::sacrebleu_fields().
std::vector<SacrebleuField> print_sacrebleu_fields(const MetricDefinition& definition, const StatsModel& model);

// Checks `value` against `spec` (a whole finite number in range, a known
// choice); `where` names it in the usage error ("--max-ngram-order", "signature field order").
void check_option_value(const OptionSpec& spec, const std::string& value, const std::string& where);

// Signature fields that describe where the data came from, not how it is scored.
bool informational_signature_key(std::string_view key);

// The option values a signature's fields stand for (nrefs, resampling and
// informational fields skipped). Unknown fields and a field given twice (also
// as its long and short key) are usage errors naming the field.
OptionValues option_values_from_signature(const MetricDefinition& definition,
                                          const std::vector<SignatureField>& fields);

// Every metric definition, in help order (the registry, src/metrics/registry.cpp).
const std::vector<const MetricDefinition*>& metric_definitions();
// Adds a metric at run time (a program's own metric; the test-only metric of
// tests/unit/adding_a_metric_test.cpp). `definition` must outlive every use.
void register_metric_definition(const MetricDefinition& definition);
const MetricDefinition* find_metric_definition_by_command(std::string_view command);

}  // namespace evalcli
