#pragma once
// SHA-256 (FIPS 180-4), for naming data files (dictionaries) in signatures
// by content: the same value `sha256sum FILE` prints.
#include <string>
#include <string_view>

namespace evalcli {

// Lowercase hex digest of `bytes`.
std::string sha256_hex(std::string_view bytes);

// Lowercase hex digest of the file's content; throws Error(missing_resource) if unreadable.
std::string sha256_file_hex(const std::string& path);

}  // namespace evalcli
