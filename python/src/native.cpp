// evalcli._native: the C++ library (evalcli/cli/library.hpp) for the Python
// package (python/evalcli/). Python strings are read once into the UTF-32
// text the metrics work on; the GIL is released while scoring.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <iterator>
#include <string>
#include <tuple>
#include <vector>

#include "evalcli/cli/library.hpp"
#include "evalcli/core/error.hpp"
#include "evalcli/core/version.hpp"
#include "evalcli/metrics/definition.hpp"
#include "evalcli/metrics/rouge.hpp"
#include "evalcli/text/unicode.hpp"

namespace py = pybind11;
using evalcli::cli::GivenOption;
using evalcli::cli::MetricResult;
using evalcli::cli::MetricSession;
using evalcli::cli::SegmentTexts;

namespace {

// A Python str as code points into `text` (one copy, no UTF-8 round trip; the
// buffer is reused from block to block). `strip`: Python's rstrip(), as the
// command line reads lines.
void read_code_points(PyObject* object, bool strip, std::u32string& text) {
  if (!PyUnicode_Check(object)) {
    throw py::type_error("evalcli: texts must be str, not " + std::string(Py_TYPE(object)->tp_name));
  }
  const Py_ssize_t length = PyUnicode_GetLength(object);
  text.resize(static_cast<std::size_t>(length));
  static_assert(sizeof(Py_UCS4) == sizeof(char32_t));
  if (length > 0 && PyUnicode_AsUCS4(object, reinterpret_cast<Py_UCS4*>(text.data()), length, 0) == nullptr) {
    throw py::error_already_set();
  }
  if (PyUnicode_KIND(object) != PyUnicode_1BYTE_KIND) {  // only wider strings can hold surrogates
    for (const char32_t c : text) {
      if (c >= 0xD800 && c <= 0xDFFF) throw py::value_error("evalcli: a text holds a lone surrogate (not valid Unicode)");
    }
  }
  if (strip) text.resize(evalcli::text::rstrip(text).size());
}

// A list or tuple (anything else is turned into one), refusing a str where a list of str is meant.
py::object sequence(py::handle object, const char* what) {
  if (PyUnicode_Check(object.ptr())) {
    throw py::type_error(std::string("evalcli: ") + what + " must be a list of str, not a str");
  }
  PyObject* fast = PySequence_Fast(object.ptr(), what);
  if (fast == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(fast);
}

Py_ssize_t length(const py::object& fast) { return PySequence_Fast_GET_SIZE(fast.ptr()); }
PyObject* item(const py::object& fast, Py_ssize_t i) { return PySequence_Fast_GET_ITEM(fast.ptr(), i); }

// hyps and refs read a block of segments at a time into SegmentTexts. refs are
// reference streams ([stream][segment], SacreBLEU's and the command line's
// form) or, with `by_segment`, each segment's list ([segment][ref]).
class TextReader {
 public:
  TextReader(py::handle hyps, py::handle refs, bool by_segment, bool strip)
      : hyps_(sequence(hyps, "hypotheses")), by_segment_(by_segment), strip_(strip) {
    const py::object refs_sequence = sequence(refs, "references");
    if (by_segment) {
      segments_ = refs_sequence;
      check_length(length(segments_), "references (one list per segment)");
      return;
    }
    for (Py_ssize_t k = 0; k < length(refs_sequence); ++k) {
      streams_.push_back(sequence(item(refs_sequence, k), "reference streams"));
      check_length(length(streams_.back()), ("reference stream " + std::to_string(k + 1)).c_str());
    }
  }

  // The next block into `block` (false at the end).
  bool next(SegmentTexts& block) {
    const Py_ssize_t total = length(hyps_);
    if (next_ >= total) return false;
    const Py_ssize_t end = std::min(total, next_ + kBlock);
    const std::size_t count = static_cast<std::size_t>(end - next_);
    block.hyps.resize(count);
    block.refs.resize(count);
    for (std::size_t i = 0; i < count; ++i, ++next_) {
      read_code_points(item(hyps_, next_), strip_, block.hyps[i]);
      auto& refs = block.refs[i];
      if (by_segment_) {
        const py::object segment = sequence(item(segments_, next_), "references of a segment");
        refs.resize(static_cast<std::size_t>(length(segment)));
        for (std::size_t k = 0; k < refs.size(); ++k) read_code_points(item(segment, static_cast<Py_ssize_t>(k)), strip_, refs[k]);
      } else {
        refs.resize(streams_.size());
        for (std::size_t k = 0; k < refs.size(); ++k) read_code_points(item(streams_[k], next_), strip_, refs[k]);
      }
    }
    return true;
  }

 private:
  static constexpr Py_ssize_t kBlock = 4096;

  void check_length(Py_ssize_t n, const char* what) const {
    if (n != length(hyps_)) {
      throw evalcli::input_error(std::string(what) + " has " + std::to_string(n) + " segments, the hypotheses " +
                                 std::to_string(length(hyps_)));
    }
  }

  py::object hyps_;
  py::object segments_;
  std::vector<py::object> streams_;
  bool by_segment_;
  bool strip_;
  Py_ssize_t next_ = 0;
};

std::vector<GivenOption> given_options(const std::vector<std::pair<std::string, std::vector<std::string>>>& options) {
  std::vector<GivenOption> given;
  for (const auto& [name, values] : options) given.push_back({name, values});
  return given;
}

// `details`: also the rows and the shard (what a corpus score alone does not need).
py::dict result_dict(const MetricResult& result, bool details = true) {
  py::dict d;
  d["name"] = result.name;
  d["signature"] = result.signature;
  d["nrefs"] = result.nrefs;
  d["stat_names"] = result.stat_names;
  d["totals"] = result.stats.totals;
  if (details) d["rows"] = result.stats.rows;
  py::list scores;
  for (const auto& line : result.scores) {
    py::dict score;
    score["name"] = line.name;
    score["score"] = line.score;
    score["sentence_scores"] = line.sentence_scores;
    scores.append(score);
  }
  d["scores"] = scores;
  d["details"] = py::module_::import("json").attr("loads")(result.details_json);
  d["shard_json"] = result.shard_json;
  d["sacrebleu_signature"] = result.sacrebleu_signature;
  d["sacrebleu_short_signature"] = result.sacrebleu_short_signature;
  if (result.confidence) {
    const auto& c = *result.confidence;
    d["confidence"] = py::dict(py::arg("mean") = c.mean, py::arg("half_width") = c.half_width,
                               py::arg("lower") = c.lower, py::arg("upper") = c.upper);
  } else {
    d["confidence"] = py::none();
  }
  return d;
}

}  // namespace

PYBIND11_MODULE(_native, m) {
  m.doc() = "evalcli's C++ library; use the evalcli package (evalcli.score, evalcli.stats, evalcli.sacrebleu, ...).";
  m.attr("__version__") = EVALCLI_VERSION;
  m.attr("version_tag") = evalcli::evalcli_version_tag();

  static py::exception<evalcli::Error> error(m, "Error", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const evalcli::Error& e) {
      PyErr_SetString(error.ptr(), (std::string("evalcli: error: ") + e.what()).c_str());
    }
  });

  m.def(
      "metric_options",
      [](const std::string& command) {
        py::list specs;
        const auto* definition = evalcli::find_metric_definition_by_command(command);
        if (definition == nullptr) throw evalcli::usage_error("unknown metric '" + command + "'");
        for (const auto& spec : definition->options) {
          if (!spec.refusal.empty()) continue;
          static const char* kinds[] = {"flag", "integer", "real", "text", "list"};
          specs.append(py::make_tuple(spec.name, kinds[static_cast<int>(spec.kind)], spec.help, spec.default_text));
        }
        return specs;
      },
      "The options of a metric's table: (name, kind, help, default) tuples.");
  m.def(
      "metric_names",
      [] {
        std::vector<std::string> names;
        for (const auto* definition : evalcli::metric_definitions()) names.push_back(definition->command);
        return names;
      },
      "The metrics' command names.");

  py::class_<MetricSession>(m, "Session", "A metric built once from its options or a signature.")
      .def(py::init([](const std::string& metric, const std::vector<std::pair<std::string, std::vector<std::string>>>& options,
                       const std::string& signature) {
             return std::make_unique<MetricSession>(metric, given_options(options), signature);
           }),
           py::arg("metric"), py::arg("options"), py::arg("signature") = "")
      .def(
          "score",
          [](const MetricSession& session, py::handle hyps, py::handle refs, bool refs_by_segment, bool rstrip,
             bool details, std::size_t confidence_n, const std::string& seed) {
            TextReader reader(hyps, refs, refs_by_segment, rstrip);
            MetricSession::Run run(session, details, {confidence_n, seed});
            SegmentTexts block;
            while (reader.next(block)) {
              py::gil_scoped_release release;
              run.add(block);
            }
            MetricResult result;
            {
              py::gil_scoped_release release;
              result = run.finish();
            }
            return result_dict(result, details);
          },
          py::arg("hyps"), py::arg("refs"), py::arg("refs_by_segment") = false, py::arg("rstrip") = true,
          py::arg("details") = true, py::arg("confidence_n") = 0, py::arg("seed") = "",
          "Scores the hypotheses against the references; returns a dict of the result (details: also "
          "sentence scores, rows and the shard).")
      .def(
          "score_segments",
          [](const MetricSession& session, py::handle hyps, py::handle refs, bool refs_by_segment, bool rstrip) {
            TextReader reader(hyps, refs, refs_by_segment, rstrip);
            SegmentTexts texts, block;
            while (reader.next(block)) {
              std::move(block.hyps.begin(), block.hyps.end(), std::back_inserter(texts.hyps));
              std::move(block.refs.begin(), block.refs.end(), std::back_inserter(texts.refs));
            }
            MetricSession::SegmentScores scores;
            {
              py::gil_scoped_release release;
              scores = session.score_segments(texts);
            }
            return py::make_tuple(scores.rows, scores.sentence_scores);
          },
          py::arg("hyps"), py::arg("refs"), py::arg("refs_by_segment") = false, py::arg("rstrip") = true,
          "Each segment's statistics and sentence score only: (rows, sentence_scores).")
      .def(
          "score_pair",
          [](const MetricSession& session, py::handle hyp, py::handle refs) {
            // Buffers reused from call to call: the per-pair APIs call this once per pair.
            thread_local std::u32string hyp_text;
            thread_local std::vector<std::u32string> ref_texts;
            thread_local evalcli::StatRow row;
            read_code_points(hyp.ptr(), false, hyp_text);
            const py::object references = sequence(refs, "references");
            ref_texts.resize(static_cast<std::size_t>(length(references)));
            for (std::size_t k = 0; k < ref_texts.size(); ++k) {
              read_code_points(item(references, static_cast<Py_ssize_t>(k)), false, ref_texts[k]);
            }
            {
              py::gil_scoped_release release;
              session.segment_row(hyp_text, ref_texts, row);
            }
            py::tuple out(row.size());
            for (std::size_t i = 0; i < row.size(); ++i) out[i] = py::float_(row[i]);
            return out;
          },
          py::arg("hyp"), py::arg("refs"),
          "One segment's statistics (a tuple) against its references (a list of str), texts as given (no rstrip).")
      .def(
          "sacrebleu_format",
          [](const MetricSession& session, const std::vector<double>& totals, int width, bool score_only,
             const std::string& signature, bool is_json, std::optional<std::pair<double, double>> confidence) {
            return session.sacrebleu_format(totals, width, score_only, signature, is_json, confidence);
          },
          py::arg("totals"), py::arg("width") = 2, py::arg("score_only") = false, py::arg("signature") = "",
          py::arg("is_json") = false, py::arg("confidence") = py::none(), "SacreBLEU's Score.format() of the statistics `totals`.");

  m.def(
      "rouge_bootstrap",
      [](const std::vector<std::vector<std::tuple<double, double, double>>>& rows_by_type, unsigned seed, int samples,
         double confidence) {
        std::vector<std::vector<evalcli::PRF>> rows(rows_by_type.size());
        for (std::size_t t = 0; t < rows.size(); ++t) {
          for (const auto& [p, r, f] : rows_by_type[t]) rows[t].push_back({p, r, f});
        }
        std::vector<evalcli::RougeInterval> intervals;
        {
          py::gil_scoped_release release;
          intervals = evalcli::rouge_score_bootstrap(rows, seed, samples, confidence);
        }
        py::list out;
        for (const auto& interval : intervals) {
          py::list bounds;
          for (const auto* prf : {&interval.low, &interval.mid, &interval.high}) {
            bounds.append(py::make_tuple(prf->precision, prf->recall, prf->fmeasure));
          }
          out.append(bounds);
        }
        return out;
      },
      py::arg("rows_by_type"), py::arg("seed"), py::arg("samples"), py::arg("confidence"),
      "rouge-score's BootstrapAggregator (numpy.random.seed(seed)): per type [low, mid, high] of (p, r, f).");

  m.def(
      "merge",
      [](const std::vector<std::string>& texts, const std::vector<std::string>& names) {
        MetricResult result;
        {
          py::gil_scoped_release release;
          result = evalcli::cli::merge_shard_texts(texts, names);
        }
        return result_dict(result);
      },
      py::arg("texts"), py::arg("names"), "Merges shard JSON texts (in corpus order) as `evalcli merge` does.");
}
