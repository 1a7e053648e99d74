#include "evalcli/core/signature.hpp"

#include <fmt/format.h>

#include <limits>

#include "evalcli/core/error.hpp"
#include "evalcli/core/numbers.hpp"
#include "evalcli/core/version.hpp"

namespace evalcli {
namespace {

std::vector<std::string_view> split_on(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t pos = text.find(separator, start);
    parts.push_back(text.substr(start, pos == std::string_view::npos ? text.npos : pos - start));
    if (pos == std::string_view::npos) break;
    start = pos + 1;
  }
  return parts;
}

// SacreBLEU 1.x keys -> 2.x keys.
std::string modern_key(std::string_view key) {
  if (key == "numrefs") return "nrefs";
  if (key == "numchars") return "nc";
  if (key == "numwords") return "nw";
  return std::string(key);
}

}  // namespace

std::vector<SignatureField> parse_signature(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\n')) text.remove_suffix(1);
  // Drop a trailing " = 38.4 ..." if a whole output line was pasted.
  if (auto eq = text.find(" = "); eq != std::string_view::npos) text = text.substr(0, eq);
  std::vector<SignatureField> fields;
  if (text.find('|') == std::string_view::npos && text.find('+') != std::string_view::npos &&
      text.find(':') == std::string_view::npos) {
    // 1.x: NAME+key.value+key.value
    auto parts = split_on(text, '+');
    for (std::size_t i = 1; i < parts.size(); ++i) {
      const auto dot = parts[i].find('.');
      if (dot == std::string_view::npos || dot == 0) {
        throw usage_error(fmt::format("unparsable signature field '{}' in '{}'", parts[i], text));
      }
      fields.push_back({modern_key(parts[i].substr(0, dot)), std::string(parts[i].substr(dot + 1))});
    }
    fields.insert(fields.begin(), {"metric", std::string(parts[0])});
    return fields;
  }
  for (auto part : split_on(text, '|')) {
    const auto colon = part.find(':');
    if (colon == std::string_view::npos) {
      if (fields.empty() && !part.empty()) {  // leading metric name
        fields.push_back({"metric", std::string(part)});
        continue;
      }
      throw usage_error(fmt::format("unparsable signature field '{}' in '{}'", part, text));
    }
    if (colon == 0) throw usage_error(fmt::format("signature field '{}' has no key", part));
    fields.push_back({std::string(part.substr(0, colon)), std::string(part.substr(colon + 1))});
  }
  if (fields.empty()) throw usage_error("empty signature");
  return fields;
}

int signature_int(std::string_view key, std::string_view value) {
  int number = 0;
  switch (parse_integer(value, number)) {
    case NumberProblem::ok: return number;
    case NumberProblem::out_of_range:
      throw usage_error(fmt::format("signature field '{}:{}' is out of range ({} to {})", key, value,
                                    std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
    case NumberProblem::malformed: break;
  }
  throw usage_error(fmt::format("signature field '{}:{}' is not a whole number", key, value));
}

double signature_double(std::string_view key, std::string_view value) {
  double number = 0;
  if (parse_finite_double(value, number) != NumberProblem::ok) {
    throw usage_error(fmt::format("signature field '{}:{}' is not a finite number", key, value));
  }
  return number;
}

void check_signature_nrefs(std::string_view value, std::optional<std::size_t> given_refs) {
  if (given_refs && value != "var" && value != std::to_string(*given_refs)) {
    throw usage_error(fmt::format("signature has nrefs:{} but {} reference(s) were given", value, *given_refs));
  }
}

bool signature_yes_no(std::string_view key, std::string_view value) {
  if (value == "yes" || value == "true") return true;
  if (value == "no" || value == "false") return false;
  throw usage_error(fmt::format("signature: unknown {} value '{}'", key, value));
}

bool signature_lowercase(std::string_view value) {
  if (value != "mixed" && value != "lc") throw usage_error(fmt::format("signature: unknown case '{}'", value));
  return value == "lc";
}

std::optional<std::string> find_field(const std::vector<SignatureField>& fields, std::string_view key) {
  for (const auto& field : fields) {
    if (field.key == key) return field.value;
  }
  return std::nullopt;
}

std::string full_signature(std::size_t nrefs, std::string_view metric_fields, std::string_view extra) {
  std::string sig = nrefs == kVariableRefs ? std::string("nrefs:var") : fmt::format("nrefs:{}", nrefs);
  if (!extra.empty()) sig += fmt::format("|{}", extra);
  if (!metric_fields.empty()) sig += fmt::format("|{}", metric_fields);
  sig += "|version:" + evalcli_version_tag();
  return sig;
}

}  // namespace evalcli
