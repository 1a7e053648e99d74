// The HTML report of `evalcli report --html` (src/cli/report_html.cpp, docs/report.md "The HTML
// report"): escaping, one set of charts per row, null scores, one system, missing buckets, and a
// page whose size does not grow with rendered rows (the browser renders the segment view).
// tests/html/check_html_report.sh loads such pages in Chromium.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "cli/report_html.hpp"
#include "support/synthetic_report.hpp"

using evalcli::cli::html_escape;
using evalcli::cli::json_for_script;
using evalcli::cli::render_html_report;
using Json = nlohmann::ordered_json;

namespace {

std::size_t count(const std::string& haystack, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + needle.size())) ++n;
  return n;
}

// Every SVG chart of one kind ("histogram", "buckets", "by-segment"), each from <svg to </svg>.
std::vector<std::string> charts(const std::string& page, const std::string& kind) {
  std::vector<std::string> out;
  const std::string open = "<svg class=\"chart " + kind + "\"";
  for (auto at = page.find(open); at != std::string::npos; at = page.find(open, at + 1)) {
    out.push_back(page.substr(at, page.find("</svg>", at) + 6 - at));
  }
  return out;
}

// A document of the schema with `systems` systems, `rows` rows (labels R0, R1, ...) and the
// sentence scores `scores` (the same for every row); buckets for row 0 only.
Json small_table(std::size_t systems, std::size_t rows, const Json& scores) {
  Json names = Json::array();
  for (std::size_t s = 0; s < systems; ++s) names.push_back("sys" + std::to_string(s));
  Json table = {{"schema", "evalcli-table/1"}, {"command", "evalcli report -m bleu"}, {"version", "evalcli-0.9.0"},
                {"segments_total", scores.size()}, {"systems", names}, {"baseline", nullptr},
                {"paired_test", nullptr}, {"confidence", nullptr}, {"rows", Json::array()}};
  Json ids = Json::array(), refs = Json::array(), hyps = Json::array(), row_scores = Json::array();
  for (std::size_t i = 0; i < scores.size(); ++i) {
    ids.push_back(std::to_string(i + 1));
    refs.push_back({"the cat sat"});
    Json h = Json::array();
    for (std::size_t s = 0; s < systems; ++s) h.push_back("the cat");
    hyps.push_back(h);
  }
  for (std::size_t r = 0; r < rows; ++r) {
    Json cells = Json::array();
    for (std::size_t s = 0; s < systems; ++s) {
      cells.push_back({{"system", names[s]}, {"score", 10.0}, {"text", "10.0"}, {"confidence", nullptr},
                       {"p_value", nullptr}, {"significant", nullptr}});
    }
    table["rows"].push_back({{"metric", "bleu"}, {"label", "R" + std::to_string(r)},
                             {"signature", "sig-of-R" + std::to_string(r)}, {"width", 1}, {"higher_is_better", true},
                             {"cells", cells}, {"pairs", Json::array()}});
    row_scores.push_back(scores);
  }
  table["segments"] = {{"ids", ids}, {"references", refs}, {"hypotheses", hyps}, {"scores", row_scores}};
  Json bucket_scores = Json::array();
  for (std::size_t s = 0; s < systems; ++s) bucket_scores.push_back(20.0 + static_cast<double>(s));
  const Json bucket = {{"label", "1-10"}, {"segments", scores.size()}, {"scores", bucket_scores}};
  table["buckets"] = {{{"row", 0}, {"buckets", {bucket}}}};
  return table;
}

}  // namespace

TEST_CASE("html_escape replaces the five characters that HTML gives a meaning", "[report_html]") {
  CHECK(html_escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&#39;");
  CHECK(html_escape("plain text, é") == "plain text, é");
}

TEST_CASE("json_for_script cannot end its script block and reads back unchanged", "[report_html]") {
  const Json value = {{"hyp", "</script><script>alert(1)</script> <!-- & </SCRIPT >"}, {"n", 1.5}};
  const std::string text = json_for_script(value);
  CHECK(text.find('<') == std::string::npos);
  CHECK(text.find('>') == std::string::npos);
  CHECK(text.find('&') == std::string::npos);
  CHECK(Json::parse(text) == value);  // \u003c is "<" for every JSON reader (JSON.parse in the page)
}

TEST_CASE("report text cannot break out of the page's markup or scripts", "[report_html]") {
  Json table = small_table(2, 1, Json::array({{1.0, 2.0}}));
  table["systems"][1] = "<b>bold</b>.txt";
  table["rows"][0]["label"] = "<i>label</i>";
  table["rows"][0]["signature"] = "sig<script>alert(1)</script>";
  table["command"] = "evalcli report -i '<img src=x>'";
  table["segments"]["hypotheses"][0][1] = "</script><script>window.pwned = 1</script></SCRIPT >";
  table["segments"]["references"][0][0] = "Tom & Jerry <!--";
  const std::string page = render_html_report(table);
  // The page's own three scripts (error hook, segment data, segment view) and nothing else.
  CHECK(count(page, "<script") == 3);
  CHECK(count(page, "</script") == 3);
  CHECK(count(page, "</SCRIPT") == 0);
  CHECK(count(page, "<!--") == 0);
  for (const char* markup : {"<b>", "<i>", "<img"}) CHECK(count(page, markup) == 0);
  CHECK(count(page, "&lt;b&gt;bold&lt;/b&gt;.txt") >= 2);  // the score table's head and a chart legend
  CHECK(count(page, "sig&lt;script&gt;alert(1)&lt;/script&gt;") == 1);
  CHECK(count(page, "evalcli report -i &#39;&lt;img src=x&gt;&#39;") == 1);
}

TEST_CASE("every row gets a histogram, a bucket chart and a by-segment chart", "[report_html]") {
  const std::string page = render_html_report(small_table(3, 4, Json::array({{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}})));
  CHECK(charts(page, "histogram").size() == 4);
  CHECK(charts(page, "buckets").size() == 4);
  CHECK(charts(page, "by-segment").size() == 4);
  for (int r = 0; r < 4; ++r) {
    CHECK(count(page, "<section class=\"row-charts\" id=\"row-" + std::to_string(r) + "\">") == 1);
  }
  // Buckets were given for row 0 only: the other rows' bucket charts say so instead of drawing bars.
  const auto buckets = charts(page, "buckets");
  CHECK(count(buckets[0], "no reference-length buckets") == 0);
  CHECK(count(buckets[0], "<rect") == 3 + 3);  // a legend square and a bar per system
  for (std::size_t r = 1; r < 4; ++r) CHECK(count(buckets[r], "no reference-length buckets") == 1);
  CHECK(count(page, "id=\"score-table\"") == 1);
  CHECK(count(page, "id=\"segments\"") == 1);
  for (int r = 0; r < 4; ++r) CHECK(count(page, "<code>sig-of-R" + std::to_string(r) + "</code>") == 1);
}

TEST_CASE("the histogram counts each system's sentence scores over shared bins", "[report_html]") {
  // sys0: 0, 0, 100 -> 2 in the first bin, 1 in the last; sys1: 50 three times -> 3 in one bin.
  const auto page = render_html_report(small_table(2, 1, Json::array({{0.0, 50.0}, {0.0, 50.0}, {100.0, 50.0}})));
  const std::string histogram = charts(page, "histogram").at(0);
  CHECK(count(histogram, "<rect") == 3);
  CHECK(count(histogram, ">0 to 5: 2 segments</title>") == 1);
  CHECK(count(histogram, ">95 to 100: 1 segments</title>") == 1);
  CHECK(count(histogram, ">50 to 55: 3 segments</title>") == 1);
  CHECK(count(histogram, "sys0: n = 3, mean 33.3, median 0.0") == 1);
  CHECK(count(histogram, "sys1: n = 3, mean 50.0, median 50.0") == 1);
}

TEST_CASE("null sentence and corpus scores are shown as undefined, not as zero", "[report_html]") {
  Json table = small_table(2, 2, Json::array({{nullptr, 10.0}, {30.0, nullptr}, {nullptr, 20.0}}));
  table["segments"]["scores"][1] = Json::array({{nullptr, nullptr}, {nullptr, nullptr}, {nullptr, nullptr}});
  table["rows"][0]["cells"][1]["score"] = nullptr;
  table["rows"][0]["cells"][1].erase("text");
  const std::string page = render_html_report(table);
  const auto histograms = charts(page, "histogram");
  REQUIRE(histograms.size() == 2);
  CHECK(count(histograms[0], "sys0: n = 1, mean 30.0, median 30.0, 2 undefined") == 1);
  CHECK(count(histograms[0], "sys1: n = 2, mean 15.0, median 15.0, 1 undefined") == 1);
  CHECK(count(histograms[1], "no sentence scores") == 1);
  CHECK(count(charts(page, "by-segment")[1], "no sentence scores") == 1);
  CHECK(count(page, "<td class=\"score\">—</td>") == 1);
  // The segment data keeps the nulls for the page's script (it prints "—" and sorts them last).
  CHECK(count(page, "[[null,10.0],[30.0,null],[null,20.0]]") == 1);
}

TEST_CASE("a report of one system has every chart", "[report_html]") {
  const std::string page = render_html_report(small_table(1, 2, Json::array({{10.0}, {20.0}})));
  for (const char* kind : {"histogram", "buckets", "by-segment"}) CHECK(charts(page, kind).size() == 2);
  CHECK(count(charts(page, "by-segment")[0], "<path d=\"M") == 1);
  CHECK(count(charts(page, "histogram")[0], "sys0: n = 2") == 1);
}

TEST_CASE("a document without segments or buckets still gives a page", "[report_html]") {
  Json table = small_table(2, 1, Json::array({{1.0, 2.0}}));
  table.erase("segments");
  table.erase("buckets");
  const std::string page = render_html_report(table);
  CHECK(charts(page, "histogram").size() == 1);
  CHECK(count(page, "no sentence scores") == 2);  // histogram and by-segment
  CHECK(count(page, "no reference-length buckets") == 1);
  CHECK(count(page, "\"ids\":[]") == 1);
  CHECK(render_html_report(Json::object()).find("id=\"score-table\"") != std::string::npos);
}

TEST_CASE("the score table shows intervals, significance against the baseline and all pairs", "[report_html]") {
  Json table = small_table(3, 1, Json::array({{1.0, 2.0, 3.0}}));
  table["baseline"] = "sys0";
  table["paired_test"] = {{"test", "paired-bootstrap"}, {"samples", 1000}, {"seed", "12345"}, {"all_pairs", true}};
  table["confidence"] = {{"resamples", 1000}, {"seed", "12345"}};
  auto& cells = table["rows"][0]["cells"];
  cells[0]["text"] = "27.3";
  cells[0]["confidence"] = {{"mean", 27.2}, {"half_width", 1.1}, {"lower", 26.1}, {"upper", 28.3}};
  cells[1]["p_value"] = 0.03;
  cells[1]["significant"] = true;
  cells[2]["p_value"] = 0.2;
  cells[2]["significant"] = false;
  const std::string page = render_html_report(table);
  CHECK(count(page, "<td class=\"score baseline\">27.3 <span class=\"ci\">(μ = 27.2 ± 1.1)</span></td>") == 1);
  CHECK(count(page, "<td class=\"score significant\">10.0<span class=\"sig-mark\">*</span> "
                    "<span class=\"p-value\">(p = 0.0300)</span></td>") == 1);
  CHECK(count(page, "<td class=\"score\">10.0 <span class=\"p-value\">(p = 0.2000)</span></td>") == 1);
  CHECK(count(page, "id=\"pairs-table\"") == 0);  // no pairs given
  table["rows"][0]["pairs"] = {{{"a", "sys0"}, {"b", "sys1"}, {"p_value", 0.03}, {"significant", true}},
                               {{"a", "sys1"}, {"b", "sys2"}, {"p_value", 0.5}, {"significant", false}}};
  const std::string with_pairs = render_html_report(table);
  CHECK(count(with_pairs, "id=\"pairs-table\"") == 1);
  CHECK(count(with_pairs, "not corrected for multiple comparisons") == 1);
  CHECK(count(with_pairs, "<tr><td>sys0</td><td>sys1</td><td class=\"score significant\">0.0300") == 1);
  CHECK(count(with_pairs, "<tr><td>sys1</td><td>sys2</td><td class=\"score\">0.5000</td>") == 1);
}

TEST_CASE("20k segments: the page holds the segment data once and renders no row itself", "[report_html]") {
  const Json table = evalcli::test::synthetic_report(20000);
  const std::string page = render_html_report(table);
  // Each hypothesis once, in the JSON block (synthetic_report puts "hyp<i>x<s>" in it).
  CHECK(count(page, "\"hyp0x0 ") == 1);
  CHECK(count(page, "\"hyp19999x2 ") == 1);
  CHECK(count(page, "<tr class=\"segment\"") == 0);
  // The charts are bounded: beyond the data, the page adds less than 200 kB for 20k segments.
  const std::size_t data = json_for_script(table["segments"]).size();
  CHECK(page.size() < data + 200000);
  // The by-segment line has at most 200 points per system (windows of 100 segments).
  for (const auto& chart : charts(page, "by-segment")) {
    const std::regex path("<path d=\"([^\"]*)\"");
    std::size_t paths = 0;
    for (auto it = std::sregex_iterator(chart.begin(), chart.end(), path); it != std::sregex_iterator(); ++it) {
      const std::string d = (*it)[1];
      CHECK(count(d, "M") + count(d, "L") == 200);
      ++paths;
    }
    CHECK(paths == 3);
  }
}
