#include "cli/sacrebleu_output.hpp"

#include "evalcli/tokenize/text_scan.hpp"

#include <fmt/format.h>

#include <cstdlib>

#include <nlohmann/json.hpp>
#include <optional>

#include "evalcli/core/format.hpp"
#include "evalcli/core/strings.hpp"
#include "evalcli/text/utf8.hpp"

namespace evalcli::cli {
std::size_t display_length(std::string_view utf8) {
  std::u32string decoded;
  utf8::decode(utf8, decoded);
  return decoded.size();
}

// "BLEU|sig = 38.4 66.9/..." (or just the score with -b), as Score.format().
std::string score_line(const StatsModel& metric, std::span<const Stat> stats, const std::string& signature, int width,
                       bool score_only, const std::optional<PrintedConfidence>& confidence) {
  std::string score = format_fixed(metric.score(stats), width);
  if (confidence) score += fmt::format(" (μ = {} ± {})", confidence->mean_text, confidence->ci_text);
  if (score_only) return score;
  // As Score.format(): no "|" when there is no signature (str() of a Python score object).
  std::string line = signature.empty() ? fmt::format("{} = {}", metric.name(), score)
                                       : fmt::format("{}|{} = {}", metric.name(), signature, score);
  const nlohmann::json details = metric.details(stats);
  if (details.contains("verbose_score")) line += " " + details["verbose_score"].get<std::string>();
  return line;
}

// Score.format(is_json=True): json.dumps(d, indent=1, ensure_ascii=False).
std::string score_json(const StatsModel& metric, std::span<const Stat> stats, const std::string& signature, int width,
                       const std::optional<PrintedConfidence>& confidence) {
  std::string out = "{\n";
  out += fmt::format(" \"name\": {},\n", python_json_quote(metric.name(), false));
  out += fmt::format(" \"score\": {},\n", python_float_repr(python_round(metric.score(stats), width)));
  out += fmt::format(" \"signature\": {}", python_json_quote(signature, false));
  if (confidence) {
    // SacreBLEU's float() of the printed text; strtod: no exception whatever the text.
    out += fmt::format(",\n \"confidence_mean\": {}",
                       python_float_repr(std::strtod(confidence->mean_text.c_str(), nullptr)));
    out += fmt::format(",\n \"confidence_var\": {}", python_float_repr(std::strtod(confidence->ci_text.c_str(), nullptr)));
    out += fmt::format(",\n \"confidence\": {}",
                       python_json_quote(fmt::format("μ = {} ± {}", confidence->mean_text, confidence->ci_text), false));
  }
  const nlohmann::json details = metric.details(stats);
  if (details.contains("verbose_score")) {
    out += fmt::format(",\n \"verbose_score\": {}",
                       python_json_quote(details["verbose_score"].get<std::string>(), false));
  }
  std::size_t start = 0;
  while (start <= signature.size()) {
    std::size_t bar = signature.find('|', start);
    if (bar == std::string::npos) bar = signature.size();
    const std::string field = signature.substr(start, bar - start);
    const auto colon = field.find(':');
    out += fmt::format(",\n {}: {}", python_json_quote(field.substr(0, colon), false),
                       python_json_quote(field.substr(colon + 1), false));
    start = bar + 1;
  }
  return out + "\n}";
}

// Right-justifies each line's part before " =" to the longest one.
std::string align_on_equals(const std::vector<std::string>& lines) {
  std::size_t widest = 0;
  for (const auto& line : lines) {
    const auto eq = line.find('=');
    if (eq != std::string::npos) widest = std::max(widest, display_length(line.substr(0, eq - 1)));
  }
  std::string out;
  for (const auto& line : lines) {
    const auto eq = line.find('=');
    if (eq == std::string::npos) {
      out += line + "\n";
      continue;
    }
    const std::string left = line.substr(0, eq - 1);
    out += std::string(widest - display_length(left), ' ') + left + line.substr(eq - 1) + "\n";
  }
  return out;
}

std::string python_repr(const std::string& text) {
  const bool use_double = text.find('\'') != std::string::npos && text.find('"') == std::string::npos;
  const char quote = use_double ? '"' : '\'';
  std::string out(1, quote);
  for (char c : text) {
    if (c == '\\' || c == quote) out += '\\';
    out += c;
  }
  return out + quote;
}

std::string python_json_quote(const std::string& text, bool ensure_ascii) {
  std::u32string decoded;
  utf8::decode(text, decoded);
  std::string out = "\"";
  for (char32_t c : decoded) {
    switch (c) {
      case U'"': out += "\\\""; break;
      case U'\\': out += "\\\\"; break;
      case U'\n': out += "\\n"; break;
      case U'\r': out += "\\r"; break;
      case U'\t': out += "\\t"; break;
      case U'\b': out += "\\b"; break;
      case U'\f': out += "\\f"; break;
      default:
        if (c < 0x20 || (ensure_ascii && c >= 0x7F)) {
          if (c >= 0x10000) {
            const char32_t v = c - 0x10000;
            out += fmt::format("\\u{:04x}\\u{:04x}", 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF));
          } else {
            out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
          }
        } else {
          utf8::append(out, c);
        }
    }
  }
  return out + "\"";
}

std::string sacrebleu_warning(const std::string& message, bool quiet) {
  return (quiet ? "" : "sacreBLEU: ") + message + "\n";
}

std::string tokenized_period_warning(const SacrebleuRun& run, std::size_t s) {
  if (s >= run.tokenized_periods.size() || run.tokenized_periods[s] < kTokenizedPeriodWarningLines) return {};
  const bool quiet = run.args.quiet;
  return sacrebleu_warning("That's 100 lines that end in a tokenized period ('.')", quiet) +
         sacrebleu_warning("It looks like you forgot to detokenize your test data, which may hurt your score.", quiet) +
         sacrebleu_warning("If you insist your data is detokenized, or don't care, you can suppress this message with "
                           "the `force` parameter.",
                           quiet);
}

std::string render_sentence_level(const SacrebleuRun& run) {
  const Metric& metric = *run.metrics.front();
  const std::string signature = sacrebleu_signature(metric, run.nrefs, run.args.short_signature);
  std::string out;
  for (const auto& row : run.stats.front().front().rows) {
    out += score_line(metric, row, signature, run.args.width, run.args.score_only, std::nullopt) + "\n";
  }
  return out;
}

std::string render_single_system(const SacrebleuRun& run) {
  const bool json = run.args.format == "json";
  std::vector<std::string> results;
  for (std::size_t m = 0; m < run.metrics.size(); ++m) {
    const Metric& metric = *run.metrics[m];
    const auto& totals = run.stats[m].front().totals;
    const std::string signature =
        sacrebleu_signature(metric, run.nrefs, json ? false : run.args.short_signature);
    if (run.args.score_only) {
      // Score.format() returns f"{score:.{width}f}" before its JSON branch: fixed decimals in either format.
      results.push_back(format_fixed(metric.score(totals), run.args.width));
    } else if (json) {
      results.push_back(score_json(metric, totals, signature, run.args.width, std::nullopt));
    } else {
      results.push_back(score_line(metric, totals, signature, run.args.width, false, std::nullopt));
    }
  }
  if (json) {
    if (results.size() == 1) return results.front() + "\n";
    std::string out = "[\n";
    for (std::size_t i = 0; i < results.size(); ++i) out += results[i] + (i + 1 < results.size() ? ",\n" : "\n");
    return out + "]\n";
  }
  if (results.size() == 1) return results.front() + "\n";
  return align_on_equals(results);
}

std::string fancy_grid(const std::vector<std::string>& headers, const std::vector<std::vector<std::string>>& rows) {
  const std::size_t columns = headers.size();
  std::vector<std::size_t> widths(columns);
  for (std::size_t c = 0; c < columns; ++c) {
    widths[c] = display_length(headers[c]) + 2;  // tabulate's MIN_PADDING
    for (const auto& row : rows) {
      for (auto line : split(row[c], '\n')) widths[c] = std::max(widths[c], display_length(line));
    }
  }
  auto pad = [&](const std::string& text, std::size_t c) {
    const std::size_t extra = widths[c] - display_length(text);
    if (c == 0) return std::string(extra, ' ') + text;  // right-aligned system column
    const std::size_t left = extra / 2;                   // Python's '^': extra space goes right
    return std::string(left, ' ') + text + std::string(extra - left, ' ');
  };
  auto rule = [&](const char* left, const char* fill, const char* middle, const char* right) {
    std::string line = left;
    for (std::size_t c = 0; c < columns; ++c) {
      for (std::size_t i = 0; i < widths[c] + 2; ++i) line += fill;
      line += c + 1 < columns ? middle : right;
    }
    return line + "\n";
  };
  auto cells = [&](const std::vector<std::string>& row) {
    std::vector<std::vector<std::string_view>> lines(columns);
    std::size_t height = 1;
    for (std::size_t c = 0; c < columns; ++c) {
      lines[c] = split(row[c], '\n');
      height = std::max(height, lines[c].size());
    }
    std::string out;
    for (std::size_t line = 0; line < height; ++line) {
      out += "│";
      for (std::size_t c = 0; c < columns; ++c) {
        const std::string text(line < lines[c].size() ? lines[c][line] : std::string_view());
        // Appended piece by piece: `" " + string` trips GCC 12's false -Wstringop-overflow.
        out += ' ';
        out += pad(text, c);
        out += " │";
      }
      out += "\n";
    }
    return out;
  };
  std::string out = rule("╒", "═", "╤", "╕");
  out += cells(headers);
  out += rule("╞", "═", "╪", "╡");
  for (std::size_t r = 0; r < rows.size(); ++r) {
    out += cells(rows[r]);
    out += r + 1 < rows.size() ? rule("├", "─", "┼", "┤") : rule("╘", "═", "╧", "╛");
  }
  return out;
}

std::string latex_booktabs(const std::vector<std::string>& headers,
                           const std::vector<std::vector<std::string>>& rows) {
  const std::size_t columns = headers.size();
  std::vector<std::size_t> widths(columns);
  for (std::size_t c = 0; c < columns; ++c) {
    widths[c] = display_length(headers[c]) + 2;
    for (const auto& row : rows) widths[c] = std::max(widths[c], display_length(row[c]));
  }
  auto escape = [](const std::string& text) {
    std::string out;
    for (char ch : text) {
      switch (ch) {
        case '&': out += "\\&"; break;
        case '%': out += "\\%"; break;
        case '$': out += "\\$"; break;
        case '#': out += "\\#"; break;
        case '_': out += "\\_"; break;
        case '^': out += "\\^{}"; break;
        case '{': out += "\\{"; break;
        case '}': out += "\\}"; break;
        case '~': out += "\\textasciitilde{}"; break;
        case '\\': out += "\\textbackslash{}"; break;
        case '<': out += "\\ensuremath{<}"; break;
        case '>': out += "\\ensuremath{>}"; break;
        default: out += ch;
      }
    }
    return out;
  };
  auto line = [&](const std::vector<std::string>& row) {
    std::string out;
    for (std::size_t c = 0; c < columns; ++c) {
      const std::size_t extra = widths[c] - display_length(row[c]);
      const std::size_t left = c == 0 ? extra : extra / 2;
      const std::string padded = " " + std::string(left, ' ') + row[c] + std::string(extra - left, ' ') + " ";
      out += escape(padded);
      if (c + 1 < columns) out += "&";
    }
    return out + "\\\\\n";
  };
  std::string out = "\\begin{tabular}{r" + std::string(columns - 1, 'c') + "}\n\\toprule\n";
  out += line(headers);
  out += "\\midrule\n";
  for (const auto& row : rows) out += line(row);
  return out + "\\bottomrule\n\\end{tabular}\n";
}

std::string render_multi_system(const SacrebleuRun& run, Streams&) {
  const auto& args = run.args;
  const std::size_t num_systems = run.stats.front().size();
  if (args.format == "json") {
    std::string out = "[\n";
    for (std::size_t s = 0; s < num_systems; ++s) {
      out += "    {\n";
      out += fmt::format("        \"system\": {}", python_json_quote(run.stats.front()[s].system, true));
      for (std::size_t m = 0; m < run.metrics.size(); ++m) {
        out += fmt::format(",\n        {}: \"{}\"", python_json_quote(run.metrics[m]->name(), true),
                           format_fixed(run.metrics[m]->score(run.stats[m][s].totals), args.width));
      }
      out += s + 1 < num_systems ? "\n    },\n" : "\n    }\n";
    }
    return out + "]\n";
  }
  std::vector<std::string> headers = {"System"};
  for (const Metric* metric : run.metrics) headers.push_back(metric->name());
  std::vector<std::vector<std::string>> rows;
  for (std::size_t s = 0; s < num_systems; ++s) {
    std::vector<std::string> row = {run.stats.front()[s].system};
    for (std::size_t m = 0; m < run.metrics.size(); ++m) {
      row.push_back(format_fixed(run.metrics[m]->score(run.stats[m][s].totals), args.width));
    }
    rows.push_back(std::move(row));
  }
  std::string out;
  if (args.format == "latex") {
    out += latex_booktabs(headers, rows);
  } else {
    out += fancy_grid(headers, rows);
  }
  out += "\n-----------------\nMetric signatures\n-----------------\n";
  for (const Metric* metric : run.metrics) {
    out += fmt::format(" - {:<10} {}\n", metric->name(), sacrebleu_signature(*metric, run.nrefs, args.short_signature));
  }
  return out;
}

}  // namespace evalcli::cli
