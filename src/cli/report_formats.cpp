#include "cli/report_formats.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "evalcli/core/error.hpp"
#include "evalcli/core/format.hpp"
#include "evalcli/text/utf8.hpp"

namespace evalcli::cli {
namespace {

using Json = nlohmann::ordered_json;

bool significant(const Json& cell) { return cell.contains("significant") && cell["significant"] == true; }

std::string fixed(const Json& value, int width) { return format_fixed(value.get<double>(), width); }

// "(μ = 50.1 ± 0.8)": the --confidence interval (when its mean is positive), else
// the paired bootstrap's, as the single-metric commands print them.
std::string interval_part(const Json& cell, int width, std::string_view mu, std::string_view pm) {
  auto shown = [&](const Json& interval) {
    return fmt::format(" ({} = {} {} {})", mu, fixed(interval["mean"], width), pm, fixed(interval["half_width"], width));
  };
  const bool confidence = cell.contains("confidence") && !cell["confidence"].is_null();
  if (confidence) return cell["confidence"]["mean"].get<double>() > 0 ? shown(cell["confidence"]) : "";
  if (cell.contains("paired_interval") && !cell["paired_interval"].is_null()) return shown(cell["paired_interval"]);
  return "";
}

std::string p_part(const Json& cell) {
  if (!cell.contains("p_value") || cell["p_value"].is_null()) return "";
  return fmt::format(" (p = {:.4f}){}", cell["p_value"].get<double>(), significant(cell) ? "*" : "");
}

int row_width(const Json& row) { return row["width"].get<int>(); }

std::vector<std::string> system_names(const Json& table) { return table["systems"].get<std::vector<std::string>>(); }

std::size_t display_width(const std::string& text) {
  std::u32string decoded;
  utf8::decode(text, decoded);
  return decoded.size();
}

std::string pad(const std::string& text, std::size_t width) {
  const std::size_t shown = display_width(text);
  return text + std::string(width > shown ? width - shown : 0, ' ');
}

std::string significance_note(const Json& table) {
  const Json& test = table["paired_test"];
  if (test.is_null()) return "";
  const std::string name = test["test"] == "paired-bootstrap" ? "paired bootstrap" : "paired approximate randomization";
  std::string note = fmt::format("* p <= 0.05 against the baseline {} ({}, {} resamples, seed {})", table["baseline"].get<std::string>(),
                                 name, test["samples"].get<long long>(), test["seed"].get<std::string>());
  return note;
}

// All-pairs p-values: one line per row and pair, with the note on multiple comparisons.
std::vector<std::string> pair_lines(const Json& table) {
  std::vector<std::string> lines;
  std::size_t comparisons = 0;
  for (const auto& row : table["rows"]) {
    for (const auto& pair : row["pairs"]) {
      lines.push_back(fmt::format("{}: {} vs {}: p = {:.4f}{}", row["label"].get<std::string>(), pair["a"].get<std::string>(),
                                  pair["b"].get<std::string>(), pair["p_value"].get<double>(),
                                  pair["significant"] == true ? "*" : ""));
      ++comparisons;
    }
  }
  if (comparisons > 0) {
    lines.push_back(fmt::format(
        "{} comparisons, p-values not corrected for multiple comparisons (Bonferroni: significant at 0.05 only below {:.4g})",
        comparisons, 0.05 / static_cast<double>(comparisons)));
  }
  return lines;
}

std::vector<std::string> signature_lines(const Json& table) {
  std::vector<std::string> lines;
  std::string last;
  for (const auto& row : table["rows"]) {
    const std::string signature = row["signature"].get<std::string>();
    if (signature == last) continue;  // score components share their metric's signature
    last = signature;
    lines.push_back(fmt::format("{}: {}", row["metric_name"].get<std::string>(), signature));
  }
  return lines;
}

// --stats: under each row, its sentence scores as "mean ± stdev (n = N)" per system.
bool shows_sentence_rows(const Json& table) { return table.value("sentence_stats", false); }

std::string sentence_cell(const Json& cell, int width) {
  const Json& d = cell["sentence_scores"];
  if (d.is_null()) return "-";
  return fmt::format("{} ± {} (n = {})", fixed(d["mean"], width), fixed(d["stdev"], width), d["n"].get<long long>());
}

std::string sentence_label(const Json& row) { return row["label"].get<std::string>() + " sentences"; }

// ---------------------------------------------------------------- text

std::string text_table(const Json& table) {
  const auto systems = system_names(table);
  std::vector<std::vector<std::string>> cells;  // [row][0 = label, 1.. = systems]
  std::vector<std::string> header = {"metric"};
  for (std::size_t s = 0; s < systems.size(); ++s) {
    header.push_back(systems[s] + (table["baseline"].is_string() && s == 0 ? " (baseline)" : ""));
  }
  cells.push_back(header);
  for (const auto& row : table["rows"]) {
    std::vector<std::string> line = {row["label"].get<std::string>()};
    for (const auto& cell : row["cells"]) line.push_back(cell_text(cell, row_width(row)));
    cells.push_back(line);
    if (!shows_sentence_rows(table)) continue;
    std::vector<std::string> sentences = {"  " + sentence_label(row)};
    for (const auto& cell : row["cells"]) sentences.push_back(sentence_cell(cell, row_width(row)));
    cells.push_back(sentences);
  }
  std::vector<std::size_t> widths(header.size(), 0);
  for (const auto& line : cells) {
    for (std::size_t c = 0; c < line.size(); ++c) widths[c] = std::max(widths[c], display_width(line[c]));
  }
  std::string out;
  for (const auto& line : cells) {
    std::string text;
    for (std::size_t c = 0; c < line.size(); ++c) text += (c > 0 ? "  " : "") + pad(line[c], widths[c]);
    text.erase(text.find_last_not_of(' ') + 1);
    out += text + "\n";
  }
  if (const std::string note = significance_note(table); !note.empty()) out += "\n" + note + "\n";
  const auto pairs = pair_lines(table);
  if (!pairs.empty()) out += "\n";
  for (const auto& line : pairs) out += line + "\n";
  out += "\n";
  for (const auto& line : signature_lines(table)) out += line + "\n";
  return out;
}

// ---------------------------------------------------------------- Markdown

std::string markdown_escape(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '|' || c == '*' || c == '_' || c == '\\' || c == '`') out += '\\';
    out += c;
  }
  return out;
}

std::string markdown_cell(const Json& cell, int width) {
  std::string text = fixed(cell["score"], width) + interval_part(cell, width, "μ", "±");
  if (cell.contains("p_value") && !cell["p_value"].is_null()) {
    text += fmt::format(" (p = {:.4f})", cell["p_value"].get<double>());
    if (significant(cell)) text = "**" + text + "**\\*";
  }
  return text;
}

std::string markdown_table(const Json& table) {
  const auto systems = system_names(table);
  std::string out = "| Metric |";
  std::string rule = "|:---|";
  for (std::size_t s = 0; s < systems.size(); ++s) {
    out += " " + markdown_escape(systems[s]) + (table["baseline"].is_string() && s == 0 ? " (baseline)" : "") + " |";
    rule += "---:|";
  }
  out += "\n" + rule + "\n";
  for (const auto& row : table["rows"]) {
    out += "| " + markdown_escape(row["label"].get<std::string>()) + " |";
    for (const auto& cell : row["cells"]) out += " " + markdown_cell(cell, row_width(row)) + " |";
    out += "\n";
    if (!shows_sentence_rows(table)) continue;
    out += "| " + markdown_escape(sentence_label(row)) + " |";
    for (const auto& cell : row["cells"]) out += " " + sentence_cell(cell, row_width(row)) + " |";
    out += "\n";
  }
  if (const std::string note = significance_note(table); !note.empty()) {
    out += "\n" + markdown_escape(note) + "; significant cells in bold.\n";
  }
  const auto pairs = pair_lines(table);
  if (!pairs.empty()) out += "\n";
  for (const auto& line : pairs) out += "- " + markdown_escape(line) + "\n";
  out += "\nSignatures:\n\n";
  for (const auto& line : signature_lines(table)) out += "- `" + line + "`\n";
  return out;
}

// ---------------------------------------------------------------- LaTeX

std::string latex_escape(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '\\': out += "\\textbackslash{}"; break;
      case '&': case '%': case '$': case '#': case '_': case '{': case '}': out += '\\'; out += c; break;
      case '~': out += "\\textasciitilde{}"; break;
      case '^': out += "\\textasciicircum{}"; break;
      default: out += c;
    }
  }
  return out;
}

std::string latex_cell(const Json& cell, int width) {
  std::string text = fixed(cell["score"], width);
  if (significant(cell)) text = "\\textbf{" + text + "}$^{*}$";
  if (const std::string interval = interval_part(cell, width, "$\\mu$", "$\\pm$"); !interval.empty()) {
    text += " {\\small" + interval + "}";
  }
  return text;
}

std::string latex_table(const Json& table) {
  const auto systems = system_names(table);
  std::string out = "% " + latex_escape(table["command"].get<std::string>()) + "\n";
  out += "\\begin{tabular}{l" + std::string(systems.size(), 'r') + "}\n\\toprule\nMetric";
  for (std::size_t s = 0; s < systems.size(); ++s) {
    out += " & " + latex_escape(systems[s]) + (table["baseline"].is_string() && s == 0 ? " (baseline)" : "");
  }
  out += " \\\\\n\\midrule\n";
  for (const auto& row : table["rows"]) {
    out += latex_escape(row["label"].get<std::string>());
    for (const auto& cell : row["cells"]) out += " & " + latex_cell(cell, row_width(row));
    out += " \\\\\n";
    if (!shows_sentence_rows(table)) continue;
    out += "\\quad " + latex_escape(sentence_label(row));
    for (const auto& cell : row["cells"]) {
      std::string text = sentence_cell(cell, row_width(row));
      const auto pm = text.find("±");
      if (pm != std::string::npos) text.replace(pm, std::string("±").size(), "$\\pm$");
      out += " & {\\small " + text + "}";
    }
    out += " \\\\\n";
  }
  out += "\\bottomrule\n\\end{tabular}\n";
  if (const std::string note = significance_note(table); !note.empty()) out += "% " + note + "; significant cells in bold\n";
  for (const auto& line : pair_lines(table)) out += "% " + line + "\n";
  for (const auto& line : signature_lines(table)) out += "% " + line + "\n";
  return out;
}

// ---------------------------------------------------------------- TSV

// TSV fields never hold tabs or newlines (labels and signatures cannot).
std::string tsv_number(const Json& value) {
  if (value.is_null()) return "";
  return python_float_repr(value.get<double>());
}

std::string tsv_table(const Json& table) {
  std::string out = "metric\tlabel\tsystem\tscore\ttext\tci_mean\tci_half_width\tci_lower\tci_upper\tp_value\tsignificant\tsignature\n";
  for (const auto& row : table["rows"]) {
    for (const auto& cell : row["cells"]) {
      const Json none;
      const Json& ci = cell.contains("confidence") && !cell["confidence"].is_null() ? cell["confidence"] : none;
      auto ci_field = [&](const char* key) { return ci.is_null() ? std::string() : tsv_number(ci[key]); };
      out += fmt::format("{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n", row["metric"].get<std::string>(),
                         row["label"].get<std::string>(), cell["system"].get<std::string>(), tsv_number(cell["score"]),
                         cell["text"].get<std::string>(), ci_field("mean"), ci_field("half_width"), ci_field("lower"),
                         ci_field("upper"), tsv_number(cell["p_value"]),
                         cell["significant"].is_null() ? "" : (significant(cell) ? "true" : "false"),
                         row["signature"].get<std::string>());
    }
  }
  return out;
}

}  // namespace

std::string cell_text(const Json& cell, int width) {
  return fixed(cell["score"], width) + interval_part(cell, width, "μ", "±") + p_part(cell);
}

std::string render_table(const Json& table, std::string_view format) {
  if (format == "text") return text_table(table);
  if (format == "markdown") return markdown_table(table);
  if (format == "latex") return latex_table(table);
  if (format == "tsv") return tsv_table(table);
  if (format == "json") {
    Json document = table;
    document.erase("segments");
    document.erase("buckets");
    return document.dump(2) + "\n";
  }
  throw Error(ExitCode::internal, fmt::format("no table format '{}'", format));
}

}  // namespace evalcli::cli
