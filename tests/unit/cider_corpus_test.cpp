// CiderCorpusRun: plain text streamed in blocks (each block's last caption
// tokenized with the next block's first as PTB context), its n-gram vectors
// spilled for pass 2, equals the captions read whole, bit for bit.
#include "evalcli/metrics/cider_corpus.hpp"

#include <catch2/catch.hpp>

#include "support/scoped_env.hpp"
#include "support/test_support.hpp"

namespace {

using evalcli::test::TempFile;

struct RunResult {
  std::vector<std::vector<double>> scores;  // [system][item]
  std::string df;
  std::vector<std::string> ids;
  std::size_t documents = 0;
};

RunResult result_of(evalcli::CiderCorpusRun& run) {
  RunResult result;
  result.df = evalcli::serialize_document_frequencies(run.corpus().document_frequencies("ptb-v2"));
  result.ids = run.ids();
  result.documents = run.corpus().documents();
  for (const auto& system : run.system_stats()) {
    std::vector<double> scores;
    for (const auto& row : system.rows) scores.push_back(row[0]);
    result.scores.push_back(scores);
  }
  return result;
}

}  // namespace

TEST_CASE("CIDEr plain text streamed in blocks equals the captions read whole", "[cider]") {
  // "U." at the end of a caption loses its period only when the next caption
  // starts "A ": the context crosses items (references) and block boundaries.
  const std::string refs1 = "the new nintendo wii U.\nA man plays a game\nthe U.\nU. S. a man\na dog runs U.\n"
                            "The dog sleeps\ntwo cats on a mat\nA cat\n";
  const std::string refs2 = "A game on the wii U.\nA man plays\nthe cat is on the mat U.\nA dog\nU.\nA bird\n"
                            "a mat with cats\nthe end U.\n";
  const std::string hyp1 = "a wii U.\nA man plays a game\nthe cat U.\nA dog runs\ndogs U.\nThe dog\ncats\nA cat U.\n";
  const std::string hyp2 = "nintendo U.\nA man\nthe U.\nThe U.\na dog\nA dog sleeps\ntwo cats\ncat\n";
  TempFile r1(refs1), r2(refs2), h1(hyp1), h2(hyp2);
  evalcli::CorpusSpec spec;
  spec.ref_paths = {r1.path(), r2.path()};
  spec.hyp_paths = {h1.path(), h2.path()};
  const evalcli::TextPipeline pipeline(evalcli::PipelineOptions{{}, false, "ptb", {}});
  for (auto variant : {evalcli::CiderVariant::cider_d, evalcli::CiderVariant::cider}) {
    evalcli::CiderOptions options;
    options.variant = variant;
    evalcli::CiderCorpusRun whole(options, pipeline, evalcli::io::read_plain_captions(spec));
    const RunResult expected = result_of(whole);
    REQUIRE(expected.scores.size() == 2);
    REQUIRE(expected.scores[0].size() == 8);
    for (const std::size_t block : {1u, 2u, 3u, 7u, 8u, 4096u}) {
      INFO("block of " << block << " items");
      evalcli::CiderCorpusRun streamed(options, pipeline, spec, block);
      const RunResult got = result_of(streamed);
      CHECK(got.scores == expected.scores);
      CHECK(got.df == expected.df);
      CHECK(got.ids == expected.ids);
      CHECK(got.documents == expected.documents);
    }
  }
}

TEST_CASE("CIDEr plain text from standard input is streamed too", "[cider]") {
  TempFile refs("a man rides a horse\nthe U.\nA dog\n");
  std::istringstream in("a man rides\nthe U.\nA dog runs\n");
  evalcli::CorpusSpec spec;
  spec.ref_paths = {refs.path()};
  spec.stdin_stream = &in;
  const evalcli::TextPipeline pipeline(evalcli::PipelineOptions{{}, false, "ptb", {}});
  evalcli::CiderCorpusRun streamed(evalcli::CiderOptions{}, pipeline, spec, 1);
  const RunResult got = result_of(streamed);
  std::istringstream again("a man rides\nthe U.\nA dog runs\n");
  spec.stdin_stream = &again;
  evalcli::CiderCorpusRun whole(evalcli::CiderOptions{}, pipeline, evalcli::io::read_plain_captions(spec));
  CHECK(got.scores == result_of(whole).scores);
  CHECK(got.ids == std::vector<std::string>{"1", "2", "3"});
}

TEST_CASE("CIDEr keeps pass 1's vectors in memory up to a size, then in a temporary file, with the same scores",
          "[cider]") {
  std::string refs, hyps;
  for (int i = 0; i < 200; ++i) {
    refs += "a man rides horse " + std::to_string(i % 17) + " in the park U.\n";
    hyps += "the man rides a horse " + std::to_string(i % 13) + "\n";
  }
  TempFile r(refs), h(hyps);
  evalcli::CorpusSpec spec;
  spec.ref_paths = {r.path()};
  spec.hyp_paths = {h.path()};
  const evalcli::TextPipeline pipeline(evalcli::PipelineOptions{{}, false, "ptb", {}});
  const evalcli::CiderOptions options;
  evalcli::CiderCorpusRun held(options, pipeline, spec, 64);
  const RunResult expected = result_of(held);
  for (const std::size_t held_bytes : {std::size_t{0}, std::size_t{1000}, std::size_t{20000}}) {
    INFO("held in memory up to " << held_bytes << " bytes");
    evalcli::CiderCorpusRun spilled(options, pipeline, spec, 64, {}, false, held_bytes);
    const RunResult got = result_of(spilled);
    CHECK(got.scores == expected.scores);
    CHECK(got.df == expected.df);
  }
  // The file is made only once the vectors outgrow memory: an unusable $TMPDIR
  // fails then, naming the folder (exit 3), and is never opened before.
  evalcli::test::ScopedEnv tmpdir("TMPDIR", "/nonexistent-evalcli-folder");
  evalcli::CiderCorpusRun in_memory(options, pipeline, spec, 64);
  CHECK(result_of(in_memory).scores == expected.scores);
  try {
    evalcli::CiderCorpusRun spilled(options, pipeline, spec, 64, {}, false, 1000);
    FAIL("no error for an unusable TMPDIR");
  } catch (const evalcli::Error& error) {
    CHECK(error.code() == evalcli::ExitCode::input_data);
    CHECK_THAT(std::string(error.what()), Catch::Contains("/nonexistent-evalcli-folder: cannot create the temporary file"));
  }
}
