#pragma once
// A synthetic table document of `evalcli report` (schema evalcli-table/1, docs/report.md) with
// `segments` segments, 3 systems and 2 rows, for the HTML report's size and load tests
// (tests/unit/report_html_test.cpp, tests/tools/render_report_fixture.cpp). The scores are
// pseudo-random, not computed: only the page's shape is under test. Hypothesis s of segment i
// contains the word "hyp<i>x<s>" and its reference "ref<i>", so a test can count how often a
// segment's text is in the page.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace evalcli::test {

inline nlohmann::ordered_json synthetic_report(std::size_t segments) {
  using Json = nlohmann::ordered_json;
  static const char* const kWords[] = {"the", "cat", "sat", "on", "a", "mat", "dog", "ran", "in", "park",
                                       "big", "red", "house", "near", "river", "old", "man", "saw", "it"};
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  const auto next = [&state]() {  // xorshift64: the same document on every machine
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  const auto sentence = [&](std::size_t words) {
    std::string text;
    for (std::size_t w = 0; w < words; ++w) text += std::string(w ? " " : "") + kWords[next() % std::size(kWords)];
    return text;
  };
  const Json systems = {"sys-a.txt", "sys-b.txt", "sys-c.txt"};
  Json table = {{"schema", "evalcli-table/1"},
                {"command", "render_report_fixture --synthetic " + std::to_string(segments)},
                {"version", "evalcli-synthetic"},
                {"segments_total", segments},
                {"systems", systems},
                {"baseline", nullptr},
                {"paired_test", nullptr},
                {"confidence", nullptr},
                {"rows", Json::array()}};
  Json ids = Json::array(), references = Json::array(), hypotheses = Json::array();
  Json scores = {Json::array(), Json::array()};
  for (std::size_t i = 0; i < segments; ++i) {
    ids.push_back(std::to_string(i + 1));
    references.push_back({"ref" + std::to_string(i) + " " + sentence(3 + next() % 20)});
    Json hyps = Json::array();
    for (std::size_t s = 0; s < 3; ++s) {
      hyps.push_back("hyp" + std::to_string(i) + "x" + std::to_string(s) + " " + sentence(3 + next() % 20));
    }
    hypotheses.push_back(hyps);
    for (auto& row : scores) {
      Json per_system = Json::array();
      for (std::size_t s = 0; s < 3; ++s) {
        const auto draw = next() % 1000;
        per_system.push_back(draw == 0 ? Json() : Json(static_cast<double>(draw) / 12.0 + 10.0 * s));
      }
      row.push_back(per_system);
    }
  }
  for (const char* label : {"BLEU", "chrF2"}) {
    Json cells = Json::array();
    for (std::size_t s = 0; s < 3; ++s) {
      cells.push_back({{"system", systems[s]}, {"score", 40.0 + 5.0 * s}, {"text", std::to_string(40 + 5 * s) + ".0"},
                       {"confidence", nullptr}, {"p_value", nullptr}, {"significant", nullptr}});
    }
    table["rows"].push_back({{"metric", label == std::string("BLEU") ? "bleu" : "chrf"}, {"label", label},
                             {"signature", std::string("synthetic|version:evalcli-synthetic")}, {"width", 1},
                             {"higher_is_better", true}, {"cells", cells}, {"pairs", Json::array()}});
  }
  table["segments"] = {{"ids", ids}, {"references", references}, {"hypotheses", hypotheses}, {"scores", scores}};
  table["buckets"] = Json::array();
  for (int row = 0; row < 2; ++row) {
    table["buckets"].push_back({{"row", row},
                                {"buckets",
                                 {{{"label", "1-10"}, {"segments", segments / 2}, {"scores", {41.0, 44.5, 47.2}}},
                                  {{"label", "11-20"},
                                   {"segments", segments - segments / 2},
                                   {"scores", {39.0, 45.5, 52.0}}}}}});
  }
  return table;
}

}  // namespace evalcli::test
