#pragma once
// Signatures: `key:value` fields joined by `|` (docs/signatures.md).
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace evalcli {

struct SignatureField {
  std::string key;
  std::string value;
};

// Parses "nrefs:1|case:mixed|..." (evalcli or SacreBLEU 2.x form), or the
// SacreBLEU 1.x form "BLEU+case.mixed+numrefs.1+...". A leading metric name
// ("BLEU|...") is accepted and dropped. Throws a usage error if unparsable.
std::vector<SignatureField> parse_signature(std::string_view text);

// Numeric field values ("order:4", "smooth:floor[0.10]"): the whole value must
// be a number in range, else a usage error naming the field.
int signature_int(std::string_view key, std::string_view value);
double signature_double(std::string_view key, std::string_view value);

// The "nrefs" field against the number of references given on the command line
// (nullopt: not known yet); "var" matches any. A mismatch is a usage error.
void check_signature_nrefs(std::string_view value, std::optional<std::size_t> given_refs);

// Yes/no fields ("eff:yes", SacreBLEU 1.x "true"/"false"): else a usage error naming the field.
bool signature_yes_no(std::string_view key, std::string_view value);

// The "case" field: true for "lc", false for "mixed", else a usage error.
bool signature_lowercase(std::string_view value);

std::optional<std::string> find_field(const std::vector<SignatureField>& fields, std::string_view key);

// nrefs value for items with different numbers of references: printed "nrefs:var".
inline constexpr std::size_t kVariableRefs = static_cast<std::size_t>(-1);

// "nrefs:N|<extra>|<metric fields>|version:evalcli-X.Y.Z"
std::string full_signature(std::size_t nrefs, std::string_view metric_fields,
                           std::string_view extra_fields = {});

}  // namespace evalcli
