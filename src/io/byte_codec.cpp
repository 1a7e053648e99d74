// Python's single-byte codecs through ICU's converters, and Python's UTF-16/32
// decoders (include/evalcli/io/byte_codec.hpp).
// Which single-byte codecs, their names and the bytes Python leaves undefined
// come from Python 3.11's encodings package: tests/data/make_sacrebleu_encodings.py
// prints this table and checks that, for each of them, ICU's converter
// decodes every byte Python defines to the same code point (it maps some of
// the undefined ones, e.g. cp1252's 0x81, to C1 controls; those are refused here as
// Python refuses them). cp437/cp866 take Python's code point for the 4 and 3
// bytes where ICU's differs (kIbmControls).
// GB18030, cp932, gbk and cp949 go through ICU with Python's exceptions as data;
// the other CJK codecs are left out (docs/errors.md has the measured differences).
#include "evalcli/io/byte_codec.hpp"

#include <fmt/format.h>
#include <unicode/ucnv.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <utility>

#include "evalcli/core/error.hpp"
#include "evalcli/io/decompress.hpp"
#include "evalcli/text/utf8.hpp"

namespace evalcli {
namespace {

struct CodecEntry {
  const char* name;                 // Python's canonical name
  const char* icu;                  // ICU's converter
  std::vector<std::string> lookup;  // module name and encodings.aliases keys, normalised
  std::string_view undefined;       // bytes Python's decoding table leaves undefined
  // Python's code point for the bytes where ICU's converter gives another one.
  std::vector<std::pair<unsigned char, char32_t>> overrides = {};
};

// cp437 and cp866: ICU's IBM tables rotate 0x1A 0x1C 0x7F (to U+001C U+007F
// U+001A, the PC's control-picture convention), where Python has the controls
// as themselves; cp437's row adds 0xE6 (ICU U+03BC, Python U+00B5).
const std::vector<std::pair<unsigned char, char32_t>> kIbmControls = {{0x1A, 0x1A}, {0x1C, 0x1C}, {0x7F, 0x7F}};

const std::vector<CodecEntry>& codec_table() {
  static const std::vector<CodecEntry> table = {
      {"iso8859-1", "ISO-8859-1", {"latin_1", "8859", "cp819", "csisolatin1", "ibm819", "iso8859", "iso8859_1",
                                   "iso_8859_1", "iso_8859_1_1987", "iso_ir_100", "l1", "latin", "latin1"}, ""},
      {"iso8859-2", "ISO-8859-2", {"iso8859_2", "csisolatin2", "iso_8859_2", "iso_8859_2_1987", "iso_ir_101", "l2", "latin2"}, ""},
      {"iso8859-3", "ISO-8859-3", {"iso8859_3", "csisolatin3", "iso_8859_3", "iso_8859_3_1988", "iso_ir_109", "l3", "latin3"}, "\xA5\xAE\xBE\xC3\xD0\xE3\xF0"},
      {"iso8859-4", "ISO-8859-4", {"iso8859_4", "csisolatin4", "iso_8859_4", "iso_8859_4_1988", "iso_ir_110", "l4", "latin4"}, ""},
      {"iso8859-5", "ISO-8859-5", {"iso8859_5", "csisolatincyrillic", "cyrillic", "iso_8859_5", "iso_8859_5_1988", "iso_ir_144"}, ""},
      {"iso8859-6", "ISO-8859-6", {"iso8859_6", "arabic", "asmo_708", "csisolatinarabic", "ecma_114", "iso_8859_6", "iso_8859_6_1987", "iso_ir_127"}, "\xA1\xA2\xA3\xA5\xA6\xA7\xA8\xA9\xAA\xAB\xAE\xAF\xB0\xB1\xB2\xB3\xB4\xB5\xB6\xB7\xB8\xB9\xBA\xBC\xBD\xBE\xC0\xDB\xDC\xDD\xDE\xDF\xF3\xF4\xF5\xF6\xF7\xF8\xF9\xFA\xFB\xFC\xFD\xFE\xFF"},
      {"iso8859-7", "ISO-8859-7", {"iso8859_7", "csisolatingreek", "ecma_118", "elot_928", "greek", "greek8", "iso_8859_7", "iso_8859_7_1987", "iso_ir_126"}, "\xAE\xD2\xFF"},
      {"iso8859-8", "ISO-8859-8", {"iso8859_8", "csisolatinhebrew", "hebrew", "iso_8859_8", "iso_8859_8_1988", "iso_ir_138"}, "\xA1\xBF\xC0\xC1\xC2\xC3\xC4\xC5\xC6\xC7\xC8\xC9\xCA\xCB\xCC\xCD\xCE\xCF\xD0\xD1\xD2\xD3\xD4\xD5\xD6\xD7\xD8\xD9\xDA\xDB\xDC\xDD\xDE\xFB\xFC\xFF"},
      {"iso8859-9", "ISO-8859-9", {"iso8859_9", "csisolatin5", "iso_8859_9", "iso_8859_9_1989", "iso_ir_148", "l5", "latin5"}, ""},
      {"iso8859-10", "ISO-8859-10", {"iso8859_10", "csisolatin6", "iso_8859_10", "iso_8859_10_1992", "iso_ir_157", "l6", "latin6"}, ""},
      {"iso8859-11", "ISO-8859-11", {"iso8859_11", "iso_8859_11", "iso_8859_11_2001", "thai"}, "\xDB\xDC\xDD\xDE\xFC\xFD\xFE\xFF"},
      {"iso8859-13", "ISO-8859-13", {"iso8859_13", "iso_8859_13", "l7", "latin7"}, ""},
      {"iso8859-14", "ISO-8859-14", {"iso8859_14", "iso_8859_14", "iso_8859_14_1998", "iso_celtic", "iso_ir_199", "l8", "latin8"}, ""},
      {"iso8859-15", "ISO-8859-15", {"iso8859_15", "iso_8859_15", "l9", "latin9"}, ""},
      {"cp1250", "windows-1250", {"cp1250", "1250", "windows_1250"}, "\x81\x83\x88\x90\x98"},
      {"cp1251", "windows-1251", {"cp1251", "1251", "windows_1251"}, "\x98"},
      {"cp1252", "windows-1252", {"cp1252", "1252", "windows_1252"}, "\x81\x8D\x8F\x90\x9D"},
      {"cp1253", "windows-1253", {"cp1253", "1253", "windows_1253"}, "\x81\x88\x8A\x8C\x8D\x8E\x8F\x90\x98\x9A\x9C\x9D\x9E\x9F\xAA\xD2\xFF"},
      {"cp1254", "windows-1254", {"cp1254", "1254", "windows_1254"}, "\x81\x8D\x8E\x8F\x90\x9D\x9E"},
      {"cp1255", "windows-1255", {"cp1255", "1255", "windows_1255"}, "\x81\x8A\x8C\x8D\x8E\x8F\x90\x9A\x9C\x9D\x9E\x9F\xCA\xD9\xDA\xDB\xDC\xDD\xDE\xDF\xFB\xFC\xFF"},
      {"cp1256", "windows-1256", {"cp1256", "1256", "windows_1256"}, ""},
      {"cp1257", "windows-1257", {"cp1257", "1257", "windows_1257"}, "\x81\x83\x88\x8A\x8C\x90\x98\x9A\x9C\x9F\xA1\xA5"},
      {"cp1258", "windows-1258", {"cp1258", "1258", "windows_1258"}, "\x81\x8A\x8D\x8E\x8F\x90\x9A\x9D\x9E"},
      {"cp874", "windows-874", {"cp874"}, "\x81\x82\x83\x84\x86\x87\x88\x89\x8A\x8B\x8C\x8D\x8E\x8F\x90\x98\x99\x9A\x9B\x9C\x9D\x9E\x9F\xDB\xDC\xDD\xDE\xFC\xFD\xFE\xFF"},
      {"koi8-r", "KOI8-R", {"koi8_r", "cskoi8r"}, ""},
      {"koi8-u", "KOI8-U", {"koi8_u"}, ""},
      {"mac-roman", "macintosh", {"mac_roman", "macintosh", "macroman"}, ""},
      {"cp437", "IBM437", {"cp437", "437", "cspc8codepage437", "ibm437"}, "", {{0x1A, 0x1A}, {0x1C, 0x1C}, {0x7F, 0x7F}, {0xE6, 0xB5}}},
      {"cp866", "IBM866", {"cp866", "866", "csibm866", "ibm866"}, "", kIbmControls},
  };
  return table;
}

std::array<char32_t, 256> icu_table(const CodecEntry& entry) {
  UErrorCode status = U_ZERO_ERROR;
  UConverter* converter = ucnv_open(entry.icu, &status);
  if (U_FAILURE(status)) throw Error(ExitCode::internal, std::string("ICU has no converter ") + entry.icu);
  ucnv_setToUCallBack(converter, UCNV_TO_U_CALLBACK_STOP, nullptr, nullptr, nullptr, &status);
  std::array<char32_t, 256> table{};
  for (int byte = 0; byte < 256; ++byte) {
    ucnv_reset(converter);
    status = U_ZERO_ERROR;
    const char in = static_cast<char>(byte);
    const char* source = &in;
    UChar out[2];
    UChar* target = out;
    ucnv_toUnicode(converter, &target, out + 2, &source, &in + 1, nullptr, true, &status);
    table[static_cast<std::size_t>(byte)] = U_SUCCESS(status) && target == out + 1 ? out[0] : kUndefinedByte;
  }
  ucnv_close(converter);
  for (const char byte : entry.undefined) table[static_cast<unsigned char>(byte)] = kUndefinedByte;
  for (const auto& [byte, code_point] : entry.overrides) table[byte] = code_point;
  return table;
}

struct UnitCodecEntry {
  const char* name;                 // Python's canonical name
  std::vector<std::string> lookup;  // module name and encodings.aliases keys
  CodeUnit unit;
  ByteOrder order;
};

const std::vector<UnitCodecEntry>& unit_codec_table() {
  static const std::vector<UnitCodecEntry> table = {
      {"utf-16", {"utf_16", "u16", "utf16"}, CodeUnit::utf16, ByteOrder::from_bom},
      {"utf-16-le", {"utf_16_le", "unicodelittleunmarked", "utf_16le"}, CodeUnit::utf16, ByteOrder::little},
      {"utf-16-be", {"utf_16_be", "unicodebigunmarked", "utf_16be"}, CodeUnit::utf16, ByteOrder::big},
      {"utf-32", {"utf_32", "u32", "utf32"}, CodeUnit::utf32, ByteOrder::from_bom},
      {"utf-32-le", {"utf_32_le", "utf_32le"}, CodeUnit::utf32, ByteOrder::little},
      {"utf-32-be", {"utf_32_be", "utf_32be"}, CodeUnit::utf32, ByteOrder::big},
  };
  return table;
}

// Multi-byte codecs through ICU's converter with a STOP callback, where the
// measurement of docs/errors.md found ICU decoding every 1-, 2- and 4-byte
// string as Python does but for a few code points (Python's code point for ICU's).
struct MultibyteEntry {
  const char* name;                 // Python's canonical name
  const char* icu;                  // ICU's converter
  std::vector<std::string> lookup;  // module name and encodings.aliases keys
  std::vector<std::pair<char32_t, char32_t>> python_for_icu;
  // Single bytes ICU refuses and Python decodes (to the code point given).
  std::vector<std::pair<unsigned char, char32_t>> python_only_bytes = {};
  // Ranges of ICU's code points whose byte sequences Python refuses.
  std::vector<std::pair<char32_t, char32_t>> python_refuses = {};
};

const std::vector<MultibyteEntry>& multibyte_codec_table() {
  // GB18030: ICU has GB18030-2005's A8BC = U+1E3F and 81 35 F4 37 = U+E7C7, Python 2000's swap.
  static const std::vector<MultibyteEntry> table = {
      {"gb18030", "GB18030", {"gb18030", "gb18030_2000"}, {{0x1E3F, 0xE7C7}, {0xE7C7, 0x1E3F}}},
      // cp932: ICU's IBM-943 rotates the controls 0x1A 0x1C 0x7F (as cp437) and refuses
      // the single bytes 0x80, 0xA0, 0xFD..0xFF, which Python maps to U+0080 and U+F8F0..U+F8F3.
      {"cp932", "windows-31j", {"cp932", "932", "ms932", "ms_kanji", "mskanji"}, {{0x1C, 0x1A}, {0x7F, 0x1C}, {0x1A, 0x7F}},
       {{0x80, 0x80}, {0xA0, 0xF8F0}, {0xFD, 0xF8F1}, {0xFE, 0xF8F2}, {0xFF, 0xF8F3}}},
      // gbk and cp949: ICU decodes every string Python does alike, and more: the single
      // bytes 0x80 (GBK: U+20AC, cp949: U+0080) and 0xFF and the user-defined rows, all
      // in the Private Use Area, which Python's tables do not have.
      {"gbk", "GBK", {"gbk", "936", "cp936", "ms936"}, {}, {}, {{0x20AC, 0x20AC}, {0xE000, 0xF8FF}}},
      {"cp949", "windows-949", {"cp949", "949", "ms949", "uhc"}, {}, {}, {{0x80, 0x80}, {0xE000, 0xF8FF}}},
  };
  return table;
}

// encodings.search_function: the codec whose module name or alias is the
// normalised name, or whose alias is that name with '.' as '_' (a module name
// with '.' is never imported).
template <typename Entry>
const Entry* find_in(const std::vector<Entry>& table, std::string_view name) {
  const std::string normalized = normalize_python_encoding(name);
  std::string dots_as_underscores = normalized;
  std::replace(dots_as_underscores.begin(), dots_as_underscores.end(), '.', '_');
  for (const auto& entry : table) {
    const auto& names = entry.lookup;
    if (std::find(names.begin(), names.end(), normalized) != names.end() ||
        std::find(names.begin() + 1, names.end(), dots_as_underscores) != names.end()) {
      return &entry;
    }
  }
  return nullptr;
}

struct ConverterCloser {
  void operator()(UConverter* converter) const { ucnv_close(converter); }
};

// One open converter per codec and thread (ucnv_open per line would be slow).
UConverter* multibyte_converter(const MultibyteEntry& entry) {
  thread_local std::vector<std::pair<const MultibyteEntry*, std::unique_ptr<UConverter, ConverterCloser>>> open;
  for (auto& [known, converter] : open) {
    if (known == &entry) return converter.get();
  }
  UErrorCode status = U_ZERO_ERROR;
  std::unique_ptr<UConverter, ConverterCloser> converter(ucnv_open(entry.icu, &status));
  if (U_FAILURE(status)) throw Error(ExitCode::internal, std::string("ICU has no converter ") + entry.icu);
  ucnv_setToUCallBack(converter.get(), UCNV_TO_U_CALLBACK_STOP, nullptr, nullptr, nullptr, &status);
  open.emplace_back(&entry, std::move(converter));
  return open.back().second.get();
}

// Python's UTF-16/32 decoding (Objects/unicodeobject.c and encodings/utf_16.py,
// utf_32.py, as TextIOWrapper runs them over the whole stream): the BOM is
// looked for only at the start and only by "utf-16"/"utf-32"; an error stops
// decoding (SacreBLEU dies of it).
class UnitDecoder : public io::ByteSource {
 public:
  UnitDecoder(std::unique_ptr<io::ByteSource> inner, const ByteCodec& codec, std::string name, bool universal_newlines)
      : inner_(std::move(inner)),
        codec_name_(codec.name),
        name_(std::move(name)),
        width_(codec.unit == CodeUnit::utf16 ? 2 : 4),
        order_(codec.order),
        universal_newlines_(universal_newlines) {}

  std::size_t read(char* out, std::size_t size) override {
    while (out_pos_ == out_.size() && decode_some()) {
    }
    const std::size_t n = std::min(size, out_.size() - out_pos_);
    std::copy_n(out_.data() + out_pos_, n, out);
    out_pos_ += n;
    return n;
  }
  io::Compression compression() const override { return inner_->compression(); }

 private:
  static constexpr std::size_t kChunk = std::size_t{1} << 16;

  // Decodes the units of the next chunk into out_; false at the end of the data.
  bool decode_some() {
    out_.clear();
    out_pos_ = 0;
    fill();
    if (in_.empty()) return false;
    if (order_ == ByteOrder::from_bom) take_bom();
    // decode_*_unit is false on a surrogate pair split by the chunk's end.
    while (in_.size() - in_pos_ >= width_ && (width_ == 2 ? decode_utf16_unit() : decode_utf32_unit())) {
    }
    if (eof_ && in_pos_ < in_.size()) {
      fail(fmt::format("truncated data: the file ends {} byte(s) into a {}-byte unit", in_.size() - in_pos_, width_));
    }
    return true;
  }

  // Keeps the unread raw bytes and reads up to a chunk more.
  void fill() {
    in_.erase(0, in_pos_);
    in_pos_ = 0;
    while (!eof_ && in_.size() < kChunk) {
      const std::size_t old = in_.size();
      in_.resize(old + kChunk);
      const std::size_t got = inner_->read(in_.data() + old, kChunk);
      in_.resize(old + got);
      eof_ = got == 0;
    }
  }

  // "utf-16": FF FE little-endian, FE FF big-endian, dropped; "utf-32": FF FE 00 00 / 00 00 FE FF.
  // Without one Python's incremental decoder (what open() uses, unlike
  // bytes.decode, which reads little-endian) raises "UTF-16 stream does not
  // start with BOM" once a whole unit is there; a shorter file is truncated.
  void take_bom() {
    const std::string_view head(in_.data() + in_pos_, std::min<std::size_t>(in_.size() - in_pos_, width_));
    order_ = ByteOrder::little;
    if (head.size() < width_) return;
    if (width_ == 2 ? head == "\xFF\xFE" : head == std::string_view("\xFF\xFE\0\0", 4)) {
      advance(width_);
    } else if (width_ == 2 ? head == "\xFE\xFF" : head == std::string_view("\0\0\xFE\xFF", 4)) {
      order_ = ByteOrder::big;
      advance(width_);
    } else {
      fail(fmt::format("UTF-{} stream does not start with BOM", width_ * 8));
    }
  }

  std::uint32_t unit_at(std::size_t pos) const {
    std::uint32_t value = 0;
    for (std::size_t k = 0; k < width_; ++k) {
      const std::size_t byte = order_ == ByteOrder::big ? k : width_ - 1 - k;
      value = (value << 8) | static_cast<unsigned char>(in_[pos + byte]);
    }
    return value;
  }

  bool decode_utf16_unit() {
    const std::uint32_t unit = unit_at(in_pos_);
    if (unit >= 0xDC00 && unit <= 0xDFFF) fail(fmt::format("illegal encoding: low surrogate 0x{:04X} without a high one", unit));
    if (unit < 0xD800 || unit > 0xDFFF) {
      emit(unit, 2);
      return true;
    }
    if (in_.size() - in_pos_ < 4) {
      if (!eof_) return false;
      fail(fmt::format("unexpected end of data: high surrogate 0x{:04X} ends the file", unit));
    }
    const std::uint32_t low = unit_at(in_pos_ + 2);
    if (low < 0xDC00 || low > 0xDFFF) {
      fail(fmt::format("illegal UTF-16 surrogate: high surrogate 0x{:04X} without a low one", unit));
    }
    emit(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), 4);
    return true;
  }

  bool decode_utf32_unit() {
    const std::uint32_t unit = unit_at(in_pos_);
    if (unit > 0x10FFFF) fail(fmt::format("code point not in range(0x110000): 0x{:X}", unit));
    if (unit >= 0xD800 && unit <= 0xDFFF) {
      fail(fmt::format("code point in surrogate code point range(0xd800, 0xe000): 0x{:04X}", unit));
    }
    emit(unit, 4);
    return true;
  }

  // One decoded code point taking `bytes` raw bytes; keeps the line count for errors.
  void emit(char32_t c, std::size_t bytes) {
    utf8::append(out_, c);
    advance(bytes);
    if (c == U'\n') {
      if (!after_cr_) ++line_;
      line_start_ = offset_;
    } else if (c == U'\r' && universal_newlines_) {
      ++line_;
      line_start_ = offset_;
    }
    after_cr_ = c == U'\r' && universal_newlines_;
  }

  void advance(std::size_t bytes) {
    in_pos_ += bytes;
    offset_ += bytes;
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw input_error(fmt::format("{}:{}:byte {}: {} in {}", name_, line_, offset_ - line_start_ + 1, what, codec_name_));
  }

  std::unique_ptr<io::ByteSource> inner_;
  std::string codec_name_;
  std::string name_;
  std::size_t width_;  // bytes per unit
  ByteOrder order_;
  bool universal_newlines_;
  bool eof_ = false;
  std::string in_;  // raw bytes, unread from in_pos_
  std::size_t in_pos_ = 0;
  std::string out_;  // UTF-8, unread from out_pos_
  std::size_t out_pos_ = 0;
  std::size_t offset_ = 0;      // raw bytes consumed
  std::size_t line_ = 1;        // the line being decoded
  std::size_t line_start_ = 0;  // its first raw byte
  bool after_cr_ = false;       // universal newlines: an LF right after CR ends no line
};

}  // namespace

std::string normalize_python_encoding(std::string_view name) {
  std::string normalized;
  bool punctuation = false;
  for (const char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x80 && (std::isalnum(u) || c == '.')) {
      if (punctuation && !normalized.empty()) normalized += '_';
      normalized += static_cast<char>(std::tolower(u));
      punctuation = false;
    } else {
      punctuation = true;
    }
  }
  return normalized;
}

std::optional<ByteCodec> find_byte_codec(std::string_view name) {
  if (const UnitCodecEntry* unit = find_in(unit_codec_table(), name)) return ByteCodec{unit->name, {}, unit->unit, unit->order};
  if (const MultibyteEntry* multi = find_in(multibyte_codec_table(), name)) {
    return ByteCodec{multi->name, {}, CodeUnit::multibyte};
  }
  const CodecEntry* entry = find_in(codec_table(), name);
  if (entry == nullptr) return std::nullopt;
  return ByteCodec{entry->name, icu_table(*entry)};
}

std::vector<std::string> byte_codec_names() {
  std::vector<std::string> names;
  for (const auto& entry : codec_table()) names.emplace_back(entry.name);
  return names;
}

std::vector<std::string> unit_codec_names() {
  std::vector<std::string> names;
  for (const auto& entry : unit_codec_table()) names.emplace_back(entry.name);
  return names;
}

std::vector<std::string> multibyte_codec_names() {
  std::vector<std::string> names;
  for (const auto& entry : multibyte_codec_table()) names.emplace_back(entry.name);
  return names;
}

std::u32string decode_multibyte_line(const ByteCodec& codec, std::string_view bytes, const std::string& where) {
  const auto& table = multibyte_codec_table();
  const auto entry = std::find_if(table.begin(), table.end(), [&](const auto& e) { return codec.name == e.name; });
  if (entry == table.end()) throw Error(ExitCode::internal, "not a multi-byte codec: " + codec.name);
  UConverter* converter = multibyte_converter(*entry);
  ucnv_resetToUnicode(converter);
  std::u16string units(bytes.size() + 1, u'\0');  // one byte gives at most one UTF-16 unit, four at most two
  std::vector<int32_t> offsets(units.size());      // each unit's first byte in `bytes`
  UChar* const begin = reinterpret_cast<UChar*>(units.data());
  UChar* target = begin;
  const char* source = bytes.data();
  const auto illegal = [&](std::size_t offset, const char* reason) {
    return input_error(fmt::format("{}:byte {}: {} in {}", where, offset + 1, reason, codec.name));
  };
  for (;;) {
    UErrorCode status = U_ZERO_ERROR;
    UChar* const call_target = target;
    const auto call_source = static_cast<int32_t>(source - bytes.data());
    ucnv_toUnicode(converter, &target, begin + units.size(), &source, bytes.data() + bytes.size(),
                   offsets.data() + (call_target - begin), true, &status);
    for (auto* offset = offsets.data() + (call_target - begin); offset != offsets.data() + (target - begin); ++offset) {
      *offset += call_source;  // ICU counts from this call's source
    }
    if (U_SUCCESS(status)) break;
    char invalid[32];
    int8_t length = sizeof invalid;
    UErrorCode ignored = U_ZERO_ERROR;
    ucnv_getInvalidChars(converter, invalid, &length, &ignored);
    const auto python_only = std::find_if(entry->python_only_bytes.begin(), entry->python_only_bytes.end(),
                                          [&](const auto& known) { return length == 1 && known.first == static_cast<unsigned char>(invalid[0]); });
    const std::size_t offset = static_cast<std::size_t>(source - bytes.data()) - static_cast<std::size_t>(length);
    if (python_only != entry->python_only_bytes.end()) {  // a byte Python decodes: its code point, then go on
      offsets[static_cast<std::size_t>(target - begin)] = static_cast<int32_t>(offset);
      *target++ = static_cast<UChar>(python_only->second);
      ucnv_resetToUnicode(converter);
      continue;
    }
    // Python's reasons: a sequence cut by the line's end is "incomplete", others "illegal".
    throw illegal(offset, status == U_TRUNCATED_CHAR_FOUND ? "incomplete multibyte sequence" : "illegal multibyte sequence");
  }
  units.resize(static_cast<std::size_t>(target - begin));
  std::u32string out;
  out.reserve(units.size());
  for (std::size_t i = 0; i < units.size(); ++i) {
    const std::size_t offset = static_cast<std::size_t>(offsets[i]);
    char32_t c = units[i];
    if (c >= 0xD800 && c < 0xDC00 && i + 1 < units.size()) c = 0x10000 + ((c - 0xD800) << 10) + (units[++i] - 0xDC00);
    for (const auto& [first, last] : entry->python_refuses) {
      if (c >= first && c <= last) throw illegal(offset, "illegal multibyte sequence");
    }
    for (const auto& [icu, python] : entry->python_for_icu) {
      if (c == icu) {
        c = python;
        break;
      }
    }
    out.push_back(c);
  }
  return out;
}

std::unique_ptr<io::ByteSource> decode_units_to_utf8(std::unique_ptr<io::ByteSource> source, const ByteCodec& codec,
                                                     std::string name, bool universal_newlines) {
  return std::make_unique<UnitDecoder>(std::move(source), codec, std::move(name), universal_newlines);
}

}  // namespace evalcli
