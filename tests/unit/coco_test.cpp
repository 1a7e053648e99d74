// pycocoevalcap's Bleu_1..4 and ROUGE_L (evalcli coco-bleu, coco-rouge) against
// tests/data/coco/goldens.json, made by pycocoevalcap's own scorers with
// tests/data/make_coco_goldens.py (the file records the command): every
// corpus and per-image value must be the same double.
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>

#include "evalcli/core/summation.hpp"
#include "evalcli/metrics/cider.hpp"
#include "evalcli/metrics/coco.hpp"
#include "evalcli/text/unicode.hpp"
#include "evalcli/tokenize/pipeline.hpp"
#include "evalcli/text/utf8.hpp"
#include "support/test_support.hpp"

using evalcli::CocoBleu;
using evalcli::CocoRougeL;
using evalcli::OptionValues;
using nlohmann::json;

namespace {

std::u32string u32(const std::string& text) { return evalcli::utf8::decode_or_throw(text, "golden"); }

json goldens() {
  return json::parse(evalcli::test::read_file(evalcli::test::source_dir() / "tests/data/coco/goldens.json"));
}

std::vector<std::string> file_lines(const std::filesystem::path& path) {
  std::vector<std::string> lines;
  std::string text = evalcli::test::read_file(path);
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// One golden case's items: the hypothesis and the references of each image.
struct Items {
  std::vector<std::u32string> hyps;
  std::vector<std::vector<std::u32string>> refs;
};

Items read_items(const json& c, const std::filesystem::path& parent) {
  Items items;
  if (c.contains("jsonl")) {
    for (const auto& line : file_lines(parent / c["jsonl"].get<std::string>())) {
      const json item = json::parse(line);
      items.hyps.push_back(u32(item["hyp"].get<std::string>()));
      items.refs.emplace_back();
      for (const auto& ref : item["refs"]) items.refs.back().push_back(u32(ref.get<std::string>()));
    }
    return items;
  }
  for (const auto& line : file_lines(parent / c["hyp"].get<std::string>())) items.hyps.push_back(u32(line));
  items.refs.resize(items.hyps.size());
  for (const auto& path : c["refs"]) {
    const auto lines = file_lines(parent / path.get<std::string>());
    REQUIRE(lines.size() == items.hyps.size());
    for (std::size_t i = 0; i < lines.size(); ++i) items.refs[i].push_back(u32(lines[i]));
  }
  return items;
}

template <class M>
std::unique_ptr<M> build(const evalcli::MetricDefinition& definition, const std::string& tokenize) {
  OptionValues values;
  values.set("tokenize", tokenize);
  auto model = definition.build(values, {});
  auto* metric = dynamic_cast<M*>(model.get());
  REQUIRE(metric != nullptr);
  model.release();
  return std::unique_ptr<M>(metric);
}

// Counts equal doubles; reports the first difference.
struct Tally {
  std::size_t same = 0, total = 0;
  void check(double got, double expected, const std::string& what) {
    ++total;
    if (got == expected) {
      ++same;
    } else if (total - same == 1) {
      UNSCOPED_INFO(fmt::format("first difference: {}: {} != {}", what, got, expected));
    }
  }
};

}  // namespace

TEST_CASE("coco: Bleu_1..4 and ROUGE_L equal pycocoevalcap's on COCO and ABSTRACT-50S, per image and corpus") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  Tally tally;
  const json all = goldens();
  for (const auto& c : all["cases"]) {
    const std::string name = c["name"].get<std::string>();
    const Items items = read_items(c, *parent);
    const auto bleu = build<CocoBleu>(evalcli::coco_bleu_definition(), c["tokenize"].get<std::string>());
    const auto rouge = build<CocoRougeL>(evalcli::coco_rouge_definition(), c["tokenize"].get<std::string>());
    REQUIRE(items.hyps.size() == c["ROUGE_L_images"].size());
    std::vector<double> totals(bleu->num_stats(), 0.0), row(bleu->num_stats());
    std::vector<double> rouge_scores;
    for (std::size_t i = 0; i < items.hyps.size(); ++i) {
      bleu->segment_stats(items.hyps[i], items.refs[i], row.data());
      evalcli::add_stats(totals, row);
      const auto scores = bleu->scores(row);
      for (std::size_t k = 0; k < 4; ++k) {
        tally.check(scores[k], c["Bleu_images"][k][i].get<double>(), fmt::format("{} image {} Bleu_{}", name, i, k + 1));
      }
      double rouge_row[2];
      rouge->segment_stats(items.hyps[i], items.refs[i], rouge_row);
      rouge_scores.push_back(rouge_row[0]);
      tally.check(rouge_row[0], c["ROUGE_L_images"][i].get<double>(), fmt::format("{} image {} ROUGE_L", name, i));
    }
    const auto corpus = bleu->scores(totals);
    for (std::size_t k = 0; k < 4; ++k) tally.check(corpus[k], c["Bleu"][k].get<double>(), name + " Bleu");
    tally.check(evalcli::stats::numpy_mean(rouge_scores), c["ROUGE_L"].get<double>(), name + " ROUGE_L");
  }
  WARN(fmt::format("{} of {} values identical", tally.same, tally.total));
  CHECK(tally.total == 5 * (3 * 5001 + 2 * 401));
  CHECK(tally.same == tally.total);
}

TEST_CASE("coco: the commands print pycocoevalcap's corpus scores (JSON, and np.mean for ROUGE_L)") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  const json c = goldens()["cases"][0];  // coco-tok.contrastive
  std::vector<std::string> args = {"coco-bleu", "-tok", "none", "-f", "json", "-i", (*parent / c["hyp"].get<std::string>()).string()};
  for (const auto& ref : c["refs"]) args.insert(args.end(), {"-r", (*parent / ref.get<std::string>()).string()});
  auto result = evalcli::test::run_cli(args);
  REQUIRE(result.exit_code == 0);
  json report = json::parse(result.out);
  CHECK(report["name"] == "Bleu_4");
  CHECK(report["score"].get<double>() == c["Bleu"][3].get<double>());
  for (int k = 1; k <= 4; ++k) CHECK(report[fmt::format("Bleu_{}", k)].get<double>() == c["Bleu"][k - 1].get<double>());

  args[0] = "coco-rouge";
  result = evalcli::test::run_cli(args);
  REQUIRE(result.exit_code == 0);
  report = json::parse(result.out);
  CHECK(report["name"] == "ROUGE_L");
  CHECK(report["score"].get<double>() == c["ROUGE_L"].get<double>());

  // The text line, too, is numpy's mean (the rows are kept for it).
  args.erase(args.begin() + 3, args.begin() + 5);  // no -f json
  args.insert(args.end(), {"-w", "17"});
  result = evalcli::test::run_cli(args);
  REQUIRE(result.exit_code == 0);
  CHECK(result.out.find(fmt::format(" = {:.17f}", c["ROUGE_L"].get<double>())) != std::string::npos);
}

TEST_CASE("coco-bleu: closest reference length, clipped counts and the constants, by hand") {
  const auto bleu = build<CocoBleu>(evalcli::coco_bleu_definition(), "none");
  // Test "a b c" (3 words); references of 2 and 4 words are both 1 away: the shorter wins.
  const std::vector<std::u32string> refs = {U"a b", U"a b c d"};
  double row[10];
  bleu->segment_stats(U"a b c", refs, row);
  CHECK(std::vector<double>(row, row + 10) == std::vector<double>{3, 2, 3, 2, 1, 0, 3, 2, 1, 0});
  const auto scores = bleu->scores(row);
  REQUIRE(scores.size() == 4);
  CHECK(scores[0] == std::pow((3 + 1e-15) / (3 + 1e-9), 1.0));
  // No 4-gram: the product is 1e-15/1e-9 times the others, not zero.
  const double p4 = (3 + 1e-15) / (3 + 1e-9) * ((2 + 1e-15) / (2 + 1e-9)) * ((1 + 1e-15) / (1 + 1e-9)) * (1e-15 / 1e-9);
  CHECK(scores[3] == std::pow(p4, 0.25));
  // Repeated words are clipped to the largest count in one reference.
  bleu->segment_stats(U"the the the", std::vector<std::u32string>{U"the cat", U"the the"}, row);
  CHECK(row[6] == 2);
  // Shorter than the closest reference: the brevity penalty exp(1 - 1/ratio).
  bleu->segment_stats(U"a", std::vector<std::u32string>{U"a b"}, row);
  const double ratio = (1 + 1e-15) / (2 + 1e-9);
  CHECK(bleu->scores(row)[0] == (1 + 1e-15) / (1 + 1e-9) * std::exp(1 - 1 / ratio));
}

TEST_CASE("coco-rouge: LCS, max precision and max recall over references, beta 1.2, by hand") {
  const std::vector<std::u32string> refs = {U"a b c d", U"a x"};
  // vs "a b c d": lcs 2 (a c): P 2/3, R 2/4; vs "a x": lcs 1: P 1/3, R 1/2. max P 2/3, max R 1/2.
  const double p = 2.0 / 3, r = 0.5, b2 = std::pow(1.2, 2);
  CHECK(CocoRougeL::image_score(U"a c e", refs) == ((1 + b2) * p * r) / (r + b2 * p));
  CHECK(CocoRougeL::image_score(U"", refs) == 0.0);  // "" is one empty token: LCS 0
  // Split at U+0020 only: two spaces make an empty token (matching an empty one).
  CHECK(CocoRougeL::image_score(U"a  b", std::vector<std::u32string>{U"a  b"}) == 1.0);
  CHECK(CocoRougeL::image_score(U"a\u00a0b", std::vector<std::u32string>{U"a b"}) == 0.0);
}

TEST_CASE("coco: signatures with other options read back") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  const auto dir = *parent / "shared/corpora/coco/tok";
  const std::vector<std::string> base = {"-r", (dir / "ref.1.txt").string(), "-r", (dir / "ref.2.txt").string(),
                                         "-i", (dir / "hyp.topk.txt").string()};
  for (const auto& options :
       {std::vector<std::string>{"coco-bleu", "--bleu-order", "2", "-lc", "-tok", "none"},
        std::vector<std::string>{"coco-rouge", "-tok", "13a", "--normalize", "nfkc"}}) {
    auto args = options;
    args.insert(args.end(), base.begin(), base.end());
    const auto first = evalcli::test::run_cli(args);
    REQUIRE(first.exit_code == 0);
    const std::string line = first.out.substr(0, first.out.find('\n'));
    const auto again = evalcli::test::run_cli({options[0], "--signature", line, base[0], base[1], base[2], base[3], base[4], base[5]});
    INFO(first.err << again.err);
    CHECK(again.exit_code == 0);
    CHECK(again.out == first.out);
  }
  const auto wrong = evalcli::test::run_cli({"coco-bleu", "--signature", "Bleu_4|nrefs:2|compat:pycocoevalcap-1.2|n:4|reflen:shortest|tok:ptb-v2", base[0], base[1], base[2], base[3], base[4], base[5]});
  CHECK(wrong.exit_code == 2);
}

namespace {

// `evalcli coco ... -f json`, parsed.
json coco_json(std::vector<std::string> args) {
  args.insert(args.begin(), "coco");
  args.insert(args.end(), {"-f", "json"});
  const auto result = evalcli::test::run_cli(args);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return json::parse(result.out);
}

// The eval dict and every image of evalImgs against the goldens (Bleu, ROUGE_L)
// and the shared CIDEr-D golden's values.
void check_coco_report(const json& report, const json& c, double cider, const json& cider_images, Tally& tally) {
  for (int k = 0; k < 4; ++k) tally.check(report["eval"][fmt::format("Bleu_{}", k + 1)], c["Bleu"][k], "eval Bleu");
  tally.check(report["eval"]["ROUGE_L"], c["ROUGE_L"], "eval ROUGE_L");
  tally.check(report["eval"]["CIDEr"], cider, "eval CIDEr");
  REQUIRE(report["evalImgs"].size() == cider_images.size());
  for (std::size_t i = 0; i < cider_images.size(); ++i) {
    const json& image = report["evalImgs"][i];
    for (int k = 0; k < 4; ++k) {
      tally.check(image[fmt::format("Bleu_{}", k + 1)], c["Bleu_images"][k][i], fmt::format("image {} Bleu", i));
    }
    tally.check(image["ROUGE_L"], c["ROUGE_L_images"][i], fmt::format("image {} ROUGE_L", i));
    tally.check(image["CIDEr"], cider_images[i], fmt::format("image {} CIDEr", i));
  }
}

}  // namespace

TEST_CASE("coco command: COCOEvalCap's eval and evalImgs from plain text and from JSONL (ptb)") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  const json all = goldens();
  Tally tally;
  {
    const json& c = all["cases"][0];  // coco-tok.contrastive
    const json cider = evalcli::test::read_json(
        *parent / "shared/golden/cider/ciderD.pycocoevalcap.coco-karpathy-test.contrastive.ref1-5.json")["expected"];
    std::vector<std::string> args = {"-tok", "none", "-i", (*parent / c["hyp"].get<std::string>()).string()};
    for (const auto& ref : c["refs"]) args.insert(args.end(), {"-r", (*parent / ref.get<std::string>()).string()});
    const json report = coco_json(args);
    check_coco_report(report, c, cider["corpus"], cider["per_image"], tally);
    CHECK(report["tokenizer"] == "none-v1");
    CHECK(report["evalImgs"][4999]["image_id"] == 5000);  // plain text: the line number
  }
  {
    const json& c = all["cases"][3];  // abstract50s.candsB, one item per candidate
    REQUIRE(c["name"] == "abstract50s.candsB");
    const json cider = evalcli::test::read_json(
        *parent / "shared/golden/cider/cider-original+ciderD.vrama91.abstract50s.candsB.json")["expected"]["CIDEr-D"];
    const json report = coco_json({"--jsonl", (*parent / c["jsonl"].get<std::string>()).string()});
    check_coco_report(report, c, cider["corpus"], cider["per_candidate"], tally);
    CHECK(report["evalImgs"][0]["image_id"] == "Scene363_0.png");
  }
  WARN(fmt::format("{} of {} values identical", tally.same, tally.total));
  CHECK(tally.total == 6 * (5001 + 401));
  CHECK(tally.same == tally.total);
}

// evalImgs is written an image at a time into the dumped report: the text must
// be what nlohmann's dump(2) writes for the same document, for one system and several.
TEST_CASE("coco command: the JSON report is dump(2)'s text, with one system and with two") {
  const evalcli::test::TempFile refs("a man riding a horse\na dog on a couch\n\nthree birds\n");
  const evalcli::test::TempFile first("a man on a horse\na dog sleeping on a couch\nnothing\nbirds in the sky\n");
  const evalcli::test::TempFile second("a horse\na cat on a couch\n\nthree birds\n");
  for (const std::vector<std::string>& systems :
       {std::vector<std::string>{first.path()}, std::vector<std::string>{first.path(), second.path()}}) {
    std::vector<std::string> args = {"coco", "-r", refs.path(), "-f", "json", "-j", "2"};
    for (const auto& system : systems) args.insert(args.end(), {"-i", system});
    const auto result = evalcli::test::run_cli(args);
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    const nlohmann::ordered_json report = nlohmann::ordered_json::parse(result.out);
    CHECK(result.out == report.dump(2) + "\n");
    const auto& images = systems.size() == 1 ? report["evalImgs"] : report["systems"][1]["evalImgs"];
    REQUIRE(images.size() == 4);
    CHECK(images[3]["image_id"] == 4);
    CHECK(images[3].contains("CIDEr"));
  }
}

TEST_CASE("coco command: the text table, its notes, and METEOR as `meteor --compat meteor15 --norm norm`") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  const auto dir = *parent / "shared/corpora/coco/tok";
  // The first 200 images of zerocap against two references.
  auto first_lines = [](const std::string& text, std::size_t n) {
    std::size_t end = 0;
    for (std::size_t i = 0; i < n; ++i) end = text.find('\n', end) + 1;
    return text.substr(0, end);
  };
  const std::string hyp_text = evalcli::test::read_file(dir / "hyp.zerocap.txt");
  const std::string refs[2] = {evalcli::test::read_file(dir / "ref.1.txt"), evalcli::test::read_file(dir / "ref.2.txt")};
  const evalcli::test::TempFile h(first_lines(hyp_text, 200));
  const evalcli::test::TempFile r1(first_lines(refs[0], 200));
  const evalcli::test::TempFile r2(first_lines(refs[1], 200));
  const std::vector<std::string> inputs = {"-tok", "none", "-r", r1.path(), "-r", r2.path(), "-i", h.path()};

  auto args = inputs;
  args.insert(args.begin(), "coco");
  auto result = evalcli::test::run_cli(args);
  REQUIRE(result.exit_code == 0);
  CHECK(result.out.find("Bleu_1: 0.") == 0);
  CHECK(result.out.find("\nROUGE_L: 0.") != std::string::npos);
  CHECK(result.out.find("\nCIDEr: ") != std::string::npos);
  CHECK(result.out.find("# METEOR left out: give --meteor-resources DIR") != std::string::npos);
  CHECK(result.out.find("# SPICE left out: it needs Stanford CoreNLP and a scene-graph parser") != std::string::npos);

  const std::string resources = (*parent / "shared/corpora/meteor15").string();
  auto with_meteor = inputs;
  with_meteor.insert(with_meteor.end(), {"--meteor-resources", resources});
  const json report = coco_json(with_meteor);
  CHECK(report["notes"][0].get<std::string>().find("METEOR without paraphrases") == 0);
  auto meteor_args = inputs;
  meteor_args.insert(meteor_args.begin(), {"meteor", "--compat", "meteor15", "--norm", "norm", "--modules",
                                           "exact stem synonym", "--meteor-resources", resources, "-f", "json", "-sl"});
  result = evalcli::test::run_cli(meteor_args);
  REQUIRE(result.exit_code == 0);
  const json meteor = json::parse(result.out);
  CHECK(report["eval"]["METEOR"].get<double>() == meteor["score"].get<double>());
  REQUIRE(report["evalImgs"].size() == 200);
  for (std::size_t i = 0; i < 200; ++i) {
    CHECK(report["evalImgs"][i]["METEOR"].get<double>() == meteor["sentences"][i]["score"].get<double>());
  }
  CHECK(report["meteor"] == "meteor-1.5-wo-en-norm-0.85_0.2_0.6_0.75-ex_st_sy-1.0_0.6_0.8");

  args = {"coco", "-r", r1.path(), "-i", h.path(), "--paraphrase-table", "x.gz"};
  CHECK(evalcli::test::run_cli(args).exit_code == 2);  // a table without METEOR's resources
}

TEST_CASE("coco command: COCO annotation and result files give what the same captions as text give") {
  const evalcli::test::TempFile ref1("a man rides a horse\ntwo dogs play in the snow\na plate of food\n");
  const evalcli::test::TempFile ref2("a person on a horse\ndogs in the snow\nfood on a table\n");
  const evalcli::test::TempFile hyp("a man on a horse\na dog in snow\na table with food\n");
  const evalcli::test::TempFile annotations(R"({"images": [{"id": 7}, {"id": 3}, {"id": 9}], "annotations": [
    {"image_id": 3, "caption": "two dogs play in the snow"}, {"image_id": 7, "caption": "a man rides a horse"},
    {"image_id": 9, "caption": "a plate of food"}, {"image_id": 7, "caption": "a person on a horse"},
    {"image_id": 3, "caption": "dogs in the snow"}, {"image_id": 9, "caption": "food on a table"}]})",
                                            ".json");
  const evalcli::test::TempFile results(R"([{"image_id": 9, "caption": "a table with food"},
    {"image_id": 7, "caption": "a man on a horse"}, {"image_id": 3, "caption": "a dog in snow"}])",
                                        ".json");
  const json text = coco_json({"-r", ref1.path(), "-r", ref2.path(), "-i", hyp.path()});
  const json coco = coco_json({"--coco-annotations", annotations.path(), "--coco-results", results.path()});
  CHECK(coco["eval"] == text["eval"]);
  REQUIRE(coco["evalImgs"].size() == 3);
  CHECK(coco["evalImgs"][0]["image_id"] == 7);  // the annotation file's image order
  CHECK(coco["evalImgs"][1]["image_id"] == 3);
  for (std::size_t i = 0; i < 3; ++i) CHECK(coco["evalImgs"][i]["CIDEr"] == text["evalImgs"][i]["CIDEr"]);
}

namespace {

// Word ids of one vocabulary for the captions (equal ids for equal words).
struct Vocabulary {
  std::map<std::u32string, std::uint32_t> ids;
  std::vector<std::uint32_t> of(std::u32string_view caption) {
    std::vector<std::uint32_t> words;
    evalcli::text::for_each_split(caption, [&](std::u32string_view word) {
      words.push_back(ids.emplace(std::u32string(word), static_cast<std::uint32_t>(ids.size())).first->second);
    });
    return words;
  }
};

}  // namespace

TEST_CASE("coco: captions as shared word ids score as their text (Bleu, ROUGE_L, CIDEr)") {
  const std::vector<std::vector<std::u32string>> refs = {
      {U"a man rides a horse", U"a man on a horse on a beach", U"the horse runs"},
      {U"two dogs play", U"dogs play in the snow", U"two two dogs"},
      {U"a", U"a a a a a"}};
  const std::vector<std::u32string> hyps = {U"a man rides a horse on a beach", U"the dogs play", U"a a"};
  Vocabulary vocabulary;
  evalcli::CiderCorpus by_text{evalcli::CiderOptions{}}, by_ids{evalcli::CiderOptions{}};
  const auto bleu = build<CocoBleu>(evalcli::coco_bleu_definition(), "none");
  for (std::size_t i = 0; i < hyps.size(); ++i) {
    std::vector<std::vector<std::uint32_t>> ref_ids;
    for (const auto& ref : refs[i]) ref_ids.push_back(vocabulary.of(ref));
    const auto hyp_ids = vocabulary.of(hyps[i]);
    const std::vector<evalcli::CaptionWords> ref_words(ref_ids.begin(), ref_ids.end());
    double from_text[10], from_ids[10];
    bleu->tokenized_stats(hyps[i], refs[i], from_text);
    bleu->word_stats(hyp_ids, ref_words, from_ids);
    CHECK(std::vector<double>(from_text, from_text + 10) == std::vector<double>(from_ids, from_ids + 10));
    CHECK(CocoRougeL::image_score(hyp_ids, ref_words) == CocoRougeL::image_score(hyps[i], refs[i]));

    by_text.add_document(refs[i], std::vector<std::u32string>{hyps[i]});
    std::vector<std::vector<std::uint32_t>> cider_refs;
    for (const auto& ref : refs[i]) {
      cider_refs.emplace_back();
      evalcli::text::for_each_split(ref, [&](std::u32string_view w) { cider_refs.back().push_back(by_ids.word_id(w)); });
    }
    std::vector<std::uint32_t> cider_hyp;
    evalcli::text::for_each_split(hyps[i], [&](std::u32string_view w) { cider_hyp.push_back(by_ids.word_id(w)); });
    const std::vector<evalcli::CaptionWords> cider_ref_words(cider_refs.begin(), cider_refs.end());
    const std::vector<evalcli::CaptionWords> cider_hyp_words = {cider_hyp};
    by_ids.add_document_words(cider_ref_words, cider_hyp_words);
  }
  CHECK(by_ids.score_all(0) == by_text.score_all(0));
  CHECK(evalcli::serialize_document_frequencies(by_ids.document_frequencies("none-v1")) ==
        evalcli::serialize_document_frequencies(by_text.document_frequencies("none-v1")));
}

TEST_CASE("text: for_each_split visits split()'s words, a pipeline knows the lines it leaves unchanged") {
  for (const std::u32string line : {U"", U"  ", U"a", U" a  b\tc\u00a0d ", U"a b c"}) {
    std::vector<std::u32string_view> visited;
    evalcli::text::for_each_split(line, [&](std::u32string_view word) { visited.push_back(word); });
    CHECK(visited == evalcli::text::split(line));
  }
  const evalcli::TextPipeline none(evalcli::PipelineOptions{{}, false, "none", {}});
  for (const std::u32string line : {U"", U"a", U"a b c", U" a", U"a ", U"a  b", U"a\tb", U"a\u00a0b"}) {
    INFO(evalcli::utf8::encode(line));
    CHECK(none.leaves_unchanged(line) == (none.process(line) == line));
  }
  // Only `none` without normalizers or lowercasing is known.
  CHECK_FALSE(evalcli::TextPipeline(evalcli::PipelineOptions{{}, true, "none", {}}).leaves_unchanged(U"a b"));
  CHECK_FALSE(evalcli::TextPipeline(evalcli::PipelineOptions{{}, false, "13a", {}}).leaves_unchanged(U"a b"));
}

TEST_CASE("coco command: an empty hypothesis, which ROUGE_L's split(\" \") makes one empty token") {
  const evalcli::test::TempFile ref1("a man rides a horse\ntwo dogs\n"), ref2("a horse\ndogs play\n");
  const evalcli::test::TempFile hyp("\ntwo dogs play\n");
  const json report = coco_json({"-tok", "none", "-r", ref1.path(), "-r", ref2.path(), "-i", hyp.path()});
  const auto bleu = build<CocoBleu>(evalcli::coco_bleu_definition(), "none");
  const std::vector<std::vector<std::u32string>> refs = {{U"a man rides a horse", U"a horse"},
                                                         {U"two dogs", U"dogs play"}};
  const std::vector<std::u32string> hyps = {U"", U"two dogs play"};
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(report["evalImgs"][i]["ROUGE_L"].get<double>() == CocoRougeL::image_score(hyps[i], refs[i]));
    double row[10];
    bleu->tokenized_stats(hyps[i], refs[i], row);
    CHECK(report["evalImgs"][i]["Bleu_1"].get<double>() == bleu->scores(row)[0]);
  }
}

TEST_CASE("coco command: the same output with -j 1, 2 and 7 (one and three systems, text and JSON)") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  const auto dir = *parent / "shared/corpora/coco/tok";
  std::vector<std::string> base = {"coco", "-tok", "none"};
  for (int k = 1; k <= 5; ++k) base.insert(base.end(), {"-r", (dir / fmt::format("ref.{}.txt", k)).string()});
  const std::vector<std::vector<std::string>> system_sets = {{"contrastive"}, {"contrastive", "topk", "zerocap"}};
  for (const auto& systems : system_sets) {
    for (const std::string format : {"text", "json"}) {
      auto args = base;
      for (const auto& system : systems) args.insert(args.end(), {"-i", (dir / ("hyp." + system + ".txt")).string()});
      args.insert(args.end(), {"-f", format, "-j"});
      std::string first;
      for (const std::string threads : {"1", "2", "7"}) {
        auto with_threads = args;
        with_threads.push_back(threads);
        const auto result = evalcli::test::run_cli(with_threads);
        INFO(systems.size() << " systems, " << format << ", -j " << threads << ": " << result.err);
        REQUIRE(result.exit_code == 0);
        if (first.empty()) first = result.out;
        CHECK(result.out == first);
      }
    }
  }
}

namespace {

// CIDEr's corpus of the items' captions as word ids (references, then the
// hypothesis), and Bleu from its n-gram counts against Bleu from the text.
void check_counted_bleu(const std::vector<std::vector<std::u32string>>& refs, const std::vector<std::u32string>& hyps) {
  evalcli::CiderCorpus corpus{evalcli::CiderOptions{}};
  std::vector<std::vector<std::vector<std::uint32_t>>> ref_ids(refs.size());
  std::vector<std::vector<std::uint32_t>> hyp_ids(hyps.size());
  const auto ids_of = [&](const std::u32string& caption) {
    std::vector<std::uint32_t> words;
    evalcli::text::for_each_split(caption, [&](std::u32string_view w) { words.push_back(corpus.word_id(w)); });
    return words;
  };
  for (std::size_t i = 0; i < hyps.size(); ++i) {
    for (const auto& ref : refs[i]) ref_ids[i].push_back(ids_of(ref));
    hyp_ids[i] = ids_of(hyps[i]);
    const std::vector<evalcli::CaptionWords> ref_words(ref_ids[i].begin(), ref_ids[i].end());
    const std::vector<evalcli::CaptionWords> hyp_words = {hyp_ids[i]};
    corpus.add_document_words(ref_words, hyp_words);
  }
  const auto bleu = build<CocoBleu>(evalcli::coco_bleu_definition(), "none");
  for (std::size_t i = 0; i < hyps.size(); ++i) {
    const std::vector<evalcli::CaptionWords> ref_words(ref_ids[i].begin(), ref_ids[i].end());
    double from_text[10], from_counts[10];
    bleu->tokenized_stats(hyps[i], refs[i], from_text);
    bleu->counted_stats(corpus, i, refs[i].size(), hyp_ids[i], ref_words, from_counts);
    INFO("image " << i);
    CHECK(std::vector<double>(from_text, from_text + 10) == std::vector<double>(from_counts, from_counts + 10));
  }
}

std::u32string repeated(std::u32string_view word, std::size_t times) {
  std::u32string out;
  for (std::size_t i = 0; i < times; ++i) out += (i ? U" " : U"") + std::u32string(word);
  return out;
}

}  // namespace

TEST_CASE("coco: Bleu from CIDEr's n-gram counts is Bleu from the text (counts of 255 and more too)") {
  check_counted_bleu({{U"a man rides a horse", U"a man on a horse on a beach", U"the horse runs"},
                      {U"two dogs play", U"dogs play in the snow", U"two two dogs"},
                      {U"a", U"a a a a a"},
                      {U"x y", U"y x"}},
                     {U"a man rides a horse on a beach", U"the dogs play", U"a a", U""});
  // A byte per count: 255 stands for more, and the clipped count needs the exact largest one.
  check_counted_bleu({{repeated(U"a", 300), repeated(U"a", 260) + U" b"}, {repeated(U"a", 254), U"a b"}},
                     {repeated(U"a", 280) + U" b", repeated(U"a", 256)});
}

TEST_CASE("coco: ROUGE_L from word ids (bit-parallel up to 64 words) is ROUGE_L from the text") {
  // Captions of 0 to 130 words over a small vocabulary (many repeats), as text and as ids.
  std::uint64_t state = 12345;
  const auto next = [&state](std::uint64_t bound) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (state >> 33) % bound;
  };
  const std::vector<std::u32string> vocabulary = {U"a", U"man", U"horse", U"on", U"the", U"beach", U"dog"};
  const auto caption = [&](std::size_t words, std::vector<std::uint32_t>& ids) {
    std::u32string text;
    ids.clear();
    for (std::size_t i = 0; i < words; ++i) {
      const auto word = static_cast<std::uint32_t>(next(vocabulary.size()));
      ids.push_back(word);
      text += (i ? U" " : U"") + vocabulary[word];
    }
    return text;
  };
  for (const std::size_t hyp_words : {1, 2, 17, 63, 64, 65, 100, 130}) {
    for (int round = 0; round < 5; ++round) {
      std::vector<std::uint32_t> hyp_ids;
      const std::u32string hyp = caption(hyp_words, hyp_ids);
      std::vector<std::u32string> refs;
      std::vector<std::vector<std::uint32_t>> ref_ids(3);
      for (auto& ids : ref_ids) refs.push_back(caption(1 + next(90), ids));
      const std::vector<evalcli::CaptionWords> ref_words(ref_ids.begin(), ref_ids.end());
      INFO(hyp_words << " words, round " << round);
      CHECK(CocoRougeL::image_score(hyp_ids, ref_words) == CocoRougeL::image_score(hyp, refs));
    }
  }
}

TEST_CASE("coco command: -tok none on captions spaced any way gives what the squeezed captions give") {
  const evalcli::test::TempFile ref1("a  man rides a horse\n\tdogs play \na cat\n");
  const evalcli::test::TempFile ref2("a\u00a0horse\ndogs\u3000play in snow\na  black cat\n");
  const evalcli::test::TempFile hyp(" a man on a horse\ntwo  dogs play\n\n");
  const evalcli::test::TempFile squeezed_ref1("a man rides a horse\ndogs play\na cat\n");
  const evalcli::test::TempFile squeezed_ref2("a horse\ndogs play in snow\na black cat\n");
  const evalcli::test::TempFile squeezed_hyp("a man on a horse\ntwo dogs play\n\n");
  const json spaced = coco_json({"-tok", "none", "-r", ref1.path(), "-r", ref2.path(), "-i", hyp.path()});
  const json squeezed =
      coco_json({"-tok", "none", "-r", squeezed_ref1.path(), "-r", squeezed_ref2.path(), "-i", squeezed_hyp.path()});
  CHECK(spaced["eval"] == squeezed["eval"]);
  CHECK(spaced["evalImgs"] == squeezed["evalImgs"]);
}

TEST_CASE("coco: PTB reads each caption with the next one as look-ahead, as COCOEvalCap's one PTBTokenizer run") {
  // "U." before a caption that starts with a capital ends a sentence: PTB splits the period off
  // (and pycocoevalcap drops it), so the reference is "... wii u", which the hypothesis matches
  // word for word. Tokenized alone, the caption would keep "u." and Bleu_1 would be 7/8.
  const evalcli::test::TempFile refs("the new nintendo wii U.\nA man plays\n");
  const evalcli::test::TempFile hyps("the new nintendo wii u\na man plays\n");
  const auto result = evalcli::test::run_cli({"coco", "-f", "json", "-r", refs.path(), "-i", hyps.path()});
  REQUIRE(result.exit_code == 0);
  const json report = json::parse(result.out);
  CHECK(report["eval"]["Bleu_1"].get<double>() == Approx(1.0).epsilon(1e-9));
  // CIDEr-D agrees with `evalcli cider`, which reads the captions the same way.
  const auto cider = evalcli::test::run_cli({"cider", "-f", "json", "-r", refs.path(), "-i", hyps.path()});
  REQUIRE(cider.exit_code == 0);
  CHECK(report["eval"]["CIDEr"].get<double>() == json::parse(cider.out)["score"].get<double>());
}

namespace {

// 301 images whose captions end in "wii U." or "wii u": PTB splits the period
// off "U." when the caption after it (the next reference, or the next image's
// first reference; the next image's hypothesis) starts with "A " (not before
// every capital: "Someone" would not do), and keeps "u." at the text's end.
// Images 1, 4, 7, ...: the references have the period, the one the hypothesis
// matches last; the others: the hypothesis has it. So every image's score but
// the last's depends on the caption after it, which for a batch's, a thread's
// or a shard's last image is in the next segment.
struct LookAheadCaptions {
  std::string ref1, ref2, hyp;
};
LookAheadCaptions look_ahead_captions(std::size_t images) {
  LookAheadCaptions c;
  for (std::size_t k = 0; k < images; ++k) {
    const char* const ref_end = k % 3 == 1 ? "U." : "u";
    c.ref1 += fmt::format("A kid holds the wii {}\n", ref_end);
    c.ref2 += fmt::format("A person {} plays with a wii {}\n", k, ref_end);
    c.hyp += fmt::format("A person {} plays with a wii {}\n", k, k % 3 == 1 ? "u" : "U.");
  }
  return c;
}

double json_score(const evalcli::test::CliResult& result) {
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return json::parse(result.out)["score"].get<double>();
}

}  // namespace

TEST_CASE("coco-bleu, coco-rouge: PTB's look-ahead past each image, as `coco` (threads, shards, sentence level)") {
  using evalcli::test::run_cli;
  const LookAheadCaptions captions = look_ahead_captions(301);
  const evalcli::test::TempFile ref1(captions.ref1), ref2(captions.ref2), hyp(captions.hyp);
  const std::vector<std::string> files = {"-r", ref1.path(), "-r", ref2.path(), "-i", hyp.path()};
  auto with = [&](std::vector<std::string> args, const std::vector<std::string>& more) {
    args.insert(args.end(), files.begin(), files.end());
    args.insert(args.end(), more.begin(), more.end());
    return args;
  };
  const auto coco = run_cli(with({"coco", "-f", "json"}, {}));
  REQUIRE(coco.exit_code == 0);
  const json report = json::parse(coco.out);
  const json eval = report["eval"];
  // The look-ahead matters here: every image's hypothesis but the last is its
  // first reference word for word (Bleu_4 1); the last keeps its periods ("u."
  // against "u" or the other way round).
  const auto& images = report["evalImgs"];
  REQUIRE(images.size() == 301);
  for (std::size_t k = 0; k + 1 < images.size(); ++k) {
    INFO("image " << k);
    CHECK(images[k]["Bleu_4"].get<double>() == Approx(1.0).epsilon(1e-6));
  }
  CHECK(images.back()["Bleu_4"].get<double>() < 0.9);

  for (const auto& [command, key] : {std::pair{"coco-bleu", "Bleu_4"}, std::pair{"coco-rouge", "ROUGE_L"}}) {
    INFO(command);
    const std::string whole = run_cli(with({command, "-j", "1"}, {})).out;
    CHECK(json_score(run_cli(with({command, "-f", "json"}, {}))) == eval[key].get<double>());
    const std::string sentences = run_cli(with({command, "--sentence-level", "-j", "1"}, {})).out;
    for (const std::string threads : {"2", "7"}) {
      CHECK(run_cli(with({command, "-j", threads}, {})).out == whole);
      CHECK(run_cli(with({command, "--sentence-level", "-j", threads}, {})).out == sentences);
    }
    // A shard's last image reads the next shard's first captions, as in the whole corpus.
    for (const int pieces : {2, 3}) {
      std::vector<std::string> merge = {"merge"};
      std::vector<std::unique_ptr<evalcli::test::TempFile>> shards;
      for (int k = 1; k <= pieces; ++k) {
        shards.push_back(std::make_unique<evalcli::test::TempFile>("", ".json"));
        const auto shard = run_cli(with({command, "-q"}, {"--shard", fmt::format("{}/{}", k, pieces), "--stats-out",
                                                          shards.back()->path()}));
        INFO(shard.err);
        REQUIRE(shard.exit_code == 0);
        merge.push_back(shards.back()->path());
      }
      INFO(pieces << " shards");
      CHECK(run_cli(merge).out == whole);
    }
  }
}

TEST_CASE("tokenize -tok ptb: each line read with the next one as look-ahead, as coco and cider read captions") {
  using evalcli::test::run_cli;
  // "U." before "A ..." loses its period (pycocoevalcap then drops the "." token); the last line keeps it.
  const std::string lines = "the new nintendo wii U.\nA man plays the wii U.\nA kid with a wii U.\n";
  const auto piped = run_cli({"tokenize", "-tok", "ptb"}, lines);
  REQUIRE(piped.exit_code == 0);
  CHECK(piped.out == "the new nintendo wii u\na man plays the wii u\na kid with a wii u.\n");
  const evalcli::test::TempFile file(lines);
  CHECK(run_cli({"tokenize", "-tok", "ptb", "-i", file.path()}).out == piped.out);
  // With a normalizer in front, the look-ahead reads the normalized next line.
  CHECK(run_cli({"tokenize", "-tok", "ptb", "--normalize", "nfkc"}, lines).out == piped.out);
  // One line alone, and no line at all.
  CHECK(run_cli({"tokenize", "-tok", "ptb"}, "wii U.\n").out == "wii u.\n");
  CHECK(run_cli({"tokenize", "-tok", "ptb"}, "").out.empty());
}
