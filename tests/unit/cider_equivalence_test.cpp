// CiderCorpus (interned n-gram ids, batched look-ups, first-seen ranks)
// against pycocoevalcap's CiderScorer + CiderD written out plainly over
// strings, on random corpora: every score bit-identical, and the document
// frequencies in the same first-seen order.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "evalcli/core/error.hpp"
#include "evalcli/metrics/cider.hpp"
#include "evalcli/text/utf8.hpp"

namespace {

// An insertion-ordered dict of n-gram -> value, as Python's.
using Dict = std::vector<std::pair<std::string, double>>;

double* lookup(Dict& dict, const std::string& key) {
  for (auto& [k, v] : dict) {
    if (k == key) return &v;
  }
  return nullptr;
}

// precook(): n-gram counts, order-major, first occurrence first.
std::vector<Dict> precook(const std::string& sentence, int max_n) {
  std::vector<std::string> words;
  std::istringstream in(sentence);
  for (std::string w; in >> w;) words.push_back(w);
  std::vector<Dict> counts(static_cast<std::size_t>(max_n));
  for (int k = 1; k <= max_n; ++k) {
    for (std::size_t i = 0; i + static_cast<std::size_t>(k) <= words.size(); ++i) {
      std::string ngram = words[i];
      for (int j = 1; j < k; ++j) ngram += " " + words[i + static_cast<std::size_t>(j)];
      if (double* c = lookup(counts[static_cast<std::size_t>(k - 1)], ngram)) {
        *c += 1;
      } else {
        counts[static_cast<std::size_t>(k - 1)].emplace_back(ngram, 1.0);
      }
    }
  }
  return counts;
}

struct Vec {
  std::vector<Dict> weights;
  std::vector<double> norms;
  double length = 0;  // Σ tf of the 2-grams
};

// counts2vec()
Vec to_vec(const std::vector<Dict>& counts, const std::map<std::string, double>& df, double ref_len) {
  Vec vec{counts, std::vector<double>(counts.size(), 0.0), 0};
  for (std::size_t n = 0; n < counts.size(); ++n) {
    for (std::size_t i = 0; i < counts[n].size(); ++i) {
      const auto it = df.find(counts[n][i].first);
      const double d = std::log(std::max(1.0, it == df.end() ? 0.0 : it->second));
      vec.weights[n][i].second = counts[n][i].second * (ref_len - d);
      vec.norms[n] += std::pow(vec.weights[n][i].second, 2);
      if (n == 1) vec.length += counts[n][i].second;
    }
  }
  for (double& norm : vec.norms) norm = std::sqrt(norm);
  return vec;
}

// sim() of CiderD (clipped) or Cider (not clipped, no length penalty).
std::vector<double> sim(Vec& hyp, Vec& ref, bool clipped, double sigma) {
  const double delta = hyp.length - ref.length;
  std::vector<double> val(hyp.weights.size(), 0.0);
  for (std::size_t n = 0; n < hyp.weights.size(); ++n) {
    for (const auto& [ngram, weight] : hyp.weights[n]) {
      const double* r = lookup(ref.weights[n], ngram);
      const double ref_weight = r == nullptr ? 0.0 : *r;
      val[n] += (clipped ? std::min(weight, ref_weight) : weight) * ref_weight;
    }
    if (hyp.norms[n] != 0 && ref.norms[n] != 0) val[n] /= (hyp.norms[n] * ref.norms[n]);
    if (clipped) val[n] *= std::pow(2.718281828459045, -(delta * delta) / (2 * sigma * sigma));
  }
  return val;
}

struct Doc {
  std::vector<std::string> refs;
  std::string hyp;
};

std::vector<double> plain_scores(const std::vector<Doc>& docs, bool clipped, int max_n,
                                 std::vector<std::pair<std::string, double>>& df_in_first_seen_order) {
  std::map<std::string, double> df;
  std::vector<std::string> first_seen;  // every n-gram of refs and hyps, sentence by sentence
  std::map<std::string, bool> seen;
  auto meet = [&](const std::vector<Dict>& counts) {
    for (const auto& order : counts) {
      for (const auto& [ngram, c] : order) {
        if (!seen[ngram]) first_seen.push_back(ngram);
        seen[ngram] = true;
      }
    }
  };
  for (const auto& doc : docs) {
    std::map<std::string, bool> in_doc;
    for (const auto& ref : doc.refs) {
      const auto counts = precook(ref, max_n);
      meet(counts);
      for (const auto& order : counts) {
        for (const auto& [ngram, c] : order) in_doc[ngram] = true;
      }
    }
    meet(precook(doc.hyp, max_n));
    for (const auto& [ngram, yes] : in_doc) df[ngram] += 1;
  }
  for (const auto& ngram : first_seen) {
    if (df.count(ngram) > 0) df_in_first_seen_order.emplace_back(ngram, df[ngram]);
  }
  const double ref_len = std::log(static_cast<double>(docs.size()));
  std::vector<double> scores;
  for (const auto& doc : docs) {
    Vec hyp = to_vec(precook(doc.hyp, max_n), df, ref_len);
    std::vector<double> score(static_cast<std::size_t>(max_n), 0.0);
    for (const auto& ref_text : doc.refs) {
      Vec ref = to_vec(precook(ref_text, max_n), df, ref_len);
      const auto val = sim(hyp, ref, clipped, 6.0);
      for (std::size_t n = 0; n < score.size(); ++n) score[n] += val[n];
    }
    double mean = 0;  // np.mean: fewer than 8 values are summed in order
    for (double v : score) mean += v;
    mean /= static_cast<double>(score.size());
    mean /= static_cast<double>(doc.refs.size());
    scores.push_back(mean * 10.0);
  }
  return scores;
}

std::string random_sentence(std::mt19937& rng) {
  static const std::vector<std::string> vocabulary = {"a", "man", "dog", "rides", "the", "on", "horse", "big",
                                                      "red", "is", "of", "two", "cat", "sits", "near", "ñ"};
  std::string s;
  for (std::size_t n = rng() % 14; n-- > 0;) {
    // Skewed choice: frequent small words make repeated n-grams and df > 1.
    const std::size_t pick = std::min(rng() % vocabulary.size(), rng() % vocabulary.size());
    s += (s.empty() ? "" : " ") + vocabulary[pick];
  }
  return s;
}

}  // namespace

TEST_CASE("CiderCorpus equals a plain string implementation of pycocoevalcap on random corpora", "[cider]") {
  std::mt19937 rng(20261130);
  for (int trial = 0; trial < 40; ++trial) {
    std::vector<Doc> docs(2 + rng() % 40);
    for (auto& doc : docs) {
      for (std::size_t r = 1 + rng() % 5; r-- > 0;) doc.refs.push_back(random_sentence(rng));
      doc.hyp = random_sentence(rng);
    }
    const bool clipped = trial % 3 != 2;
    const int max_n = trial % 5 == 4 ? 1 + static_cast<int>(rng() % 6) : 4;
    evalcli::CiderOptions options;
    options.variant = clipped ? evalcli::CiderVariant::cider_d : evalcli::CiderVariant::cider;
    options.max_n = max_n;
    evalcli::CiderCorpus corpus(options);
    for (const auto& doc : docs) {
      std::vector<std::u32string> refs;
      for (const auto& ref : doc.refs) refs.push_back(evalcli::utf8::decode_or_throw(ref, "test"));
      corpus.add_document(refs, {evalcli::utf8::decode_or_throw(doc.hyp, "test")});
    }
    std::vector<std::pair<std::string, double>> expected_df;
    const auto expected = plain_scores(docs, clipped, max_n, expected_df);
    INFO("trial " << trial << " max_n " << max_n << (clipped ? " CIDEr-D" : " CIDEr"));
    REQUIRE(corpus.score_all(0) == expected);
    evalcli::CiderCorpus textless(options);  // as evalcli coco runs it
    textless.forget_ngram_texts();
    for (const auto& doc : docs) {
      std::vector<std::u32string> refs;
      for (const auto& ref : doc.refs) refs.push_back(evalcli::utf8::decode_or_throw(ref, "test"));
      textless.add_document(refs, {evalcli::utf8::decode_or_throw(doc.hyp, "test")});
    }
    REQUIRE(textless.score_all(0) == expected);
    REQUIRE_THROWS_AS(textless.document_frequencies("none-v1"), evalcli::Error);
    const auto df = corpus.document_frequencies("none-v1");
    REQUIRE(df.counts.size() == expected_df.size());
    for (std::size_t i = 0; i < expected_df.size(); ++i) {
      REQUIRE(evalcli::utf8::encode(df.counts[i].first) == expected_df[i].first);
      REQUIRE(df.counts[i].second == expected_df[i].second);
    }
  }
}

// Pass 1 without keeping the documents (count_document), pass 2 per document
// given again (score_document) or from its saved record (score_saved_document):
// the same scores and df file, bit for bit.
TEST_CASE("counted documents scored one by one equal the kept corpus", "[cider]") {
  std::mt19937 rng(20261201);
  for (int trial = 0; trial < 30; ++trial) {
    std::vector<std::vector<std::u32string>> refs(2 + rng() % 30);
    std::vector<std::vector<std::u32string>> hyps(refs.size());
    for (std::size_t i = 0; i < refs.size(); ++i) {
      for (std::size_t r = 1 + rng() % 5; r-- > 0;) {
        refs[i].push_back(evalcli::utf8::decode_or_throw(random_sentence(rng), "test"));
      }
      for (int s = 0; s < 2; ++s) hyps[i].push_back(evalcli::utf8::decode_or_throw(random_sentence(rng), "test"));
    }
    evalcli::CiderOptions options;
    options.variant = trial % 2 ? evalcli::CiderVariant::cider_d : evalcli::CiderVariant::cider;
    options.max_n = trial % 5 == 4 ? 2 : 4;
    evalcli::CiderCorpus kept(options), counted(options), saved(options);
    std::vector<std::string> records(refs.size());
    for (std::size_t i = 0; i < refs.size(); ++i) {
      kept.add_document(refs[i], hyps[i]);
      counted.count_document(refs[i], hyps[i]);
      saved.count_document(refs[i], hyps[i], &records[i]);
    }
    INFO("trial " << trial);
    REQUIRE(counted.documents() == kept.documents());
    CHECK(evalcli::serialize_document_frequencies(counted.document_frequencies("none-v1")) ==
          evalcli::serialize_document_frequencies(kept.document_frequencies("none-v1")));
    const std::vector<double> system0 = kept.score_all(0), system1 = kept.score_all(1);
    std::vector<double> scores;
    for (std::size_t i = 0; i < refs.size(); ++i) {
      counted.score_document(refs[i], hyps[i], scores);
      REQUIRE(scores.size() == 2);
      CHECK(scores[0] == system0[i]);
      CHECK(scores[1] == system1[i]);
      saved.score_saved_document(records[i], scores);  // its n-gram vectors, kept aside
      REQUIRE(scores.size() == 2);
      CHECK(scores[0] == system0[i]);
      CHECK(scores[1] == system1[i]);
    }
  }
}

// A sentence's n-gram counts are kept in a byte, with counts of 255 and more
// aside: a word said 254, 255, 256 and 693 times scores as the plain code
// says, kept, and from a saved record.
TEST_CASE("n-gram counts of 255 and more in one sentence", "[cider]") {
  std::mt19937 rng(20261204);
  for (const int repeats : {256, 257, 258, 700}) {  // words; 2, 2, 2 and 7 of them "lion"
    std::vector<Doc> docs(4);
    for (auto& doc : docs) {
      for (int r = 0; r < 2; ++r) doc.refs.push_back(random_sentence(rng));
      doc.hyp = random_sentence(rng);
    }
    // Words of their own (idf > 0), against a reference that says them a little less
    // often (CIDEr-D's length penalty leaves the score above 0).
    const auto long_sentence = [](int words) {
      std::string sentence = "zebra";
      for (int i = 1; i < words; ++i) sentence += i % 97 == 0 ? " lion" : " zebra";
      return sentence;
    };
    docs[1].refs[0] = long_sentence(repeats);
    docs[2].hyp = long_sentence(repeats);
    docs[2].refs[0] = long_sentence(repeats - 5);
    for (const bool clipped : {true, false}) {
      evalcli::CiderOptions options;
      options.variant = clipped ? evalcli::CiderVariant::cider_d : evalcli::CiderVariant::cider;
      evalcli::CiderCorpus kept(options), counted(options);
      std::vector<std::string> records(docs.size());
      std::vector<std::vector<std::u32string>> refs(docs.size()), hyps(docs.size());
      for (std::size_t i = 0; i < docs.size(); ++i) {
        for (const auto& ref : docs[i].refs) refs[i].push_back(evalcli::utf8::decode_or_throw(ref, "test"));
        hyps[i].push_back(evalcli::utf8::decode_or_throw(docs[i].hyp, "test"));
        kept.add_document(refs[i], hyps[i]);
        counted.count_document(refs[i], hyps[i], &records[i]);
      }
      std::vector<std::pair<std::string, double>> expected_df;
      const auto expected = plain_scores(docs, clipped, 4, expected_df);
      INFO(repeats << " repeats" << (clipped ? " CIDEr-D" : " CIDEr"));
      REQUIRE(expected[2] > 0.0);
      REQUIRE(kept.score_all(0) == expected);
      std::vector<double> scores;
      for (std::size_t i = 0; i < docs.size(); ++i) {
        counted.score_saved_document(records[i], scores);
        REQUIRE(scores.size() == 1);
        CHECK(scores[0] == expected[i]);
      }
    }
  }
}
