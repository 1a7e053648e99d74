#pragma once
// The table of `evalcli report` (an evalcli-table/1 document, docs/report.md)
// as aligned text, Markdown, LaTeX (booktabs) and TSV. Pure functions of the
// document, so that every format shows the same numbers.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace evalcli::cli {

// The formats render_table knows, in help order.
inline constexpr std::string_view kTableFormats[] = {"text", "markdown", "latex", "tsv", "json"};

// `format` is one of kTableFormats; "json" is the document itself (without its
// per-segment data).
std::string render_table(const nlohmann::ordered_json& table, std::string_view format);

// One cell as the text table prints it: "50.2 (μ = 50.1 ± 0.8) (p = 0.0010)*",
// as the single-metric commands print a score with its statistics.
std::string cell_text(const nlohmann::ordered_json& cell, int width);

}  // namespace evalcli::cli
