#pragma once
// Factories for the normalizers that ship with evalcli (one source file each;
// docs/segmentation.md describes what each does, docs/segmentation.md also its table).
#include <memory>

#include "evalcli/text/normalizer.hpp"

namespace evalcli::normalizers {

std::unique_ptr<Normalizer> make_nfkc();         // norm_nfkc.cpp
std::unique_ptr<Normalizer> make_fullwidth();    // norm_fullwidth.cpp
std::unique_ptr<Normalizer> make_zh_t2s();       // norm_zh_t2s.cpp
std::unique_ptr<Normalizer> make_whitespace();   // norm_whitespace.cpp
std::unique_ptr<Normalizer> make_punct_strip();  // norm_punct_strip.cpp

}  // namespace evalcli::normalizers
