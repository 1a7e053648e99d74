#include "evalcli/metrics/rouge.hpp"
#include "metrics/rouge/token_vocabulary.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <random>

#include "evalcli/core/error.hpp"

#include "support/test_support.hpp"

using namespace evalcli;

namespace {

RougeScoreMetric metric(bool stem = false, std::u32string separator = U"") {
  RougeScoreOptions options;
  options.stem = stem;
  options.sentence_separator = std::move(separator);
  return RougeScoreMetric(options);
}

// The plain O(m*n) table and the rouge-score backtrack, for cross-checking.
std::vector<char> reference_marks(const TokenIds& model, const TokenIds& peer) {
  const std::size_t m = model.size(), n = peer.size();
  std::vector<std::vector<int>> t(m + 1, std::vector<int>(n + 1, 0));
  for (std::size_t i = 1; i <= m; ++i) {
    for (std::size_t j = 1; j <= n; ++j) {
      t[i][j] = model[i - 1] == peer[j - 1] ? t[i - 1][j - 1] + 1 : std::max(t[i - 1][j], t[i][j - 1]);
    }
  }
  std::vector<char> mask(m, 0);
  std::size_t i = m, j = n;
  while (i > 0 && j > 0) {
    if (model[i - 1] == peer[j - 1]) {
      mask[--i] = 1;
      --j;
    } else if (t[i][j - 1] > t[i - 1][j]) {
      --j;
    } else {
      --i;
    }
  }
  return mask;
}

}  // namespace

TEST_CASE("rouge-score tokenizer: ASCII runs, lowercase, stemming only above 3 letters", "[rouge]") {
  const text::PorterStemmer nltk;
  CHECK(rouge_score_tokenize(U"Don't stop-the café, 3.14!", nullptr) ==
        RougeTokens{"don", "t", "stop", "the", "caf", "3", "14"});
  CHECK(rouge_score_tokenize(U"naïve <t> runs", nullptr) == RougeTokens{"na", "ve", "t", "runs"});
  CHECK(rouge_score_tokenize(U"running cats ran", &nltk) == RougeTokens{"run", "cat", "ran"});
  CHECK(rouge_score_tokenize(U"\u0130stanbul \u212Aelvin", nullptr) == RougeTokens{"i", "stanbul", "kelvin"});
  CHECK(rouge_score_tokenize(U"双宫能团", nullptr).empty());
  CHECK(rouge_score_tokenize(U"", nullptr).empty());
  CHECK(rouge_score_tokenize(U" .,;!? ", nullptr).empty());
}

TEST_CASE("rouge types: rouge-score's names only", "[rouge]") {
  CHECK(parse_rouge_score_type("rouge9").n == 9);
  CHECK(parse_rouge_score_type("rougeLsum").kind == RougeScoreType::lcs_summary);
  CHECK_THROWS_AS(parse_rouge_score_type("rouge10"), evalcli::Error);
  CHECK_THROWS_AS(parse_rouge_score_type("rouge0"), evalcli::Error);
  CHECK_THROWS_AS(parse_rouge_score_type("rougeW"), evalcli::Error);
}

TEST_CASE("rouge n-grams, LCS and union LCS on small cases", "[rouge]") {
  CHECK(ngram_overlap({1, 2, 3, 1, 2}, {1, 2, 1, 2, 1, 2}, 2) == 2);
  CHECK(ngram_overlap({1}, {1}, 2) == 0);
  CHECK(lcs_length({1, 2, 3, 4}, {2, 4, 3}) == 2);
  CHECK(lcs_length({}, {1}) == 0);
  // Lin (2004) example: r = w1 w2 w3 w4 w5, c1 = w1 w2 w6 w7 w8, c2 = w1 w3 w8 w9 w5.
  CHECK(union_lcs_hits({{1, 2, 3, 4, 5}}, {{1, 2, 6, 7, 8}, {1, 3, 8, 9, 5}}) == 4);
  // Clipping: a token counted once cannot match again.
  CHECK(union_lcs_hits({{1, 1}, {1}}, {{1}}) == 1);
}

// The quadratic DP both reference tools run, as the oracle for the fast paths.
static std::size_t reference_lcs(const TokenIds& a, const TokenIds& b) {
  std::vector<std::vector<std::size_t>> t(a.size() + 1, std::vector<std::size_t>(b.size() + 1, 0));
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      t[i][j] = a[i - 1] == b[j - 1] ? t[i - 1][j - 1] + 1 : std::max(t[i - 1][j], t[i][j - 1]);
    }
  }
  return t[a.size()][b.size()];
}

TEST_CASE("rouge fast paths (bit-parallel LCS, flat n-gram counts) equal the plain algorithms", "[rouge]") {
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    const int alphabet = 1 + static_cast<int>(rng() % 12);
    // Lengths across the 64-bit word boundaries of the bit-parallel LCS.
    auto sequence = [&] {
      TokenIds s(rng() % 200);
      for (int& t : s) t = static_cast<int>(rng() % static_cast<unsigned>(alphabet));
      return s;
    };
    const TokenIds a = sequence(), b = sequence();
    CHECK(lcs_length(a, b) == reference_lcs(a, b));
    for (int n = 1; n <= 3; ++n) {
      CHECK(ngram_overlap(a, b, n, static_cast<std::size_t>(alphabet)) == ngram_overlap(a, b, n));
    }
    std::vector<char> fast(a.size(), 0), plain(a.size(), 0);
    mark_lcs(a, b, fast);
    mark_lcs_plain(a, b, plain);
    CHECK(fast == plain);
  }
  // Ids far apart (no flat mask table) and negative ids take the DP.
  CHECK(lcs_length({5, 100000000, 7}, {100000000, 7}) == 2);
  CHECK(lcs_length({-1, 2}, {-1, 3, 2}) == 2);
}

// "w<i>". Not `"w" + std::to_string(i)`: GCC 12 inlines that into a memcpy it
// wrongly thinks may overflow (-Wstringop-overflow false positive).
static std::string numbered_word(int i) { return std::string(1, 'w').append(std::to_string(i)); }

TEST_CASE("rouge token vocabulary: interning, growth, stem memo per owner", "[rouge]") {
  TokenVocabulary v;
  std::vector<int> ids;
  for (int i = 0; i < 5000; ++i) ids.push_back(v.intern(numbered_word(i)));
  for (int i = 0; i < 5000; ++i) {
    CHECK(v.intern(numbered_word(i)) == ids[static_cast<std::size_t>(i)]);
    CHECK(v.text(ids[static_cast<std::size_t>(i)]) == numbered_word(i));
  }
  CHECK(v.size() == 5000);
  const auto owner_a = next_stem_owner_id(), owner_b = next_stem_owner_id();
  CHECK(owner_a != owner_b);
  const int running = v.intern("running");
  const int stem = v.stemmed(running, owner_a, [](std::string_view w) { return std::string(w.substr(0, 3)); });
  CHECK(v.text(stem) == "run");
  // Another owner (another metric object) never sees the first memo.
  const int other = v.stemmed(running, owner_b, [](std::string_view w) { return std::string(w) + "!"; });
  CHECK(v.text(other) == "running!");
}

TEST_CASE("rouge-score ids: the two non-ASCII characters Python lowercases into ASCII", "[rouge]") {
  const auto m = metric();
  // U+0130 -> "i" + U+0307 (a separator), U+212A -> "k": as rouge_score_tokenize.
  const auto s = m.score_pair(U"i stanbul kelvin", U"\u0130stanbul \u212Aelvin");
  CHECK(s[0].fmeasure == 1.0);
  CHECK(s[1].fmeasure == 1.0);
  const auto cjk = m.score_pair(U"na ve", U"na\u00efve \u53cc");
  CHECK(cjk[0].fmeasure == 1.0);
}

TEST_CASE("rouge-score pair scores: empty, identical, one token, punctuation only", "[rouge]") {
  const auto m = metric();
  const auto identical = m.score_pair(U"the cat sat", U"the cat sat");
  for (const auto& s : identical) CHECK(s.fmeasure == 1.0);
  for (const auto& s : m.score_pair(U"", U"the cat")) CHECK(s.fmeasure == 0.0);
  for (const auto& s : m.score_pair(U"the cat", U"")) CHECK(s.fmeasure == 0.0);
  for (const auto& s : m.score_pair(U"...", U"!!!")) CHECK(s.fmeasure == 0.0);
  const auto one = m.score_pair(U"cat", U"cat");
  CHECK(one[0].fmeasure == 1.0);  // rouge1
  CHECK(one[1].fmeasure == 0.0);  // rouge2: no bigrams
  CHECK(one[2].fmeasure == 1.0);  // rougeL
}

TEST_CASE("rougeLsum needs sentence breaks: without them it equals rougeL", "[rouge]") {
  const std::u32string ref = U"police killed the gunman\tthe gunman was shot";
  const std::u32string hyp = U"the gunman was killed\tpolice shot the gunman";
  const auto without = metric().score_pair(ref, hyp);
  CHECK(without[3].fmeasure == without[2].fmeasure);
  const auto with = metric(false, U"\t").score_pair(ref, hyp);
  CHECK(with[3].fmeasure > with[2].fmeasure);
  // A literal separator such as <n> works the same way.
  const auto literal = metric(false, U"<n>").score_pair(U"police killed the gunman<n>the gunman was shot",
                                                         U"the gunman was killed<n>police shot the gunman");
  CHECK(literal[3].fmeasure == with[3].fmeasure);
}

TEST_CASE("rouge multi-reference: per type the reference with the best F", "[rouge]") {
  const auto m = metric();
  std::vector<Stat> stats(m.num_stats());
  const std::vector<std::u32string> refs = {U"a b c d", U"x y z", U"a b x y"};
  m.segment_stats(U"a b x y", refs, stats.data());
  CHECK(stats[2] == 1.0);  // rouge1 F from the third reference
  CHECK(stats.back() == 1.0);
}

TEST_CASE("LCS marking: block-recomputed path equals the full table on long texts", "[rouge]") {
  std::mt19937 random(7);
  std::uniform_int_distribution<int> token(0, 40);
  for (std::size_t length : {5u, 200u, 3000u}) {
    TokenIds model(length), peer(length + 17);
    for (auto& t : model) t = token(random);
    for (auto& t : peer) t = token(random);
    std::vector<char> mask(model.size(), 0);
    mark_lcs(model, peer, mask);
    CHECK(mask == reference_marks(model, peer));
    std::size_t marked = 0;
    for (char c : mask) marked += c;
    CHECK(marked == lcs_length(model, peer));
  }
}

TEST_CASE("very long summaries: LCS in linear memory", "[rouge]") {
  // 20,000 x 20,000 tokens: a full table would need 1.6 GB.
  TokenIds a(20000), b(20000);
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = static_cast<int>(i % 97);
    b[i] = static_cast<int>((i * 7) % 97);
  }
  CHECK(lcs_length(a, a) == a.size());
  std::vector<char> mask(a.size(), 0);
  mark_lcs(a, a, mask);
  CHECK(std::count(mask.begin(), mask.end(), 1) == static_cast<long>(a.size()));
}

TEST_CASE("rouge-score bootstrap: one pair draws nothing, mid is the median", "[rouge]") {
  const auto one = rouge_score_bootstrap({{PRF{0.5, 0.25, 1.0 / 3}}}, 42, 100, 0.95);
  CHECK(one[0].low.precision == 0.5);
  CHECK(one[0].high.fmeasure == 1.0 / 3);
  CHECK(exact_sum(std::vector<double>{0.1, 0.2, 0.3}) == 0.6);
  CHECK(exact_sum(std::vector<double>{1e100, 1.0, -1e100}) == 1.0);
}

TEST_CASE("ROUGE-1.5.5 flags: parsing and errors", "[rouge]") {
  Rouge155Options options;
  parse_rouge155_flags("-c 95 -2 4 -U -r 1000 -n 2 -w 1.2 -a -m -f B -p 0.2", options);
  CHECK(options.max_ngram == 2);
  CHECK(options.skip_distance == 4);
  CHECK(options.skip_both);
  CHECK(options.stem);
  CHECK(options.scoring == 'B');
  CHECK(options.alpha == 0.2);
  CHECK(*options.wlcs_weight == "1.2");
  CHECK_THROWS_AS(parse_rouge155_flags("-q", options), evalcli::Error);
  CHECK_THROWS_AS(parse_rouge155_flags("-n", options), evalcli::Error);
  CHECK(perl_fixed5(0.123455) == "0.12345");  // the double is just below ...455: printf rounds down
  CHECK(perl_fixed5(0.123456) == "0.12346");
  CHECK(perl_fixed5(0) == "0.00000");
}

TEST_CASE("evalcli rouge: bad input and missing ROUGE-1.5.5 data", "[rouge]") {
  const evalcli::test::TempFile ref("the cat sat\n"), hyp("the cat\n"), two("a\nb\n");
  CHECK(evalcli::test::run_cli({"rouge", "-r", ref.path(), "-i", two.path()}).exit_code == 3);
  CHECK(evalcli::test::run_cli({"rouge", "-r", ref.path(), "-i", hyp.path(), "--types", "rougeW"}).exit_code == 2);
  CHECK(evalcli::test::run_cli({"rouge", "-r", ref.path(), "-i", hyp.path(), "--max-ngram", "2"}).exit_code == 2);
  ::unsetenv("ROUGE_EVAL_HOME");
  const auto missing = evalcli::test::run_cli({"rouge", "--compat", "rouge155", "-r", ref.path(), "-i", hyp.path()});
  CHECK(missing.exit_code == 4);
  CHECK(missing.err.find("--rouge155-data") != std::string::npos);
  const auto ok = evalcli::test::run_cli({"rouge", "-r", ref.path(), "-i", hyp.path(), "-f", "json"});
  REQUIRE(ok.exit_code == 0);
  const auto report = nlohmann::json::parse(ok.out);
  CHECK(report["types"]["rouge1"]["precision"].get<double>() == 1.0);
  CHECK(report["types"]["rouge1"]["recall"].get<double>() == 2.0 / 3);
  CHECK(report["signature"].get<std::string>().find("compat:rouge-score-0.1.2") != std::string::npos);
}

TEST_CASE("evalcli rouge: Chinese with the ASCII tokenizer warns, zh-char scores", "[rouge]") {
  const evalcli::test::TempFile ref("双官能团活性艳蓝的应用性能\n"), hyp("双宫能团活性艳蓝\n");
  const auto ascii = evalcli::test::run_cli({"rouge", "-r", ref.path(), "-i", hyp.path()});
  CHECK(ascii.err.find("warning") != std::string::npos);
  const auto chars = evalcli::test::run_cli({"rouge", "-r", ref.path(), "-i", hyp.path(), "--tokenize", "zh-char",
                                             "-f", "json"});
  CHECK(chars.err.empty());
  const auto report = nlohmann::json::parse(chars.out);
  CHECK(report["types"]["rouge1"]["precision"].get<double>() == 7.0 / 8);
  CHECK(report["signature"].get<std::string>().find("tok:zh-char-v1") != std::string::npos);
}

TEST_CASE("ROUGE-1.5.5 -M stems the models where the script does, -m with -M is refused", "[rouge]") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  auto recall = [&](const std::string& flags, std::u32string hyp, std::u32string ref) {
    Rouge155Options o;
    parse_rouge155_flags(flags, o);
    o.data_dir = (std::filesystem::path(*parent) / "shared/corpora/rouge155-data").string();
    const Rouge155Metric m(o);
    std::vector<Stat> stats(m.stat_names().size());
    const std::u32string refs[] = {std::move(ref)};
    m.segment_stats(hyp, refs, stats.data());
    return stats[0];  // ROUGE-1 R
  };
  CHECK(recall("-n 1 -x -r 10 -m", U"running cats", U"running cats") == 1.0);
  // As the script: ROUGE-N never stems under -M; ROUGE-L stems the model's tokens.
  CHECK(recall("-n 1 -x -r 10 -M", U"running cats", U"running cats") == 1.0);
  CHECK(recall("-r 10 -M", U"running cats", U"running cats") == 0.0);
  CHECK(recall("-r 10 -M", U"run cat", U"running cats") == 1.0);
  Rouge155Options both;
  parse_rouge155_flags("-n 1 -m -M", both);
  both.data_dir = "unused";
  CHECK_THROWS_AS(Rouge155Metric(both), evalcli::Error);
}

// ROUGE-1.5.5.pl (-z SPL file list, -n 2 -w 1.2) on these documents exits 255 with "Illegal
// division by zero at ROUGE-1.5.5.pl line 2454." after printing ROUGE-1, -2 and -L, both for
// a raw Chinese model (no ASCII token) and for an empty model; without -w it prints its report.
TEST_CASE("evalcli rouge --compat rouge155: warnings where ROUGE-1.5.5.pl is silent or dies", "[rouge]") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  const std::string data = (std::filesystem::path(*parent) / "shared/corpora/rouge155-data").string();
  const evalcli::test::TempFile zh_ref("小明硕士毕业于中国科学院\n"), zh_hyp("他来到了网易杭研大厦 ok\n");
  const evalcli::test::TempFile empty_ref("\n"), en_hyp("the cat sat\n");
  auto run = [&](const evalcli::test::TempFile& ref, const evalcli::test::TempFile& hyp, const std::string& flags,
                 std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"rouge", "--compat", "rouge155", "--rouge155-data", data, "--rouge155-flags",
                                     flags, "-r", ref.path(), "-i", hyp.path()};
    args.insert(args.end(), extra.begin(), extra.end());
    auto result = evalcli::test::run_cli(args);
    INFO(result.err);
    CHECK(result.exit_code == 0);
    return result.err;
  };
  const std::string died = "1 document has a reference without tokens under -w: ROUGE-1.5.5.pl dies there";
  // Raw Chinese: ROUGE's byte tokenizer keeps ASCII only; with -w the script dies.
  const std::string raw = run(zh_ref, zh_hyp, "-n 2 -w 1.2");
  CHECK_THAT(raw, Catch::Contains("non-ASCII") && Catch::Contains(died) && Catch::Contains("Illegal division by zero"));
  const std::string no_w = run(zh_ref, zh_hyp, "-n 2");
  CHECK_THAT(no_w, Catch::Contains("non-ASCII"));
  CHECK(no_w.find("dies there") == std::string::npos);
  CHECK(run(zh_ref, zh_hyp, "-n 2 -w 1.2", {"-q"}).empty());
  // An empty reference under -w: the same death, no word about scripts.
  const std::string empty = run(empty_ref, en_hyp, "-n 2 -w 1.2");
  CHECK_THAT(empty, Catch::Contains(died));
  CHECK(empty.find("non-ASCII") == std::string::npos);
  // With a tokenizer the model has tokens: nothing to say, unless -m/-M comes with it.
  CHECK(run(zh_ref, zh_hyp, "-n 2 -w 1.2", {"--tokenize", "zh-char"}).empty());
  CHECK_THAT(run(zh_ref, zh_hyp, "-n 2 -m", {"--tokenize", "zh-char"}), Catch::Contains("--tokenize with -m/-M"));
  CHECK_THAT(run(zh_ref, zh_hyp, "-n 2 -M", {"--tokenize", "zh-char"}), Catch::Contains("--tokenize with -m/-M"));
  CHECK_THAT(run(zh_ref, zh_hyp, "-n 2", {"--tokenize", "zh-char", "--stem"}), Catch::Contains("--tokenize with -m/-M"));
}

// What that warning says: on hex ids the stemmer only cuts a final "e" (鮮 = e9aeae), so -m
// changes nothing and -M (models only) loses the match. ROUGE-1.5.5.pl on the SPL files
// "e9aeae e9aeaa" (peer and model): Average_R 1.00000, 1.00000 and 0.50000.
TEST_CASE("ROUGE-1.5.5 stemming on --tokenize's hex ids", "[rouge]") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  auto recall = [&](const std::string& flags) {
    Rouge155Options o;
    parse_rouge155_flags(flags, o);
    o.tokenizer = "zh-char";
    o.data_dir = (std::filesystem::path(*parent) / "shared/corpora/rouge155-data").string();
    const Rouge155Metric m(o);
    std::vector<Stat> stats(m.stat_names().size());
    const std::u32string refs[] = {U"鮮鮪"};
    m.segment_stats(U"鮮鮪", refs, stats.data());
    return stats[0];  // ROUGE-1 R (-n 1 -x) or ROUGE-L R (-x absent, no -n)
  };
  CHECK(recall("-n 1 -x -r 10") == 1.0);
  CHECK(recall("-n 1 -x -r 10 -m") == 1.0);
  CHECK(recall("-r 10 -M") == 0.5);  // ROUGE-L: the model's e9aeae became e9aea
}
