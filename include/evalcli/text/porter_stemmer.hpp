#pragma once
// The Porter (1980) suffix-stripping stemmer in the two variants evaluation
// tools disagree on:
//
//  * `nltk`: NLTK 3.8 `PorterStemmer()` in its default NLTK_EXTENSIONS mode
//    (irregular-form table, `ies`/`ied` on 4-letter words, y->i only after a
//    consonant, `bli`/`fulli`/`logi` rules, ...). rouge-score and NLTK METEOR
//    use it.
//  * `rouge155`: the Perl stemmer inside ROUGE-1.5.5.pl (the tartarus.org Perl
//    port with Chin-Yew Lin's 2004 step-4 change: `-ment` and `-ent` are retried
//    after the first suffix rule). y->i whenever the stem has a vowel.
//
// Both work on code points; vowels are a, e, i, o, u (and y after a consonant),
// every other code point is a consonant. Stateless and thread-safe.
#include <string>
#include <string_view>

namespace evalcli::text {

enum class PorterVariant { nltk, rouge155 };

class PorterStemmer {
 public:
  explicit PorterStemmer(PorterVariant variant = PorterVariant::nltk) : variant_(variant) {}

  // The stem of `word`. The nltk variant first lowercases like NLTK
  // (Python str.lower()); the rouge155 variant expects lowercase input, as
  // ROUGE-1.5.5 lowercases (ASCII only) before stemming.
  std::u32string stem(std::u32string_view word) const;
  // The same for UTF-8 text (must be valid UTF-8).
  std::string stem(std::string_view word_utf8) const;

  PorterVariant variant() const { return variant_; }
  // Versioned identity for signatures: "porter-nltk38-v1", "porter-rouge155-v1".
  std::string id() const;

 private:
  std::u32string stem_nltk(std::u32string word) const;
  std::u32string stem_rouge155(std::u32string word) const;

  PorterVariant variant_;
};

}  // namespace evalcli::text
