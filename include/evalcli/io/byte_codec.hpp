#pragma once
// Single-byte text encodings as Python's codecs decode them (evalcli sacrebleu -e).
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace evalcli {

// What a byte that Python's codec does not define decodes to (Python raises UnicodeDecodeError).
constexpr char32_t kUndefinedByte = 0xFFFFFFFF;

struct ByteCodec {
  std::string name;                 // codecs.lookup(...).name: "iso8859-2", "cp1252", "koi8-r"
  std::array<char32_t, 256> table;  // byte -> code point, or kUndefinedByte
};

// A codec name as Python's encodings.normalize_encoding leaves it, lowercased as
// codecs.lookup does: each run of characters other than ASCII letters, digits
// and '.' becomes one '_' (none at the start or end). "ISO-8859-2" -> "iso_8859_2".
std::string normalize_python_encoding(std::string_view name);

// The codec that Python's codecs.lookup(name) finds, when it is one of the
// single-byte codecs evalcli decodes exactly as Python does (docs/errors.md:
// Latin-1, ISO-8859-2..11, 13..15, cp874, cp1250..1258, KOI8-R, KOI8-U,
// mac-roman); nullopt for any other name.
std::optional<ByteCodec> find_byte_codec(std::string_view name);

// The accepted codecs' canonical names, in the table's order (docs, tests).
std::vector<std::string> byte_codec_names();

}  // namespace evalcli
