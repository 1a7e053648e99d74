#pragma once
// SacreBLEU's TercomTokenizer (re-implementation of Tercom's Normalizer.java),
// used by TER (../shared/specs/sacrebleu.md §5.1). Not in the tokenizer
// registry: its behaviour depends on the four TER options below.
#include <memory>
#include <string>

#include "evalcli/tokenize/tokenizer.hpp"

namespace evalcli {

struct TercomOptions {
  bool normalized = false;     // --ter-normalized
  bool no_punct = false;       // --ter-no-punct
  bool asian_support = false;  // --ter-asian-support (only with normalized and/or no_punct)
  bool case_sensitive = false; // --ter-case-sensitive (default lowercases!)
  // Signature version (tok:tercom-vN). The tokenizer itself is the same in both;
  // the version says how TER applies it: v1 tokenizes references once, v2 twice,
  // as SacreBLEU 2.x does (docs/chrf-ter.md).
  int version = 2;
};

class TercomTokenizer : public Tokenizer {
 public:
  explicit TercomTokenizer(TercomOptions options) : options_(options) {}
  std::string name() const override { return "tercom"; }
  std::string sacrebleu_name() const override { return "tercom"; }
  int version() const override { return options_.version; }
  // Words joined by single spaces; the input is expected rstripped.
  std::u32string tokenize(std::u32string_view line) const override;
  const TercomOptions& options() const { return options_; }

 private:
  TercomOptions options_;
};

}  // namespace evalcli
