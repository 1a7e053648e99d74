// XLM-R's SentencePiece tokenizer: the token ids bert_score fed to the model
// (../shared/bertscore/golden/tiny-xlmr/tokens.<set>.jsonl), transformers'
// special-token and truncation rules, and libsentencepiece loaded only when an
// XLM-R model is (other commands never load it).
#include <catch2/catch.hpp>

#include "evalcli/text/utf8.hpp"
#include "metrics/bertscore/model_config.hpp"
#include "metrics/bertscore/tokenizer.hpp"
#include "support/bertscore_reference.hpp"
#include "support/bertscore_tokens.hpp"
#include "support/process.hpp"

using namespace evalcli::bertscore;

namespace {

std::unique_ptr<SentenceTokenizer> xlmr_tokenizer(const std::filesystem::path& reference) {
  const auto folder = reference / "models/tiny-xlmr";
  const ModelConfig config = read_model_config((folder / "config.json").string());
  return load_tokenizer(folder.string(), config.model_type, config.max_position_embeddings);
}

std::vector<int> encode(const SentenceTokenizer& tokenizer, const std::string& text) {
  return tokenizer.encode(evalcli::utf8::decode_or_throw(text, "test"));
}

}  // namespace

TEST_CASE("XLM-R SentencePiece ids equal bert_score's", "[bertscore][sentencepiece]") {
  const auto reference = evalcli::test::bertscore_reference();
  if (!reference) return;
  CHECK(evalcli::test::token_id_mismatches(*reference, "tiny-xlmr", "en") == 0);
  CHECK(evalcli::test::token_id_mismatches(*reference, "tiny-xlmr", "zh") == 0);
}

TEST_CASE("XLM-R's special tokens and truncation as transformers' slow tokenizer", "[bertscore][sentencepiece]") {
  const auto reference = evalcli::test::bertscore_reference();
  if (!reference) return;
  const auto tokenizer = xlmr_tokenizer(*reference);
  CHECK(encode(*tokenizer, "") == std::vector<int>{0, 2});
  CHECK(encode(*tokenizer, "  \t ") == std::vector<int>{0, 2});
  // Special-token strings in the text are those tokens (fairseq's ids), <mask> after the 4,001 pieces.
  const auto specials = encode(*tokenizer, "<s> <pad> </s> <unk> <mask>");
  CHECK(specials == std::vector<int>{0, 0, 1, 2, 3, 4001, 2});
  // <mask> has lstrip: the space before it goes, so "a <mask>" is "a" then <mask>, as "a<mask>".
  CHECK(encode(*tokenizer, "a <mask>") == encode(*tokenizer, "a<mask>"));
  // model_max_length 128: 126 pieces between <s> and </s>.
  std::string long_text;
  for (int i = 0; i < 300; ++i) long_text += "a ";
  const auto truncated = encode(*tokenizer, long_text);
  REQUIRE(truncated.size() == 128);
  CHECK(truncated.front() == 0);
  CHECK(truncated.back() == 2);
  CHECK(truncated[126] == truncated[1]);
}

TEST_CASE("libsentencepiece is loaded by the first XLM-R model, not by other commands", "[bertscore][sentencepiece]") {
  const auto reference = evalcli::test::bertscore_reference();
  if (!reference) return;
  const evalcli::test::TempFile line("a cat\n");
  // The evalcli executable: the loader's list of the libraries a BLEU run opens.
  evalcli::test::ChildOptions options;
  options.env["LD_DEBUG"] = "libs";
  const auto bleu = evalcli::test::run_binary({"bleu", "-r", line.path(), "-i", line.path()}, options);
  CHECK(bleu.exit_code == 0);
  CHECK(bleu.err.find("libc.so.6") != std::string::npos);  // LD_DEBUG did list the libraries
  CHECK(bleu.err.find("sentencepiece") == std::string::npos);
  CHECK(bleu.err.find("evalcli_spm") == std::string::npos);
  // ... and an XLM-R run opens them (the wrapper found beside the build tree's evalcli).
  const std::string model = (*reference / "models/tiny-xlmr").string();
  const auto spm = evalcli::test::run_binary(
      {"bertscore", "--model", model, "--num-layers", "3", "-r", line.path(), "-i", line.path(), "-q"}, options);
  CHECK(spm.exit_code == 0);
  CHECK(spm.err.find("libsentencepiece.so.0") != std::string::npos);
  CHECK(spm.err.find("libevalcli_spm.so") != std::string::npos);
}

TEST_CASE("without libevalcli_spm.so beside evalcli, XLM-R models are exit 4 naming it, BERT still runs", "[bertscore][sentencepiece]") {
  const auto reference = evalcli::test::bertscore_reference();
  if (!reference) return;
  const auto dir = std::filesystem::temp_directory_path() / ("evalcli-no-spm-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  evalcli::test::ChildOptions options;
  options.binary = (dir / "evalcli").string();
  std::filesystem::copy_file(EVALCLI_BINARY, options.binary);
  const evalcli::test::TempFile line("a cat\n");
  const auto run = [&](const std::string& model) {
    return evalcli::test::run_binary({"bertscore", "--model", (*reference / "models" / model).string(), "--num-layers",
                                      "3", "-r", line.path(), "-i", line.path(), "-q"},
                                     options);
  };
  const auto xlmr = run("tiny-xlmr");
  const auto bert = run("tiny-bert-uncased");
  std::filesystem::remove_all(dir);
  CHECK(xlmr.exit_code == 4);
  CHECK(xlmr.err.find("cannot load libevalcli_spm.so") != std::string::npos);
  CHECK(xlmr.err.find("libsentencepiece0") != std::string::npos);
  CHECK(bert.exit_code == 0);
}
