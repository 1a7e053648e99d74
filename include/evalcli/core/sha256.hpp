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

namespace detail {
// sha256_hex without the CPU's SHA extensions, for tests to compare with.
std::string sha256_hex_portable(std::string_view bytes);
}  // namespace detail

}  // namespace evalcli
