// The HTML report (report_html.hpp). The page is built from the table document
// alone (docs/report.md, "The HTML report"): the score table, per row three
// SVG charts (sentence-score histograms, score by reference-length bucket,
// sentence scores over the segments), the signatures, and the segment view,
// whose data is one JSON block that the page's script renders 50 segments at
// a time. Everything that comes from the document is escaped.
#include "cli/report_html.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "evalcli/core/format.hpp"

namespace evalcli::cli {
namespace {

using Json = nlohmann::ordered_json;

// Colours of the systems, in "systems" order (cycled past eight).
constexpr const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                    "#ff7f0e", "#17becf", "#8c564b", "#e377c2"};
std::string system_color(std::size_t system) { return kPalette[system % std::size(kPalette)]; }

// Chart geometry (SVG user units = CSS pixels).
constexpr double kChartWidth = 720;
constexpr double kMarginLeft = 56;
constexpr double kMarginRight = 16;
constexpr double kPlotWidth = kChartWidth - kMarginLeft - kMarginRight;
constexpr int kHistogramBins = 20;
constexpr std::size_t kMaxSegmentPoints = 200;  // the by-segment line: at most this many windows

std::optional<double> number_or_null(const Json& value) {
  if (value.is_number()) return value.get<double>();
  return std::nullopt;
}

const Json& member_or_null(const Json& object, const char* key) {
  static const Json null_value;
  if (!object.is_object()) return null_value;
  const auto it = object.find(key);
  return it == object.end() ? null_value : *it;
}

std::string string_or(const Json& value, const std::string& fallback) {
  return value.is_string() ? value.get<std::string>() : fallback;
}

// A JSON string as escaped HTML; any other value as its JSON text, escaped too.
std::string text_of(const Json& value) {
  if (value.is_string()) return html_escape(value.get_ref<const std::string&>());
  if (value.is_null()) return "";
  return html_escape(value.dump(-1, ' ', false, Json::error_handler_t::replace));
}

int row_width(const Json& row) {
  const Json& width = member_or_null(row, "width");
  return width.is_number_integer() ? std::clamp(width.get<int>(), 0, 12) : 2;
}

std::vector<std::string> system_names(const Json& table) {
  std::vector<std::string> names;
  const Json& systems = member_or_null(table, "systems");
  if (!systems.is_array()) return names;
  for (const Json& name : systems) names.push_back(string_or(name, name.dump()));
  return names;
}

std::string coord(double value) { return fmt::format("{:.1f}", value); }

// A tick label: three significant digits (scores are 0-100, TER above 100, perplexity large).
std::string tick(double value) { return fmt::format("{:.3g}", value); }

// The sentence scores of one row, per system: the defined ones and how many are null.
struct SystemScores {
  std::vector<double> values;
  std::size_t undefined = 0;
};

std::vector<SystemScores> scores_by_system(const Json& row_scores, std::size_t systems) {
  std::vector<SystemScores> out(systems);
  if (!row_scores.is_array()) return out;
  for (const Json& segment : row_scores) {
    for (std::size_t s = 0; s < systems; ++s) {
      const auto score = segment.is_array() && s < segment.size() ? number_or_null(segment[s]) : std::nullopt;
      if (score && std::isfinite(*score)) {
        out[s].values.push_back(*score);
      } else {
        ++out[s].undefined;
      }
    }
  }
  return out;
}

// An axis: from lo to hi in ticks of `step`.
struct Axis {
  double lo, hi, step;
};

// An axis covering the values in about four round steps (1, 2, 2.5 or 5 times a power of ten),
// so that the tick labels are short: 0, 25, 50, 75, 100 rather than 0, 24.9, 49.9, ...
Axis value_range(const std::vector<double>& values) {
  if (values.empty()) return {0, 1, 0.25};
  auto [low, high] = std::minmax_element(values.begin(), values.end());
  double lo = *low, hi = *high;
  if (hi - lo < 1e-9) {
    lo -= 0.5;
    hi += 0.5;
  }
  const double raw_step = (hi - lo) / 4;
  const double power = std::pow(10.0, std::floor(std::log10(raw_step)));
  double step = 10 * power;
  for (double factor : {1.0, 2.0, 2.5, 5.0}) {
    if (factor * power >= raw_step) {
      step = factor * power;
      break;
    }
  }
  lo = std::floor(lo / step) * step;
  return {lo, std::max(lo + step, std::ceil(hi / step) * step), step};
}

// A chart is a <figure>: its caption, then the SVG (closed by svg_close).
std::string svg_open(const std::string& kind, double height, const std::string& title) {
  return fmt::format(
      "<figure><figcaption>{}</figcaption>\n<svg class=\"chart {}\" xmlns=\"http://www.w3.org/2000/svg\" "
      "width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" role=\"img\"><title>{}</title>\n",
      html_escape(title), kind, coord(kChartWidth), coord(height), coord(kChartWidth), coord(height),
      html_escape(title));
}

std::string svg_close() { return "</svg></figure>\n"; }

std::string svg_no_data(const std::string& kind, const std::string& title, const std::string& why) {
  return svg_open(kind, 40, title) + fmt::format("<text class=\"no-data\" x=\"{}\" y=\"24\">{}</text>",
                                                 coord(kMarginLeft), html_escape(why)) +
         svg_close();
}

// One coloured square and name per system, in a line at height y.
std::string svg_legend(const std::vector<std::string>& systems, double y) {
  std::string out;
  double x = kMarginLeft;
  for (std::size_t s = 0; s < systems.size(); ++s) {
    out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{}\"/>", coord(x), coord(y - 9),
                       system_color(s));
    out += fmt::format("<text x=\"{}\" y=\"{}\">{}</text>", coord(x + 14), coord(y), html_escape(systems[s]));
    x += 24 + 7.0 * static_cast<double>(std::min<std::size_t>(systems[s].size(), 40));
  }
  return out + "\n";
}

// The tick values of an axis (the last one is hi, whatever the rounding of the sums).
std::vector<double> ticks(const Axis& axis) {
  std::vector<double> out;
  const int steps = static_cast<int>(std::lround((axis.hi - axis.lo) / axis.step));
  for (int i = 0; i <= steps; ++i) out.push_back(i == steps ? axis.hi : axis.lo + axis.step * i);
  return out;
}

// A vertical axis from axis.lo (at y_bottom) to axis.hi (at y_top) with ticks and grid lines.
std::string svg_y_axis(const Axis& axis, double y_top, double y_bottom) {
  std::string out;
  for (double value : ticks(axis)) {
    const double y = y_bottom - (y_bottom - y_top) * (value - axis.lo) / (axis.hi - axis.lo);
    out += fmt::format("<line class=\"grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>", coord(kMarginLeft), coord(y),
                       coord(kMarginLeft + kPlotWidth), coord(y));
    out += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>", coord(kMarginLeft - 4),
                       coord(y + 4), tick(value));
  }
  return out + "\n";
}

double median(std::vector<double> values) {
  if (values.empty()) return NAN;
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  if (values.size() % 2 == 1) return *middle;
  return (*middle + *std::max_element(values.begin(), middle)) / 2;
}

double mean(const std::vector<double>& values) {
  double sum = 0;
  for (double v : values) sum += v;
  return values.empty() ? NAN : sum / static_cast<double>(values.size());
}

// The distribution of one row's sentence scores: one histogram strip per system over the
// same bins and the same count scale, so that the strips compare at a glance.
std::string svg_histogram(const std::string& label, const std::vector<std::string>& systems,
                          const std::vector<SystemScores>& scores, int width) {
  const std::string title = label + ": distribution of sentence scores";
  std::vector<double> all;
  for (const auto& system : scores) all.insert(all.end(), system.values.begin(), system.values.end());
  if (all.empty()) return svg_no_data("histogram", title, "no sentence scores");
  const Axis axis = value_range(all);
  const double lo = axis.lo, hi = axis.hi;
  const double bin_width = (hi - lo) / kHistogramBins;
  std::vector<std::vector<std::size_t>> counts(scores.size(), std::vector<std::size_t>(kHistogramBins, 0));
  std::size_t max_count = 1;
  for (std::size_t s = 0; s < scores.size(); ++s) {
    for (double v : scores[s].values) {
      const int bin = std::clamp(static_cast<int>((v - lo) / bin_width), 0, kHistogramBins - 1);
      max_count = std::max(max_count, ++counts[s][bin]);
    }
  }
  constexpr double kCaption = 18, kStrip = 56, kGap = 8;
  const double height = 10 + static_cast<double>(scores.size()) * (kCaption + kStrip + kGap) + 24;
  std::string out = svg_open("histogram", height, title);
  const double bar_width = kPlotWidth / kHistogramBins;
  double y = 10;
  for (std::size_t s = 0; s < scores.size(); ++s) {
    const auto& values = scores[s].values;
    std::string caption = fmt::format("{}: n = {}", s < systems.size() ? systems[s] : "?", values.size());
    if (!values.empty()) {
      caption += fmt::format(", mean {}, median {}", format_fixed(mean(values), width),
                             format_fixed(median(values), width));
    }
    if (scores[s].undefined > 0) caption += fmt::format(", {} undefined", scores[s].undefined);
    out += fmt::format("<text class=\"caption\" x=\"{}\" y=\"{}\" fill=\"{}\">{}</text>\n", coord(kMarginLeft),
                       coord(y + 13), system_color(s), html_escape(caption));
    const double base = y + kCaption + kStrip;
    out += fmt::format("<line class=\"axis\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>", coord(kMarginLeft),
                       coord(base), coord(kMarginLeft + kPlotWidth), coord(base));
    for (int bin = 0; bin < kHistogramBins; ++bin) {
      const std::size_t count = counts[s][bin];
      if (count == 0) continue;
      const double h = kStrip * static_cast<double>(count) / static_cast<double>(max_count);
      out += fmt::format(
          "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{} to {}: {} segments</title></rect>",
          coord(kMarginLeft + bin * bar_width + 0.5), coord(base - h), coord(bar_width - 1), coord(h),
          system_color(s), tick(lo + bin * bin_width), tick(lo + (bin + 1) * bin_width), count);
    }
    out += "\n";
    y = base + kGap;
  }
  for (double value : ticks(axis)) {
    const double x = kMarginLeft + kPlotWidth * (value - lo) / (hi - lo);
    out += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>", coord(x),
                       coord(y + 12), tick(value));
  }
  return out + svg_close();
}

// The "buckets" entry of row `row` (the corpus score over segments grouped by reference length).
const Json* buckets_of_row(const Json& table, std::size_t row) {
  const Json& buckets = member_or_null(table, "buckets");
  if (!buckets.is_array()) return nullptr;
  for (const Json& entry : buckets) {
    const Json& index = member_or_null(entry, "row");
    if (index.is_number_integer() && index.get<long long>() == static_cast<long long>(row)) {
      const Json& list = member_or_null(entry, "buckets");
      return list.is_array() ? &list : nullptr;
    }
  }
  return nullptr;
}

// Score by reference-length bucket: one group of bars per bucket, one bar per system.
std::string svg_bucket_chart(const std::string& label, const std::vector<std::string>& systems, const Json* buckets,
                             int width) {
  const std::string title = label + ": score by reference length (words of the first reference)";
  if (buckets == nullptr || buckets->empty() || systems.empty()) {
    return svg_no_data("buckets", title, "no reference-length buckets");
  }
  std::vector<double> all{0};
  for (const Json& bucket : *buckets) {
    for (const Json& score : member_or_null(bucket, "scores")) {
      if (const auto v = number_or_null(score); v && std::isfinite(*v)) all.push_back(*v);
    }
  }
  const Axis axis = value_range(all);
  const double lo = axis.lo, hi = axis.hi;
  constexpr double kTop = 28, kPlot = 180;
  const double bottom = kTop + kPlot;
  std::string out = svg_open("buckets", bottom + 40, title);
  out += svg_legend(systems, 14);
  out += svg_y_axis(axis, kTop, bottom);
  const double group_width = kPlotWidth / static_cast<double>(buckets->size());
  const double bar_width = group_width * 0.8 / static_cast<double>(systems.size());
  const auto y_of = [&](double v) { return bottom - kPlot * (v - lo) / (hi - lo); };
  for (std::size_t b = 0; b < buckets->size(); ++b) {
    const Json& bucket = (*buckets)[b];
    const double x0 = kMarginLeft + group_width * static_cast<double>(b) + group_width * 0.1;
    const Json& bucket_scores = member_or_null(bucket, "scores");
    const std::string bucket_label = string_or(member_or_null(bucket, "label"), "?");
    for (std::size_t s = 0; s < systems.size(); ++s) {
      const double x = x0 + bar_width * static_cast<double>(s);
      const auto v = bucket_scores.is_array() && s < bucket_scores.size() ? number_or_null(bucket_scores[s])
                                                                          : std::nullopt;
      if (!v || !std::isfinite(*v)) {
        out += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">n/a</text>",
                           coord(x + bar_width / 2), coord(bottom - 4));
        continue;
      }
      const double top = std::min(y_of(*v), y_of(0)), h = std::abs(y_of(*v) - y_of(0));
      out += fmt::format(
          "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}, {}: {}</title></rect>", coord(x),
          coord(top), coord(std::max(bar_width - 1, 1.0)), coord(h), system_color(s), html_escape(systems[s]),
          html_escape(bucket_label), format_fixed(*v, width));
    }
    const Json& count = member_or_null(bucket, "segments");
    out += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                       coord(x0 + group_width * 0.4), coord(bottom + 14), html_escape(bucket_label));
    out += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">n = {}</text>\n",
                       coord(x0 + group_width * 0.4), coord(bottom + 28), text_of(count));
  }
  return out + svg_close();
}

// Sentence scores over the segment index: the mean of each window of consecutive segments
// (one segment a window up to kMaxSegmentPoints segments), one line per system.
std::string svg_segment_chart(const std::string& label, const std::vector<std::string>& systems,
                              const Json& row_scores, std::size_t systems_count) {
  const std::size_t segments = row_scores.is_array() ? row_scores.size() : 0;
  const std::size_t windows = std::min(segments, kMaxSegmentPoints);
  std::string title = label + ": sentence scores by segment";
  if (windows < segments) title += fmt::format(" (mean of windows of about {} segments)", segments / windows);
  if (windows == 0 || systems_count == 0) return svg_no_data("by-segment", title, "no sentence scores");
  // means[s][w]: the mean of system s's defined scores in window w, or nullopt.
  std::vector<std::vector<std::optional<double>>> means(systems_count, std::vector<std::optional<double>>(windows));
  std::vector<double> all;
  for (std::size_t w = 0; w < windows; ++w) {
    const std::size_t first = w * segments / windows, last = (w + 1) * segments / windows;
    for (std::size_t s = 0; s < systems_count; ++s) {
      double sum = 0;
      std::size_t n = 0;
      for (std::size_t i = first; i < last; ++i) {
        const Json& segment = row_scores[i];
        const auto v = segment.is_array() && s < segment.size() ? number_or_null(segment[s]) : std::nullopt;
        if (v && std::isfinite(*v)) sum += *v, ++n;
      }
      if (n > 0) all.push_back(*(means[s][w] = sum / static_cast<double>(n)));
    }
  }
  if (all.empty()) return svg_no_data("by-segment", title, "no sentence scores");
  const Axis axis = value_range(all);
  const double lo = axis.lo, hi = axis.hi;
  constexpr double kTop = 28, kPlot = 160;
  const double bottom = kTop + kPlot;
  std::string out = svg_open("by-segment", bottom + 30, title);
  out += svg_legend(systems, 14);
  out += svg_y_axis(axis, kTop, bottom);
  const auto x_of = [&](std::size_t w) {
    return kMarginLeft + (windows == 1 ? kPlotWidth / 2 : kPlotWidth * static_cast<double>(w) / (windows - 1));
  };
  for (std::size_t s = 0; s < systems_count; ++s) {
    std::string path;
    bool pen_down = false;
    for (std::size_t w = 0; w < windows; ++w) {
      if (!means[s][w]) {
        pen_down = false;  // a gap where no score is defined
        continue;
      }
      const double y = bottom - kPlot * (*means[s][w] - lo) / (hi - lo);
      path += fmt::format("{}{} {} ", pen_down ? "L" : "M", coord(x_of(w)), coord(y));
      pen_down = true;
    }
    out += fmt::format("<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\" opacity=\"0.8\"/>\n", path,
                       system_color(s));
  }
  out += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\">segment 1</text>", coord(kMarginLeft), coord(bottom + 16));
  out += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"end\">segment {}</text>\n",
                     coord(kMarginLeft + kPlotWidth), coord(bottom + 16), segments);
  return out + svg_close();
}

// One cell of the score table: the corpus score, "(μ = mean ± half width)" with --confidence,
// and against the baseline its p-value and a "*" when significant.
std::string score_cell(const Json& cell, int width, bool is_baseline) {
  std::string classes = "score";
  if (is_baseline) classes += " baseline";
  std::string content;
  const Json& text = member_or_null(cell, "text");
  if (text.is_string()) {
    content = html_escape(text.get_ref<const std::string&>());
  } else if (const auto score = number_or_null(member_or_null(cell, "score"))) {
    content = format_fixed(*score, width);
  } else {
    content = "—";
  }
  const Json& ci = member_or_null(cell, "confidence");
  const auto ci_mean = number_or_null(member_or_null(ci, "mean"));
  const auto ci_half = number_or_null(member_or_null(ci, "half_width"));
  if (ci_mean && ci_half) {
    content += fmt::format(" <span class=\"ci\">(μ = {} ± {})</span>", format_fixed(*ci_mean, width),
                           format_fixed(*ci_half, width));
  }
  if (const auto p = number_or_null(member_or_null(cell, "p_value"))) {
    const bool significant = member_or_null(cell, "significant") == true;
    if (significant) {
      classes += " significant";
      content += "<span class=\"sig-mark\">*</span>";
    }
    content += fmt::format(" <span class=\"p-value\">(p = {})</span>", format_fixed(*p, 4));
  }
  return fmt::format("<td class=\"{}\">{}</td>", classes, content);
}

std::string score_table(const Json& table, const std::vector<std::string>& systems) {
  const std::string baseline = string_or(member_or_null(table, "baseline"), "");
  std::string out = "<table id=\"score-table\">\n<thead><tr><th>Score</th>";
  for (const auto& name : systems) {
    out += fmt::format("<th{}>{}</th>", name == baseline ? " class=\"baseline\"" : "", html_escape(name));
  }
  out += "</tr></thead>\n<tbody>\n";
  const Json& rows = member_or_null(table, "rows");
  for (std::size_t r = 0; r < (rows.is_array() ? rows.size() : 0); ++r) {
    const Json& row = rows[r];
    const bool lower_is_better = member_or_null(row, "higher_is_better") == false;
    out += fmt::format("<tr><th scope=\"row\"><a href=\"#row-{}\">{}</a>{}</th>", r,
                       html_escape(string_or(member_or_null(row, "label"), "?")),
                       lower_is_better ? " <span class=\"direction\">(lower is better)</span>" : "");
    const Json& cells = member_or_null(row, "cells");
    for (std::size_t s = 0; s < systems.size(); ++s) {
      const Json& cell = cells.is_array() && s < cells.size() ? cells[s] : Json();
      out += score_cell(cell, row_width(row), systems[s] == baseline && !baseline.empty());
    }
    out += "</tr>\n";
  }
  return out + "</tbody></table>\n";
}

// What the table's marks mean: the test, its samples and seed, the baseline, the intervals.
std::string score_table_notes(const Json& table) {
  std::string out;
  const Json& test = member_or_null(table, "paired_test");
  const std::string baseline = string_or(member_or_null(table, "baseline"), "");
  if (test.is_object() && !baseline.empty()) {
    out += fmt::format(
        "<p class=\"note\">Paired test: {} ({} samples, seed {}) of every system against the baseline "
        "<span class=\"baseline\">{}</span>; <span class=\"sig-mark\">*</span> marks p ≤ 0.05.</p>\n",
        text_of(member_or_null(test, "test")), text_of(member_or_null(test, "samples")),
        text_of(member_or_null(test, "seed")), html_escape(baseline));
  }
  const Json& confidence = member_or_null(table, "confidence");
  if (confidence.is_object()) {
    out += fmt::format(
        "<p class=\"note\">μ ± x: the mean and half width of the 95% bootstrap confidence interval "
        "({} resamples, seed {}).</p>\n",
        text_of(member_or_null(confidence, "resamples")), text_of(member_or_null(confidence, "seed")));
  }
  return out;
}

// --all-pairs: one line per system pair, one column per row; empty when no row has pairs.
std::string pairs_table(const Json& table) {
  const Json& rows = member_or_null(table, "rows");
  if (!rows.is_array()) return "";
  // The pairs in first-seen order, and each row's p-values by pair.
  std::vector<std::pair<std::string, std::string>> pairs;
  std::vector<std::map<std::pair<std::string, std::string>, const Json*>> by_row(rows.size());
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const Json& row_pairs = member_or_null(rows[r], "pairs");
    if (!row_pairs.is_array()) continue;
    for (const Json& pair : row_pairs) {
      std::pair<std::string, std::string> key{string_or(member_or_null(pair, "a"), "?"),
                                              string_or(member_or_null(pair, "b"), "?")};
      if (std::find(pairs.begin(), pairs.end(), key) == pairs.end()) pairs.push_back(key);
      by_row[r][key] = &pair;
    }
  }
  if (pairs.empty()) return "";
  std::string out =
      "<h3>All pairs</h3>\n<p class=\"note\">p-values of the paired test for every pair of systems. They are "
      "<strong>not corrected for multiple comparisons</strong>: with many pairs, some fall below 0.05 by "
      "chance.</p>\n<table id=\"pairs-table\">\n<thead><tr><th>System A</th><th>System B</th>";
  for (const Json& row : rows) out += "<th>" + html_escape(string_or(member_or_null(row, "label"), "?")) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (const auto& key : pairs) {
    out += fmt::format("<tr><td>{}</td><td>{}</td>", html_escape(key.first), html_escape(key.second));
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const auto it = by_row[r].find(key);
      const auto p = it == by_row[r].end() ? std::nullopt : number_or_null(member_or_null(*it->second, "p_value"));
      if (!p) {
        out += "<td class=\"score\">—</td>";
        continue;
      }
      const bool significant = member_or_null(*it->second, "significant") == true;
      out += fmt::format("<td class=\"score{}\">{}{}</td>", significant ? " significant" : "", format_fixed(*p, 4),
                         significant ? "<span class=\"sig-mark\">*</span>" : "");
    }
    out += "</tr>\n";
  }
  return out + "</tbody></table>\n";
}

// Per row: its three charts.
std::string row_charts(const Json& table, const std::vector<std::string>& systems) {
  const Json& rows = member_or_null(table, "rows");
  const Json& all_scores = member_or_null(member_or_null(table, "segments"), "scores");
  std::string out;
  for (std::size_t r = 0; r < (rows.is_array() ? rows.size() : 0); ++r) {
    const Json& row = rows[r];
    const std::string label = string_or(member_or_null(row, "label"), "?");
    const Json& row_scores = all_scores.is_array() && r < all_scores.size() ? all_scores[r] : Json();
    out += fmt::format("<section class=\"row-charts\" id=\"row-{}\">\n<h3>{}</h3>\n", r, html_escape(label));
    out += svg_histogram(label, systems, scores_by_system(row_scores, systems.size()), row_width(row));
    out += svg_bucket_chart(label, systems, buckets_of_row(table, r), row_width(row));
    out += svg_segment_chart(label, systems, row_scores, systems.size());
    out += "</section>\n";
  }
  return out;
}

std::string signatures(const Json& table) {
  std::string out = "<section id=\"signatures\">\n<h2>Signatures</h2>\n<dl>\n";
  const Json& rows = member_or_null(table, "rows");
  if (rows.is_array()) {
    for (const Json& row : rows) {
      out += fmt::format("<dt>{}</dt><dd><code>{}</code></dd>\n",
                         html_escape(string_or(member_or_null(row, "label"), "?")),
                         text_of(member_or_null(row, "signature")));
    }
  }
  out += fmt::format("</dl>\n<p>Command: <code id=\"command\">{}</code></p>\n",
                     text_of(member_or_null(table, "command")));
  return out + "</section>\n";
}

// The data of the segment view: what the script needs and nothing else (the charts are drawn already).
Json segment_data(const Json& table, const std::vector<std::string>& systems) {
  Json data = Json::object();
  data["systems"] = systems;
  data["rows"] = Json::array();
  const Json& rows = member_or_null(table, "rows");
  if (rows.is_array()) {
    for (const Json& row : rows) {
      data["rows"].push_back({{"label", string_or(member_or_null(row, "label"), "?")},
                              {"width", row_width(row)},
                              {"higher_is_better", member_or_null(row, "higher_is_better") != false}});
    }
  }
  const Json& segments = member_or_null(table, "segments");
  for (const char* key : {"ids", "references", "hypotheses", "scores"}) {
    const Json& value = member_or_null(segments, key);
    data[key] = value.is_array() ? value : Json::array();
  }
  return data;
}

std::string segment_view(const Json& table, const std::vector<std::string>& systems) {
  return "<section id=\"segments\">\n<h2>Segments</h2>\n"
         "<p class=\"note\">Words of a hypothesis that occur in a reference are highlighted "
         "(<mark class=\"m1\">word</mark>; <mark class=\"m2\">within a matching 2- to 4-gram</mark>; compared "
         "in lower case, split at white space). Click a column head to sort; Δ is the highest minus the lowest "
         "system score of the chosen row.</p>\n"
         "<div class=\"controls\"><label>Row <select id=\"segment-row\"></select></label> "
         "<button type=\"button\" id=\"page-first\">« first</button> "
         "<button type=\"button\" id=\"page-prev\">‹ previous</button> <span id=\"page-info\"></span> "
         "<button type=\"button\" id=\"page-next\">next ›</button></div>\n"
         "<table id=\"segment-table\"><thead></thead><tbody></tbody></table>\n"
         "<noscript><p>The segment view needs JavaScript.</p></noscript>\n</section>\n"
         "<script type=\"application/json\" id=\"segment-data\">" +
         json_for_script(segment_data(table, systems)) + "</script>\n";
}

constexpr const char* kStyle = R"css(
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em auto; max-width: 1200px; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.25em; margin-top: 1.6em; } h3 { font-size: 1.05em; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border-bottom: 1px solid #ddd; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
td.score { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
.baseline { text-decoration: underline dotted; }
td.significant { font-weight: bold; }
.sig-mark { color: #b00; } .p-value, .ci, .direction, .note { color: #555; font-size: 0.9em; }
figure { margin: 0.5em 0 1.2em; } figcaption { color: #444; font-size: 0.9em; }
svg.chart { display: block; font-size: 11px; }
svg.chart text.caption { font-size: 12px; } svg.chart .tick { fill: #555; }
svg.chart line.grid { stroke: #eee; } svg.chart line.axis { stroke: #999; }
svg.chart .no-data { fill: #888; font-style: italic; }
#segment-table th.sortable { cursor: pointer; user-select: none; } #segment-table th.sorted { background: #eef; }
#segment-table td.text { max-width: 32em; } #segment-table .ref + .ref { border-top: 1px dashed #ccc; }
#segment-table .hyp-score { font-weight: bold; font-variant-numeric: tabular-nums; }
mark.m1 { background: #fff3b0; } mark.m2 { background: #b8e6b8; }
.controls { margin: 0.5em 0; } code { word-break: break-all; }
)css";

// Before anything else runs: an uncaught error anywhere in the page is written into the DOM
// (data-js-error on <html>), where a headless browser test finds it.
constexpr const char* kErrorHook = R"js(
window.addEventListener('error', function (event) {
  document.documentElement.setAttribute('data-js-error', String(event.message || event));
});
)js";

// The segment view: sorts the segments of the chosen row and renders one page of them.
constexpr const char* kSegmentScript = R"js(
(function () {
  'use strict';
  var PAGE_SIZE = 50;
  var data = JSON.parse(document.getElementById('segment-data').textContent);
  var systems = data.systems, count = data.ids.length;
  var table = document.getElementById('segment-table');
  var state = {row: 0, key: systems.length > 1 ? 'diff' : 'system-0', descending: systems.length > 1, page: 0};
  var order = [];

  function score(row, segment, system) {
    var scores = (data.scores[row] || [])[segment] || [];
    var value = scores[system];
    return typeof value === 'number' && isFinite(value) ? value : null;
  }
  // The highest minus the lowest defined score; null with fewer than two.
  function difference(row, segment) {
    var low = null, high = null, defined = false;
    for (var s = 0; s < systems.length; s++) {
      var v = score(row, segment, s);
      if (v === null) continue;
      if (low === null) { low = high = v; continue; }
      low = Math.min(low, v);
      high = Math.max(high, v);
      defined = true;
    }
    return defined ? high - low : null;
  }
  function sortValue(segment) {
    if (state.key === 'id') return segment;
    if (state.key === 'diff') return difference(state.row, segment);
    return score(state.row, segment, Number(state.key.slice(7)));
  }
  // Undefined values last in either direction; ties in segment order.
  function sortSegments() {
    var values = new Array(count);
    order = new Array(count);
    for (var i = 0; i < count; i++) { order[i] = i; values[i] = sortValue(i); }
    var sign = state.descending ? -1 : 1;
    order.sort(function (a, b) {
      var x = values[a], y = values[b];
      if (x === null || y === null) return x === y ? a - b : (x === null ? 1 : -1);
      return x === y ? a - b : sign * (x < y ? -1 : 1);
    });
  }
  function formatScore(value) {
    return value === null ? '—' : value.toFixed(data.rows[state.row] ? data.rows[state.row].width : 2);
  }
  function words(text) { return String(text).split(/\s+/).filter(function (w) { return w.length > 0; }); }
  // Every 1- to 4-gram of the references, lower-cased, joined by one space.
  function referenceNgrams(references) {
    var grams = new Set();
    references.forEach(function (reference) {
      var w = words(reference).map(function (x) { return x.toLowerCase(); });
      for (var n = 1; n <= 4; n++)
        for (var i = 0; i + n <= w.length; i++) grams.add(w.slice(i, i + n).join(' '));
    });
    return grams;
  }
  // The hypothesis as text nodes and <mark>s: a word in a matching n-gram of length >= 2 is m2, else m1.
  function highlighted(text, grams) {
    var w = words(text), lower = w.map(function (x) { return x.toLowerCase(); });
    var level = new Array(w.length).fill(0);
    for (var i = 0; i < w.length; i++)
      for (var n = Math.min(4, w.length - i); n >= 1; n--)
        if (grams.has(lower.slice(i, i + n).join(' '))) {
          for (var k = i; k < i + n; k++) level[k] = Math.max(level[k], n);
          break;
        }
    var span = document.createElement('span');
    for (var j = 0; j < w.length; j++) {
      if (j > 0) span.appendChild(document.createTextNode(' '));
      if (level[j] === 0) { span.appendChild(document.createTextNode(w[j])); continue; }
      var mark = document.createElement('mark');
      mark.className = level[j] >= 2 ? 'm2' : 'm1';
      mark.textContent = w[j];
      span.appendChild(mark);
    }
    return span;
  }
  function cell(tr, className, content) {
    var td = document.createElement('td');
    td.className = className;
    if (content instanceof Node) td.appendChild(content); else td.textContent = content;
    tr.appendChild(td);
    return td;
  }
  function header() {
    var tr = document.createElement('tr');
    var columns = [['id', '#'], ['refs', 'References']];
    if (systems.length > 1) columns.push(['diff', 'Δ']);
    systems.forEach(function (name, s) { columns.push(['system-' + s, name]); });
    columns.forEach(function (column) {
      var th = document.createElement('th');
      th.textContent = column[1];
      if (column[0] !== 'refs') {
        th.className = 'sortable' + (state.key === column[0] ? ' sorted' : '');
        if (state.key === column[0]) th.textContent += state.descending ? ' ▼' : ' ▲';
        th.setAttribute('data-key', column[0]);
        th.addEventListener('click', function () {
          if (state.key === column[0]) state.descending = !state.descending;
          else { state.key = column[0]; state.descending = column[0] !== 'id'; }
          update(true);
        });
      }
      tr.appendChild(th);
    });
    table.tHead.replaceChildren(tr);
  }
  function segmentRow(segment) {
    var tr = document.createElement('tr');
    tr.className = 'segment';
    tr.setAttribute('data-segment', String(segment));
    var references = data.references[segment] || [];
    var hypotheses = data.hypotheses[segment] || [];
    var grams = referenceNgrams(references);
    cell(tr, 'id', String(data.ids[segment]));
    var refs = document.createElement('div');
    references.forEach(function (reference) {
      var div = document.createElement('div');
      div.className = 'ref';
      div.textContent = reference;
      refs.appendChild(div);
    });
    cell(tr, 'text', refs);
    if (systems.length > 1) cell(tr, 'score', formatScore(difference(state.row, segment)));
    systems.forEach(function (name, s) {
      var div = document.createElement('div');
      var value = document.createElement('div');
      value.className = 'hyp-score';
      value.textContent = formatScore(score(state.row, segment, s));
      div.appendChild(value);
      div.appendChild(highlighted(hypotheses[s] === undefined ? '' : hypotheses[s], grams));
      cell(tr, 'text hyp', div);
    });
    return tr;
  }
  function render() {
    var pages = Math.max(1, Math.ceil(count / PAGE_SIZE));
    state.page = Math.min(Math.max(state.page, 0), pages - 1);
    var rows = document.createDocumentFragment();
    var first = state.page * PAGE_SIZE, last = Math.min(count, first + PAGE_SIZE);
    for (var i = first; i < last; i++) rows.appendChild(segmentRow(order[i]));
    table.tBodies[0].replaceChildren(rows);
    document.getElementById('page-info').textContent = count === 0 ? 'no segments' :
        'segments ' + (first + 1) + '–' + last + ' of ' + count + ' (page ' + (state.page + 1) + ' of ' + pages + ')';
    table.setAttribute('data-page', String(state.page + 1));
  }
  function update(resort) {
    if (resort) { sortSegments(); state.page = 0; }
    header();
    render();
  }
  var select = document.getElementById('segment-row');
  data.rows.forEach(function (row, r) {
    var option = document.createElement('option');
    option.value = String(r);
    option.textContent = row.label;
    select.appendChild(option);
  });
  select.addEventListener('change', function () { state.row = Number(select.value); update(true); });
  document.getElementById('page-first').addEventListener('click', function () { state.page = 0; render(); });
  document.getElementById('page-prev').addEventListener('click', function () { state.page--; render(); });
  document.getElementById('page-next').addEventListener('click', function () { state.page++; render(); });
  update(true);
})();
)js";

}  // namespace

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string json_for_script(const nlohmann::ordered_json& value) {
  const std::string json = value.dump(-1, ' ', false, Json::error_handler_t::replace);
  std::string out;
  out.reserve(json.size());
  for (char c : json) {
    switch (c) {
      case '<': out += "\\u003c"; break;
      case '>': out += "\\u003e"; break;
      case '&': out += "\\u0026"; break;
      default: out += c;
    }
  }
  return out;
}

std::string render_html_report(const nlohmann::ordered_json& table) {
  const std::vector<std::string> systems = system_names(table);
  std::string page = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  page += "<title>evalcli report</title>\n<style>" + std::string(kStyle) + "</style>\n";
  page += "<script>" + std::string(kErrorHook) + "</script>\n</head>\n<body>\n";
  page += "<h1>evalcli report</h1>\n";
  page += fmt::format("<p class=\"note\">{} segments, {} systems; {}.</p>\n",
                      text_of(member_or_null(table, "segments_total")), systems.size(),
                      text_of(member_or_null(table, "version")));
  page += "<section id=\"scores\">\n<h2>Scores</h2>\n" + score_table(table, systems) + score_table_notes(table) +
          pairs_table(table) + "</section>\n";
  page += "<section id=\"charts\">\n<h2>Sentence scores</h2>\n" + row_charts(table, systems) + "</section>\n";
  page += segment_view(table, systems);
  page += signatures(table);
  page += "<script>" + std::string(kSegmentScript) + "</script>\n</body>\n</html>\n";
  return page;
}

}  // namespace evalcli::cli
