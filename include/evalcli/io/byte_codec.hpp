#pragma once
// Text encodings as Python's codecs decode them (evalcli sacrebleu -e): the
// single-byte codecs through a byte table, UTF-16 and UTF-32 (each with its
// -le/-be forms) through a decoding source that turns the file into UTF-8.
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace evalcli::io {
class ByteSource;  // evalcli/io/decompress.hpp
}  // namespace evalcli::io

namespace evalcli {

// What a byte that Python's codec does not define decodes to (Python raises UnicodeDecodeError).
constexpr char32_t kUndefinedByte = 0xFFFFFFFF;

// How a codec's code units are read: one byte each (the table), 2/4-byte
// units, or ICU's multi-byte converter line by line (GB18030, cp932, gbk,
// cp949: LF and CR are never part of a multi-byte character, so lines split
// on the bytes).
enum class CodeUnit { byte, utf16, utf32, multibyte };
// A unit codec's byte order: "utf-16"/"utf-32" take it from a leading BOM and
// drop the BOM (a file without one is an error, as in Python's open(): only
// bytes.decode falls back to little-endian); the -le/-be forms are fixed and
// keep a BOM as U+FEFF.
enum class ByteOrder { from_bom, little, big };

struct ByteCodec {
  std::string name;                   // codecs.lookup(...).name: "iso8859-2", "cp1252", "utf-16-le"
  std::array<char32_t, 256> table{};  // CodeUnit::byte: byte -> code point, or kUndefinedByte
  CodeUnit unit = CodeUnit::byte;
  ByteOrder order = ByteOrder::little;  // CodeUnit::utf16 and utf32 only
};

// Decodes one line of a CodeUnit::multibyte codec's bytes to code points as
// Python does; a sequence Python refuses is an input error naming `where`
// ("FILE:LINE") and the 1-based byte of the sequence in the line.
std::u32string decode_multibyte_line(const ByteCodec& codec, std::string_view bytes, const std::string& where);

// A codec name as Python's encodings.normalize_encoding leaves it, lowercased as
// codecs.lookup does: each run of characters other than ASCII letters, digits
// and '.' becomes one '_' (none at the start or end). "ISO-8859-2" -> "iso_8859_2".
std::string normalize_python_encoding(std::string_view name);

// The codec that Python's codecs.lookup(name) finds, when it is one that
// evalcli decodes exactly as Python does (docs/errors.md: Latin-1,
// ISO-8859-2..11, 13..15, cp437, cp866, cp874, cp1250..1258, KOI8-R, KOI8-U,
// mac-roman, UTF-16, UTF-32 and their -le/-be forms, GB18030, cp932, gbk,
// cp949); nullopt for any other name.
std::optional<ByteCodec> find_byte_codec(std::string_view name);

// The accepted single-byte codecs' canonical names, in the table's order (docs, tests).
std::vector<std::string> byte_codec_names();
// The accepted UTF-16/32 codecs' canonical names ("utf-16", "utf-16-le", ...).
std::vector<std::string> unit_codec_names();
// The accepted multi-byte codecs' canonical names ("gb18030", "cp932", ...).
std::vector<std::string> multibyte_codec_names();

// UTF-8 from `source` decoded with a CodeUnit::utf16/utf32 codec, as Python's
// incremental decoder does. What Python refuses (no BOM for utf-16/utf-32, an
// unpaired surrogate, a code point past U+10FFFF or a surrogate one in UTF-32,
// a truncated final unit) is an input error naming
// `name`, the line (lines end at LF, or with `universal_newlines` also at CR
// and CRLF) and the 1-based byte of the unit within that line's raw bytes.
std::unique_ptr<io::ByteSource> decode_units_to_utf8(std::unique_ptr<io::ByteSource> source, const ByteCodec& codec,
                                                     std::string name, bool universal_newlines);

}  // namespace evalcli
