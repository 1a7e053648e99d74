// Unit tests of the CIDEr pieces: corpus mean over 9,000+ images, n-gram counting, clipping,
// length penalty, document frequencies, df files, and the CLI's input errors.
#include <catch2/catch.hpp>
#include <cmath>

#include "cli/presentations.hpp"
#include "evalcli/stats/corpus_stats.hpp"
#include "evalcli/core/format.hpp"
#include "evalcli/metrics/cider.hpp"
#include "evalcli/metrics/registry.hpp"
#include "evalcli/text/utf8.hpp"
#include "support/numpy_sum_reference.hpp"
#include "support/test_support.hpp"

using evalcli::CiderCorpus;
using evalcli::CiderOptions;
using evalcli::CiderVariant;
using evalcli::test::run_cli;
using evalcli::test::TempFile;

namespace {

std::u32string u(const std::string& s) { return evalcli::utf8::decode_or_throw(s, "test"); }

// Scores one system over documents given as (refs, hyp), df from the refs.
std::vector<double> score(const std::vector<std::pair<std::vector<std::string>, std::string>>& docs,
                          CiderVariant variant = CiderVariant::cider_d) {
  CiderOptions options;
  options.variant = variant;
  CiderCorpus corpus(options);
  for (const auto& [refs, hyp] : docs) {
    std::vector<std::u32string> r;
    for (const auto& ref : refs) r.push_back(u(ref));
    corpus.add_document(r, {u(hyp)});
  }
  return corpus.score_all(0);
}

}  // namespace

TEST_CASE("CIDEr's corpus score is np.mean of the per-image scores above 8,192 images", "[cider]") {
  // pycocoevalcap: score = np.mean(np.array(scores)); numpy sums in buffers of 8,192.
  const auto metric = evalcli::metric_from_signature(
      "CIDEr-D", "nrefs:1|variant:cider-d|n:4|sigma:6|df:corpus|tok:ptb-v2|version:evalcli-0.1.0");
  for (const auto& expected : evalcli::test::numpy_reference::numpy_results()) {
    evalcli::SystemStats system;
    for (double score : evalcli::test::numpy_reference::per_image_scores(expected.count, expected.seed)) {
      system.rows.push_back({score});
    }
    system.segments = system.rows.size();
    INFO(expected.count << " images");
    CHECK(metric->corpus_score(system) == expected.mean);
  }
}

TEST_CASE("CIDEr-D of identical and partly matching captions (hand-computed)", "[cider]") {
  // N = 2 images; every n-gram of each reference occurs in one image: idf = log 2.
  const auto scores = score({{{"a b"}, "a b"}, {{"c d"}, "c c"}});
  REQUIRE(scores.size() == 2);
  // Identical: cosine 1 for 1-grams and 2-grams, 0 for 3/4-grams -> (1+1)/4*10.
  CHECK(scores[0] == Approx(5.0));
  // "c c" vs "c d": unigram weights (2L) vs (L, L), clipped dot L*L, norms 2L and sqrt(2)L.
  CHECK(scores[1] == Approx(10.0 / 4.0 / (2.0 * std::sqrt(2.0))));
}

TEST_CASE("original CIDEr does not clip repeated words", "[cider]") {
  const auto cider = score({{{"a b"}, "a b"}, {{"c d"}, "c c"}}, CiderVariant::cider);
  // Unclipped dot 2L*L: cosine 1/sqrt(2).
  CHECK(cider[1] == Approx(10.0 / 4.0 / std::sqrt(2.0)));
  const auto cider_d = score({{{"a b"}, "a b"}, {{"c d"}, "c c"}});
  CHECK(cider_d[1] < cider[1]);
}

TEST_CASE("CIDEr-D length penalty uses the 2-gram counts and sigma 6", "[cider]") {
  // Hypothesis with 3 bigrams vs a reference with 1: factor e^(-(2^2)/72) on every order.
  const auto penalised = score({{{"a b"}, "a b x y"}, {{"c d"}, "c d"}});
  const auto plain = score({{{"a b"}, "a b x y"}, {{"c d"}, "c d"}}, CiderVariant::cider);
  // Without clipping or penalty the same cosines; with both, clipping changes nothing
  // here (all tf = 1), so the ratio is the Gaussian factor.
  CHECK(penalised[0] / plain[0] == Approx(std::exp(-4.0 / 72.0)));
}

TEST_CASE("a single image gives CIDEr 0 (every idf is log 1 - log 1)", "[cider]") {
  CHECK(score({{{"a man riding a horse"}, "a man riding a horse"}})[0] == 0.0);
}

TEST_CASE("empty hypothesis scores 0, an empty reference still counts", "[cider]") {
  const auto scores = score({{{"a b", ""}, ""}, {{"c d"}, "c d"}, {{"a b", ""}, "a b"}});
  CHECK(scores[0] == 0.0);
  const auto one_ref = score({{{"a b"}, ""}, {{"c d"}, "c d"}, {{"a b"}, "a b"}});
  CHECK(scores[2] == Approx(one_ref[2] / 2.0));  // divided by len(refs) = 2
}

TEST_CASE("document frequencies count images, from references only", "[cider]") {
  CiderCorpus corpus(CiderOptions{});
  corpus.add_document({u("a b"), u("a c")}, {u("z")});
  corpus.add_document({u("a")}, {u("a b")});
  const auto df = corpus.document_frequencies("none-v1");
  CHECK(df.documents == 2);
  std::map<std::string, std::uint32_t> counts;
  for (const auto& [ngram, count] : df.counts) counts[evalcli::utf8::encode(ngram)] = count;
  CHECK(counts["a"] == 2);  // once per image, not per reference
  CHECK(counts["b"] == 1);
  CHECK(counts["a b"] == 1);
  CHECK(counts["a c"] == 1);
  CHECK(counts.count("z") == 0);  // hypotheses never count
}

TEST_CASE("df files round-trip and reproduce the scores", "[cider]") {
  CiderCorpus corpus(CiderOptions{});
  corpus.add_document({u("a b c"), u("a d")}, {u("a b")});
  corpus.add_document({u("e f")}, {u("e")});
  corpus.add_document({u("a e")}, {u("a e")});
  const auto df = corpus.document_frequencies("none-v1");
  const std::string text = evalcli::serialize_document_frequencies(df);
  const auto parsed = evalcli::parse_document_frequencies(text, "df.txt");
  CHECK(parsed.documents == 3);
  CHECK(parsed.tokenizer_id == "none-v1");
  CHECK(parsed.counts == df.counts);
  const auto before = corpus.score_all(0);
  corpus.use_document_frequencies(parsed);
  CHECK(corpus.score_all(0) == before);
}

TEST_CASE("df file errors name file and line", "[cider]") {
  CHECK_THROWS_WITH(evalcli::parse_document_frequencies("hello\n", "x.df"), Catch::Contains("x.df:1"));
  CHECK_THROWS_WITH(evalcli::parse_document_frequencies("evalcli-cider-df/1\tdocuments=2\tn=4\n3 a\n", "x.df"),
                    Catch::Contains("x.df:2"));
  CHECK_THROWS_WITH(evalcli::parse_document_frequencies("evalcli-cider-df/1\tn=4\n", "x.df"),
                    Catch::Contains("documents"));
}

// Issue #17 item 8: a df file that cannot be what --save-df wrote is refused,
// naming the file, the line and what is wrong.
TEST_CASE("df files: impossible counts, long n-grams, duplicates and cut files are refused", "[cider]") {
  const std::string header = "evalcli-cider-df/1\tdocuments=3\tn=2\ttok=ptb-v2\n";
  auto problem = [](const std::string& text) {
    try {
      evalcli::parse_document_frequencies(text, "x.df");
    } catch (const evalcli::Error& e) {
      CHECK(e.code() == evalcli::ExitCode::input_data);
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(problem(header + "3\ta b\n1\tc\n") == "accepted");
  CHECK_THAT(problem(header + "1\ta\n4\tb\n"), Catch::Contains("x.df:3") && Catch::Contains("documents=3"));
  CHECK_THAT(problem(header + "0\tb\n"), Catch::Contains("x.df:2"));
  CHECK_THAT(problem(header + "1\ta b c\n"), Catch::Contains("x.df:2") && Catch::Contains("n=2"));
  CHECK_THAT(problem(header + "1\t \n"), Catch::Contains("x.df:2") && Catch::Contains("empty"));
  CHECK_THAT(problem(header + "1\ta b\n2\tc\n2\ta  b\n"), Catch::Contains("x.df:4") && Catch::Contains("line 2"));
  CHECK_THAT(problem(header + "1\ta\n2\tb"), Catch::Contains("x.df:3") && Catch::Contains("newline"));
  CHECK_THAT(problem("evalcli-cider-df/1\tdocuments=3\tn=0\ttok=ptb-v2\n"),
             Catch::Contains("x.df:1") && Catch::Contains("n="));
  CHECK_THAT(problem("evalcli-cider-df/1\tdocuments=3\tn=4\ttok=ptb-v2\n1\ta\n1\ta\n"), Catch::Contains("duplicate"));
}

TEST_CASE("cider CLI: a df file of another tokenizer is refused", "[cider][cli]") {
  TempFile ref("a man rides a horse\nthe cat\n"), hyp("a man rides\nthe cat sits\n");
  TempFile df_13a("evalcli-cider-df/1\tdocuments=2\tn=4\ttok=13a-v1\n1\ta\n", ".df");
  TempFile df_ptb("evalcli-cider-df/1\tdocuments=2\tn=4\ttok=ptb-v2\n1\ta\n", ".df");
  TempFile df_none("evalcli-cider-df/1\tdocuments=2\tn=4\n1\ta\n", ".df");
  const auto wrong = run_cli({"cider", "-r", ref.path(), "-i", hyp.path(), "--df", df_13a.path()});
  CHECK(wrong.exit_code == 3);
  CHECK_THAT(wrong.err, Catch::Contains(df_13a.path() + ":1") && Catch::Contains("tok=13a-v1") &&
                            Catch::Contains("ptb-v2"));
  CHECK(run_cli({"cider", "-r", ref.path(), "-i", hyp.path(), "--df", df_ptb.path()}).exit_code == 0);
  // ptb-v1 split `AT&amp;T` (ptb-v2 keeps it whole, as PTBTokenizer 3.4.1): its counts are another tokenizer's.
  TempFile df_ptb_v1("evalcli-cider-df/1\tdocuments=2\tn=4\ttok=ptb-v1\n1\ta\n", ".df");
  CHECK(run_cli({"cider", "-r", ref.path(), "-i", hyp.path(), "--df", df_ptb_v1.path()}).exit_code == 3);
  CHECK(run_cli({"cider", "-r", ref.path(), "-i", hyp.path(), "--df", df_13a.path(), "-tok", "13a"}).exit_code == 0);
  const auto missing = run_cli({"cider", "-r", ref.path(), "-i", hyp.path(), "--df", df_none.path()});
  CHECK(missing.exit_code == 3);
  CHECK_THAT(missing.err, Catch::Contains("tok="));
}

TEST_CASE("the Metric view scores one item against fixed document frequencies", "[cider]") {
  CiderCorpus corpus(CiderOptions{});
  corpus.add_document({u("a man rides"), u("a man")}, {u("a man rides")});
  corpus.add_document({u("a dog")}, {u("a cat")});
  auto df = std::make_shared<evalcli::CiderDocumentFrequencies>(corpus.document_frequencies("none-v1"));
  evalcli::Cider metric(CiderOptions{}, std::make_unique<evalcli::TextPipeline>(evalcli::PipelineOptions{{}, false, "none", {}}),
                        df, "corpus");
  const auto scores = corpus.score_all(0);
  std::vector<std::u32string> refs = {u("a man rides"), u("a man")};
  double stats[2];
  metric.segment_stats(u("a man rides"), refs, stats);
  CHECK(stats[0] == scores[0]);
  CHECK(stats[1] == 1.0);
  CHECK(metric.signature() == "variant:cider-d|n:4|sigma:6|df:corpus|tok:none-v1");
}

TEST_CASE("cider CLI: plain text, JSONL and COCO inputs agree", "[cider][cli]") {
  TempFile ref1("a man rides a horse\na dog runs\na cat sleeps\n");
  TempFile ref2("a person on a horse\na dog is running\na cat is asleep\n");
  TempFile hyp("a man on a horse\na dog running\na sleeping cat\n");
  const auto plain = run_cli({"cider", "-r", ref1.path(), "-r", ref2.path(), "-i", hyp.path(), "-f", "json"});
  REQUIRE(plain.exit_code == 0);
  TempFile jsonl(
      "{\"id\": 1, \"refs\": [\"a man rides a horse\", \"a person on a horse\"], \"hyp\": \"a man on a horse\"}\n"
      "{\"id\": 2, \"refs\": [\"a dog runs\", \"a dog is running\"], \"hyp\": \"a dog running\"}\n"
      "{\"id\": 3, \"refs\": [\"a cat sleeps\", \"a cat is asleep\"], \"hyp\": \"a sleeping cat\"}\n",
      ".jsonl");
  const auto from_jsonl = run_cli({"cider", "--jsonl", jsonl.path(), "-f", "json"});
  REQUIRE(from_jsonl.exit_code == 0);
  TempFile annotations(
      "{\"images\": [{\"id\": 7}, {\"id\": 8}, {\"id\": 9}], \"annotations\": ["
      "{\"image_id\": 8, \"id\": 3, \"caption\": \"a dog runs\"},"
      "{\"image_id\": 7, \"id\": 1, \"caption\": \"a man rides a horse\"},"
      "{\"image_id\": 9, \"id\": 5, \"caption\": \"a cat sleeps\"},"
      "{\"image_id\": 7, \"id\": 2, \"caption\": \"a person on a horse\"},"
      "{\"image_id\": 8, \"id\": 4, \"caption\": \"a dog is running\"},"
      "{\"image_id\": 9, \"id\": 6, \"caption\": \"a cat is asleep\"}]}",
      ".json");
  TempFile results(
      "[{\"image_id\": 9, \"caption\": \"a sleeping cat\"}, {\"image_id\": 7, \"caption\": \"a man on a horse\"},"
      " {\"image_id\": 8, \"caption\": \"a dog running\"}]",
      ".json");
  const auto from_coco = run_cli({"cider", "--coco-annotations", annotations.path(), "--coco-results",
                                  results.path(), "-f", "json", "--sentence-level"});
  REQUIRE(from_coco.exit_code == 0);
  const auto p = nlohmann::json::parse(plain.out);
  const auto j = nlohmann::json::parse(from_jsonl.out);
  const auto c = nlohmann::json::parse(from_coco.out);
  CHECK(p["score"] == j["score"]);
  CHECK(p["score"] == c["score"]);
  CHECK(c["sentences"][0]["id"] == 7);  // the annotation file's image order, as its JSON number
  CHECK(p["signature"].get<std::string>().rfind("nrefs:2|variant:cider-d|n:4|sigma:6|df:corpus|tok:ptb-v2|", 0) == 0);
}

TEST_CASE("cider CLI: per-image ids are the input's JSON values, encoded once (issue #19 item 7)", "[cider][cli]") {
  TempFile jsonl(
      "{\"id\": \"1007129816.jpg\", \"refs\": [\"a man rides a horse\"], \"hyp\": \"a man on a horse\"}\n"
      "{\"id\": 42, \"refs\": [\"a dog runs\"], \"hyp\": \"a dog running\"}\n"
      "{\"refs\": [\"a cat sleeps\"], \"hyp\": \"a sleeping cat\"}\n",
      ".jsonl");
  const auto r = run_cli({"cider", "--jsonl", jsonl.path(), "-f", "json", "--sentence-level"});
  REQUIRE(r.exit_code == 0);
  const auto sentences = nlohmann::json::parse(r.out)["sentences"];
  REQUIRE(sentences.size() == 3);
  CHECK(sentences[0]["id"] == "1007129816.jpg");
  CHECK(sentences[1]["id"] == 42);
  CHECK(sentences[2]["id"] == 3);  // no "id": the line number
  CHECK(r.out.find("\\\"1007129816.jpg") == std::string::npos);
  TempFile ref("a b\nc d\n");
  const auto plain = run_cli({"cider", "-r", ref.path(), "-i", ref.path(), "-f", "json", "--sentence-level"});
  REQUIRE(plain.exit_code == 0);
  CHECK(nlohmann::json::parse(plain.out)["sentences"][1]["id"] == 2);
}

TEST_CASE("cider CLI: variable reference counts give nrefs:var", "[cider][cli]") {
  TempFile jsonl("{\"id\": \"x\", \"refs\": [\"a b\"], \"hyp\": \"a b\"}\n{\"refs\": [\"c d\", \"c e\"], \"hyp\": \"c\"}\n");
  const auto r = run_cli({"cider", "--jsonl", jsonl.path()});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.rfind("CIDEr-D|nrefs:var|", 0) == 0);
}

TEST_CASE("cider CLI: --save-df then --df reproduces the score and records the file hash", "[cider][cli]") {
  TempFile ref("a man rides a horse\na dog runs\na cat sleeps\n");
  TempFile hyp("a man on a horse\na dog running\na sleeping cat\n");
  const std::string df_path = ref.path() + ".df";
  const auto saved = run_cli({"cider", "-r", ref.path(), "-i", hyp.path(), "--save-df", df_path, "-b", "-w", "17"});
  REQUIRE(saved.exit_code == 0);
  const auto loaded = run_cli({"cider", "-r", ref.path(), "-i", hyp.path(), "--df", df_path, "-f", "json"});
  REQUIRE(loaded.exit_code == 0);
  std::filesystem::remove(df_path);
  const auto report = nlohmann::json::parse(loaded.out);
  CHECK(evalcli::format_fixed(report["score"].get<double>(), 17) + "\n" == saved.out);
  CHECK(report["signature"].get<std::string>().find("|df:sha256.") != std::string::npos);
}

TEST_CASE("cider CLI: input errors", "[cider][cli]") {
  TempFile two("a\nb\n");
  TempFile three("a\nb\nc\n");
  auto r = run_cli({"cider", "-r", two.path(), "-i", three.path()});
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::Contains("line counts differ"));

  TempFile no_refs("{\"id\": 1, \"refs\": [], \"hyp\": \"a\"}\n");
  r = run_cli({"cider", "--jsonl", no_refs.path()});
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::Contains(no_refs.path() + ":1: item 1 has no references"));

  TempFile bad_json("{\"refs\": [\"a\"], \"hyp\": \"a\"}\n{\"refs\": [\"a\"\n");
  r = run_cli({"cider", "--jsonl", bad_json.path()});
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::Contains(bad_json.path() + ":2: invalid JSON"));

  TempFile no_hyp("{\"refs\": [\"a\"]}\n");
  r = run_cli({"cider", "--jsonl", no_hyp.path()});
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::Contains("missing \"hyp\""));
  TempFile hyps("x\ny\n");
  r = run_cli({"cider", "--jsonl", no_hyp.path(), "-i", hyps.path()});
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::Contains("has 2 lines"));

  TempFile annotations("{\"annotations\": [{\"image_id\": 1, \"caption\": \"a\"}]}", ".json");
  TempFile unknown("[{\"image_id\": 2, \"caption\": \"a\"}]", ".json");
  r = run_cli({"cider", "--coco-annotations", annotations.path(), "--coco-results", unknown.path()});
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::Contains("[0]: image_id 2 is not in"));
  TempFile twice("[{\"image_id\": 1, \"caption\": \"a\"}, {\"image_id\": 1, \"caption\": \"b\"}]", ".json");
  r = run_cli({"cider", "--coco-annotations", annotations.path(), "--coco-results", twice.path()});
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::Contains("[1]: a second result for image_id 1"));
  TempFile images_only("{\"images\": [{\"id\": 1}, {\"id\": 2}], \"annotations\": [{\"image_id\": 1, \"caption\": \"a\"}]}",
                       ".json");
  r = run_cli({"cider", "--coco-annotations", images_only.path(), "--coco-results", unknown.path()});
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::Contains("image_id 2 has a result but no reference"));

  r = run_cli({"cider", "-r", two.path(), "--jsonl", no_hyp.path()});
  CHECK(r.exit_code == 2);
  r = run_cli({"cider", "-i", two.path()});
  CHECK(r.exit_code == 2);
}
