#pragma once
// The HTML page of `evalcli report --html` (issue 22 item 4, docs/report.md
// "The HTML report"): one self-contained file, no network. The score table and
// the charts (inline SVG) are written here; the per-segment view is rendered
// page by page in the browser from a JSON block, so that 20k segments open fast.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace evalcli::cli {

// The page for a table document of schema evalcli-table/1 (the "segments" and
// "buckets" members are optional: without them the charts say "no data" and
// the segment view is empty). Never throws on missing or null members.
std::string render_html_report(const nlohmann::ordered_json& table);

// `text` with & < > " ' replaced by character references: safe in element
// content and in quoted attribute values.
std::string html_escape(std::string_view text);

// `value` as JSON that can sit inside <script type="application/json">: every
// < > & is written \u003c \u003e \u0026 (they only occur inside JSON strings,
// where JSON.parse reads them back unchanged), so no "</script" or "<!--" can
// end the block. Invalid UTF-8 is replaced by U+FFFD.
std::string json_for_script(const nlohmann::ordered_json& value);

}  // namespace evalcli::cli
