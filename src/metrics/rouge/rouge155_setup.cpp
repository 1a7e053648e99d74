// ROUGE-1.5.5 evaluation setups: the XML settings file, -z file lists and the
// SEE/SPL/ISI summary readers (shared/specs/rouge.md 2.1; ROUGE-1.5.5.pl's
// readEvals, readFileList, readText).
//
// Why a hand-written XML reader: the settings format is five elements deep and
// ROUGE-1.5.5.pl only ever reads element names, two attributes (ID, TYPE) and
// the text of four leaf elements. A strict reader of exactly that subset is
// ~300 lines, needs no Debian XML package at build or run time, and can refuse
// everything it does not understand (DOCTYPE, CDATA, other elements) with the
// file and line, where a general parser would accept it and leave us to guess
// what XML::DOM + ROUGE-1.5.5.pl make of it.
#include "evalcli/metrics/rouge155_setup.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>

#include "evalcli/core/error.hpp"
#include "evalcli/text/utf8.hpp"

namespace evalcli {
namespace {

bool xml_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
// Perl's \s on byte strings.
bool perl_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

std::string upper(std::string s) {
  for (auto& c : s) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
  }
  return s;
}

// ROUGE trims names with s/^[\n\s]+// and s/[\n\s]+$//.
std::string perl_trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && perl_space(s[b])) ++b;
  while (e > b && perl_space(s[e - 1])) --e;
  return s.substr(b, e - b);
}

struct Attribute {
  std::string name, value;
};

struct Tag {
  std::string name;
  std::vector<Attribute> attributes;
  bool self_closing = false;
  std::size_t line = 0;
};

// A cursor over the settings text that knows its line, reads the few XML
// constructs the format uses and throws "name:line: ..." for anything else.
class XmlCursor {
 public:
  XmlCursor(std::string_view text, const std::string& name) : text_(text), name_(name) {}

  [[noreturn]] void fail(const std::string& what) const { fail_at(line_, what); }
  [[noreturn]] void fail_at(std::size_t line, const std::string& what) const {
    throw input_error(fmt::format("{}:{}: {}", name_, line, what));
  }
  std::size_t line() const { return line_; }
  bool at_end() const { return pos_ >= text_.size(); }
  bool starts(std::string_view s) const { return text_.substr(pos_, s.size()) == s; }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }
  char peek_at(std::size_t k) const { return pos_ + k < text_.size() ? text_[pos_ + k] : '\0'; }
  const std::string& source() const { return name_; }
  void advance(std::size_t n = 1) {
    for (std::size_t k = 0; k < n && pos_ < text_.size(); ++k, ++pos_) {
      // "\r\n" and a lone "\r" are one line end, as XML normalises them.
      if (text_[pos_] == '\n' || (text_[pos_] == '\r' && (pos_ + 1 >= text_.size() || text_[pos_ + 1] != '\n'))) {
        ++line_;
      }
    }
  }
  void expect(std::string_view s, const std::string& what) {
    if (!starts(s)) fail("expected " + what);
    advance(s.size());
  }
  void skip_space() {
    while (!at_end() && xml_space(peek())) advance();
  }

  // <!-- ... --> ("--" inside is not XML).
  void comment() {
    const std::size_t start = line_;
    advance(4);
    while (!starts("--")) {
      if (at_end()) fail_at(start, "comment not closed (missing -->)");
      advance();
    }
    if (!starts("-->")) fail("'--' inside a comment is not allowed in XML");
    advance(3);
  }

  // Space and comments between elements; non-space text is refused.
  void skip_misc(const std::string& context) {
    for (;;) {
      skip_space();
      if (starts("<!--")) {
        comment();
      } else if (!at_end() && peek() != '<') {
        fail(fmt::format("unexpected text '{}' in {}", snippet(), context));
      } else {
        return;
      }
    }
  }

  std::string name() {
    const std::size_t start = pos_;
    auto name_char = [](char c, bool first) {
      const auto u = static_cast<unsigned char>(c);
      return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == ':' || u >= 0x80 ||
             (!first && ((c >= '0' && c <= '9') || c == '-' || c == '.'));
    };
    while (!at_end() && name_char(peek(), pos_ == start)) advance();
    if (pos_ == start) fail("expected an element or attribute name");
    return std::string(text_.substr(start, pos_ - start));
  }

  // &lt; &gt; &amp; &quot; &apos; &#N; &#xN;
  void entity(std::string& out) {
    static const std::pair<std::string_view, char> named[] = {
        {"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&apos;", '\''}};
    for (const auto& [entity, c] : named) {
      if (starts(entity)) {
        out += c;
        advance(entity.size());
        return;
      }
    }
    if (starts("&#")) {
      advance(2);
      const bool hex = peek() == 'x';
      if (hex) advance();
      std::uint32_t cp = 0;
      std::size_t digits = 0;
      for (; !at_end() && peek() != ';'; advance(), ++digits) {
        const char c = peek();
        int d = -1;
        if (c >= '0' && c <= '9') d = c - '0';
        if (hex && c >= 'a' && c <= 'f') d = c - 'a' + 10;
        if (hex && c >= 'A' && c <= 'F') d = c - 'A' + 10;
        if (d < 0 || cp > 0x10FFFF) fail("malformed character reference");
        cp = cp * (hex ? 16 : 10) + static_cast<std::uint32_t>(d);
      }
      if (at_end() || digits == 0 || !allowed_char(cp)) fail("malformed character reference");
      advance();
      utf8::append(out, static_cast<char32_t>(cp));
      return;
    }
    const std::size_t end = text_.find(';', pos_);
    fail(fmt::format("unknown entity '{}' (only &lt; &gt; &amp; &quot; &apos; and &#N; are XML's own)",
                     text_.substr(pos_, end == std::string_view::npos || end - pos_ > 20 ? 1 : end - pos_ + 1)));
  }

  // <name attr="v" ...> or <name .../>; the cursor is on '<'.
  Tag start_tag() {
    Tag tag;
    tag.line = line_;
    advance();
    tag.name = name();
    for (;;) {
      const bool spaced = !at_end() && xml_space(peek());
      skip_space();
      if (starts("/>")) {
        advance(2);
        tag.self_closing = true;
        return tag;
      }
      if (starts(">")) {
        advance();
        return tag;
      }
      if (at_end()) fail_at(tag.line, fmt::format("<{}> is not closed", tag.name));
      if (!spaced) fail(fmt::format("expected a space, '>' or '/>' in <{}>", tag.name));
      Attribute attribute;
      attribute.name = name();
      for (const auto& a : tag.attributes) {
        if (a.name == attribute.name) fail(fmt::format("attribute {} given twice", attribute.name));
      }
      skip_space();
      expect("=", fmt::format("'=' after attribute {}", attribute.name));
      skip_space();
      const char quote = peek();
      if (quote != '"' && quote != '\'') fail(fmt::format("attribute {}: value must be quoted", attribute.name));
      advance();
      while (peek() != quote) {
        if (at_end()) fail_at(tag.line, fmt::format("attribute {}: value not closed", attribute.name));
        if (peek() == '<') fail(fmt::format("attribute {}: '<' is not allowed in a value", attribute.name));
        if (peek() == '&') {
          entity(attribute.value);
          continue;
        }
        // Attribute-value normalisation: each line end or tab is one space.
        if (starts("\r\n")) {
          attribute.value += ' ';
          advance(2);
          continue;
        }
        attribute.value += xml_space(peek()) ? ' ' : peek();
        advance();
      }
      advance();
      tag.attributes.push_back(std::move(attribute));
    }
  }

  // </name> matching `tag`.
  void end_tag(const Tag& tag) {
    const std::size_t line = line_;
    if (!starts("</")) fail(fmt::format("expected </{}>", tag.name));
    advance(2);
    const std::string closing = name();
    skip_space();
    expect(">", "'>'");
    if (closing != tag.name) {
      fail_at(line, fmt::format("</{}> does not close <{}> of line {}", closing, tag.name, tag.line));
    }
  }

  // Text content of a leaf element up to its end tag. XML::DOM makes one text
  // node per run between comments and ROUGE keeps the last one it sees.
  std::string leaf_text(const Tag& tag) {
    std::vector<std::string> nodes(1);
    while (!starts("</")) {
      if (at_end()) fail_at(tag.line, fmt::format("<{}> is not closed", tag.name));
      if (starts("<!--")) {
        comment();
        nodes.emplace_back();
      } else if (peek() == '<') {
        fail(fmt::format("<{}> holds text only, not '{}'", tag.name, snippet()));
      } else if (peek() == '&') {
        entity(nodes.back());
      } else if (starts("\r\n")) {
        nodes.back() += '\n';
        advance(2);
      } else {
        nodes.back() += peek() == '\r' ? '\n' : peek();
        advance();
      }
    }
    end_tag(tag);
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
      if (!it->empty()) return *it;
    }
    return {};
  }

  std::string snippet() const {
    std::string s(text_.substr(pos_, 20));
    const auto nl = s.find_first_of("\r\n");
    return nl == std::string::npos ? s : s.substr(0, nl);
  }

 private:
  static bool allowed_char(std::uint32_t cp) {
    return cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) || (cp >= 0xE000 && cp <= 0xFFFD) ||
           (cp >= 0x10000 && cp <= 0x10FFFF);
  }

  std::string_view text_;
  const std::string& name_;
  std::size_t pos_ = 0;
  std::size_t line_ = 1;
};

bool name_is(const std::string& name, std::string_view wanted) {
  // ROUGE matches element names with /^NAME$/i.
  return upper(name) == wanted;
}

// The value of the one attribute an element must have (exact name, as
// XML::DOM's getAttributeNode("ID") looks it up); others are refused.
std::string only_attribute(XmlCursor& xml, const Tag& tag, const std::string& attribute) {
  std::optional<std::string> value;
  for (const auto& a : tag.attributes) {
    if (a.name == attribute) {
      value = a.value;
    } else {
      xml.fail_at(tag.line, fmt::format("<{}>: unknown attribute {} (ROUGE-1.5.5 reads only {}=\"...\")", tag.name,
                                        a.name, attribute));
    }
  }
  if (!value) xml.fail_at(tag.line, fmt::format("<{}> needs its {}=\"...\" attribute", tag.name, attribute));
  return *value;
}

void no_attributes(XmlCursor& xml, const Tag& tag) {
  if (!tag.attributes.empty()) {
    xml.fail_at(tag.line, fmt::format("<{}>: unknown attribute {}", tag.name, tag.attributes.front().name));
  }
}

// Checks the whole text is valid UTF-8 without XML-forbidden control characters.
void check_characters(std::string_view xml, const std::string& name) {
  std::u32string decoded;
  const std::size_t bad = utf8::decode(xml, decoded);
  if (bad != utf8::npos) {
    const auto line = 1 + std::count(xml.begin(), xml.begin() + static_cast<std::ptrdiff_t>(bad), '\n');
    const auto line_start = xml.rfind('\n', bad == 0 ? 0 : bad - 1);
    const std::size_t column = line_start == std::string_view::npos || bad == 0 ? bad + 1 : bad - line_start;
    throw input_error(fmt::format("{}:{}:byte {}: invalid UTF-8 (byte 0x{:02X})", name, line, column,
                                  static_cast<unsigned char>(xml[bad])));
  }
  std::size_t line = 1;
  for (char32_t c : decoded) {
    if (c == '\n') ++line;
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
      throw input_error(fmt::format("{}:{}: control character U+{:04X} is not allowed in XML", name, line,
                                    static_cast<std::uint32_t>(c)));
    }
  }
}

// <?xml version="1.0" encoding="UTF-8"?>: only UTF-8 (or its ASCII subset).
void xml_declaration(XmlCursor& xml) {
  if (!xml.starts("<?xml") || !xml_space(xml.peek_at(5))) return;
  const std::size_t line = xml.line();
  xml.advance(5);
  for (;;) {
    xml.skip_space();
    if (xml.starts("?>")) {
      xml.advance(2);
      return;
    }
    if (xml.at_end()) xml.fail_at(line, "<?xml ...?> is not closed");
    const std::string attribute = xml.name();
    xml.skip_space();
    xml.expect("=", "'='");
    xml.skip_space();
    const char quote = xml.peek();
    if (quote != '"' && quote != '\'') xml.fail("<?xml ...?>: value must be quoted");
    xml.advance();
    std::string value;
    while (!xml.at_end() && xml.peek() != quote) {
      value += xml.peek();
      xml.advance();
    }
    xml.advance();
    if (attribute == "encoding") {
      const std::string e = upper(value);
      if (e != "UTF-8" && e != "UTF8" && e != "US-ASCII" && e != "ASCII") {
        xml.fail_at(line, fmt::format("encoding {} is not supported: save the settings file as UTF-8", value));
      }
    } else if (attribute != "version" && attribute != "standalone") {
      xml.fail_at(line, fmt::format("<?xml ...?>: unknown attribute {}", attribute));
    }
  }
}

// Misc before or after the root: space and comments; DOCTYPE, processing
// instructions and CDATA are refused.
void prolog_misc(XmlCursor& xml, const char* where) {
  for (;;) {
    xml.skip_space();
    if (xml.starts("<!--")) {
      xml.comment();
    } else if (xml.starts("<!DOCTYPE")) {
      xml.fail("<!DOCTYPE ...> is not supported in a ROUGE settings file");
    } else if (xml.starts("<?")) {
      xml.fail("processing instructions (<?...?>) are not supported in a ROUGE settings file");
    } else if (!xml.at_end() && xml.peek() != '<') {
      xml.fail(fmt::format("unexpected text '{}' {} the root element", xml.snippet(), where));
    } else {
      return;
    }
  }
}

void refuse_special(XmlCursor& xml) {
  if (xml.starts("<![CDATA[")) xml.fail("CDATA sections are not supported in a ROUGE settings file");
  if (xml.starts("<!")) xml.fail("<!...> declarations are not supported in a ROUGE settings file");
  if (xml.starts("<?")) xml.fail("processing instructions (<?...?>) are not supported in a ROUGE settings file");
}

// The next child element of `parent` (comments and white space skipped), or
// nothing at `parent`'s end tag; a missing end tag is an error at `parent`.
std::optional<Tag> next_child(XmlCursor& xml, const Tag& parent) {
  xml.skip_misc(fmt::format("<{}>", parent.name));
  refuse_special(xml);
  if (xml.starts("</")) return std::nullopt;
  if (xml.at_end()) xml.fail_at(parent.line, fmt::format("<{}> is not closed", parent.name));
  return xml.start_tag();
}

// <PEERS> or <MODELS>: a list of <P ID="..">file</P> (or M).
void file_list(XmlCursor& xml, const Tag& list, std::string_view item, std::vector<Rouge155SetupFile>& files,
               const std::string& eval_id) {
  no_attributes(xml, list);
  if (list.self_closing) return;
  while (const std::optional<Tag> next = next_child(xml, list)) {
    const Tag& tag = *next;
    if (!name_is(tag.name, item)) {
      xml.fail_at(tag.line, fmt::format("unexpected element <{}> in <{}> (only <{}> elements)", tag.name, list.name, item));
    }
    Rouge155SetupFile file;
    file.id = only_attribute(xml, tag, "ID");
    file.line = tag.line;
    const std::string text = tag.self_closing ? std::string() : xml.leaf_text(tag);
    const std::string trimmed = perl_trim(text);
    if (trimmed.empty()) xml.fail_at(tag.line, fmt::format("<{} ID=\"{}\"> names no file", tag.name, file.id));
    for (const auto& other : files) {
      if (other.id == file.id) {
        xml.fail_at(tag.line, fmt::format("EVAL {}: {} ID \"{}\" given twice (line {})", eval_id, item, file.id,
                                          other.line));
      }
    }
    // ROUGE-1.5.5 opens "$root/$file" (an absent root is empty); the root is
    // put in front when the EVAL is complete.
    file.path = "/" + trimmed;
    files.push_back(std::move(file));
  }
  xml.end_tag(list);
}

Rouge155Eval eval_element(XmlCursor& xml, const Tag& tag) {
  Rouge155Eval eval;
  eval.id = only_attribute(xml, tag, "ID");
  eval.line = tag.line;
  std::string peer_root, model_root;
  std::optional<std::size_t> format_line, peer_root_line, model_root_line, peers_line, models_line;
  // File names are resolved against the roots once the EVAL is complete
  // (ROUGE joins them when it scores, so the roots may come after the lists).
  std::vector<Rouge155SetupFile> peers, models;
  auto once = [&](std::optional<std::size_t>& seen, const Tag& child) {
    if (seen) xml.fail_at(child.line, fmt::format("<{}> given twice in EVAL {} (line {})", child.name, eval.id, *seen));
    seen = child.line;
  };
  if (tag.self_closing) xml.fail_at(tag.line, fmt::format("EVAL {} is empty", eval.id));
  while (const std::optional<Tag> next = next_child(xml, tag)) {
    const Tag& child = *next;
    const std::string kind = upper(child.name);
    if (kind == "PEER-ROOT" || kind == "MODEL-ROOT") {
      once(kind == "PEER-ROOT" ? peer_root_line : model_root_line, child);
      no_attributes(xml, child);
      const std::string text = child.self_closing ? std::string() : xml.leaf_text(child);
      (kind == "PEER-ROOT" ? peer_root : model_root) = perl_trim(text);
    } else if (kind == "INPUT-FORMAT") {
      once(format_line, child);
      eval.format = rouge155_input_format(only_attribute(xml, child, "TYPE"),
                                          fmt::format("{}:{}", xml.source(), child.line));
      if (!child.self_closing) {
        xml.skip_misc(fmt::format("<{}>", child.name));
        xml.end_tag(child);
      }
    } else if (kind == "PEERS") {
      once(peers_line, child);
      file_list(xml, child, "P", peers, eval.id);
    } else if (kind == "MODELS") {
      once(models_line, child);
      file_list(xml, child, "M", models, eval.id);
    } else {
      xml.fail_at(child.line, fmt::format("unexpected element <{}> in EVAL {} (ROUGE reads PEER-ROOT, MODEL-ROOT, "
                                          "INPUT-FORMAT, PEERS and MODELS)",
                                          child.name, eval.id));
    }
  }
  xml.end_tag(tag);
  if (!format_line) xml.fail_at(tag.line, fmt::format("EVAL {} has no <INPUT-FORMAT TYPE=\"...\">", eval.id));
  if (models.empty()) xml.fail_at(tag.line, fmt::format("EVAL {} has no model (<MODELS><M ID=\"A\">file</M>)", eval.id));
  for (auto& p : peers) p.path = peer_root + p.path;
  for (auto& m : models) m.path = model_root + m.path;
  eval.peers = std::move(peers);
  eval.models = std::move(models);
  return eval;
}

}  // namespace

std::string rouge155_input_format(const std::string& type, const std::string& where) {
  const std::string u = upper(type);
  if (u == "SEE" || u == "SPL" || u == "ISI") return u;
  if (u == "SIMPLE") {
    throw input_error(fmt::format("{}: input format SIMPLE is ROUGE's Basic Element format (-3), which evalcli does "
                                  "not support; use SEE, SPL or ISI",
                                  where));
  }
  throw input_error(fmt::format("{}: unknown input format '{}' (ROUGE-1.5.5 reads SEE, SPL, ISI)", where, type));
}

Rouge155Setup parse_rouge155_settings(std::string_view text, const std::string& name) {
  check_characters(text, name);
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  XmlCursor xml(text, name);
  xml_declaration(xml);
  prolog_misc(xml, "before");
  if (xml.at_end()) xml.fail("no <ROUGE-EVAL> element");
  refuse_special(xml);
  const Tag root = xml.start_tag();
  if (!name_is(root.name, "ROUGE-EVAL") && !name_is(root.name, "ROUGE_EVAL")) {
    xml.fail_at(root.line, fmt::format("the root element must be <ROUGE-EVAL>, not <{}>", root.name));
  }
  for (const auto& a : root.attributes) {
    if (a.name != "version") xml.fail_at(root.line, fmt::format("<{}>: unknown attribute {}", root.name, a.name));
  }
  Rouge155Setup setup;
  setup.source = name;
  std::map<std::string, std::size_t> eval_lines;
  if (!root.self_closing) {
    while (const std::optional<Tag> next = next_child(xml, root)) {
      const Tag& tag = *next;
      if (!name_is(tag.name, "EVAL")) {
        xml.fail_at(tag.line, fmt::format("unexpected element <{}> in <{}> (only <EVAL> elements)", tag.name, root.name));
      }
      Rouge155Eval eval = eval_element(xml, tag);
      const auto [it, inserted] = eval_lines.emplace(eval.id, eval.line);
      if (!inserted) xml.fail_at(eval.line, fmt::format("EVAL ID \"{}\" given twice (line {})", eval.id, it->second));
      setup.evals.push_back(std::move(eval));
    }
    xml.end_tag(root);
  }
  prolog_misc(xml, "after");
  if (!xml.at_end()) xml.fail("only one root element is allowed");
  if (setup.evals.empty()) xml.fail_at(root.line, "no <EVAL> in the settings file");
  return setup;
}

Rouge155Setup parse_rouge155_file_list(std::string_view text, const std::string& name, const std::string& format,
                                       const std::string& peer_id) {
  Rouge155Setup setup;
  setup.source = name;
  const std::string checked_format = rouge155_input_format(format, "--rouge155-flags -z");
  std::size_t line_number = 0, start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string line(text.substr(start, end - start));
    start = end + 1;
    ++line_number;
    // readFileList: '#' lines and blank lines are skipped.
    if (!line.empty() && line[0] == '#') continue;
    std::vector<std::string> fields;
    std::size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && perl_space(line[i])) ++i;
      std::size_t j = i;
      while (j < line.size() && !perl_space(line[j])) ++j;
      if (j > i) fields.push_back(line.substr(i, j - i));
      i = j;
    }
    if (fields.empty()) continue;
    if (fields.size() < 2) {
      throw input_error(fmt::format("{}:{}: a file-list line needs a peer and at least one model: peer model1 ... "
                                    "modelN",
                                    name, line_number));
    }
    Rouge155Eval eval;
    eval.id = std::to_string(setup.evals.size() + 1);
    eval.line = line_number;
    eval.format = checked_format;
    eval.peers.push_back({peer_id, fields[0], line_number});
    for (std::size_t m = 1; m < fields.size(); ++m) {
      eval.models.push_back({fmt::format("M.{}", m), fields[m], line_number});
    }
    setup.evals.push_back(std::move(eval));
  }
  if (setup.evals.empty()) throw input_error(fmt::format("{}: the file list names no files", name));
  return setup;
}

namespace {

// A tiny matcher for ROUGE's SEE and ISI line regexes.
struct LineMatcher {
  std::string_view s;
  std::size_t i = 0;
  std::size_t start = 0;  // where the last until_lt() capture began
  bool lit(std::string_view t) {
    if (s.substr(i, t.size()) != t) return false;
    i += t.size();
    return true;
  }
  bool digits() {
    const std::size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i > start;
  }
  bool spaces() {
    const std::size_t start = i;
    while (i < s.size() && perl_space(s[i])) ++i;
    return i > start;
  }
  // ([^<]+)
  std::optional<std::string> until_lt() {
    start = i;
    while (i < s.size() && s[i] != '<') ++i;
    if (i == start) return std::nullopt;
    return std::string(s.substr(start, i - start));
  }
};

using Capture = std::optional<std::pair<std::string, std::size_t>>;  // text, offset

// ^<a size="N" name="N">[N]</a>\s+<a href="#N" id=N>([^<]+)  (size= optional)
Capture see_sentence(std::string_view line, bool with_size) {
  LineMatcher m{line};
  if (!m.lit("<a ")) return std::nullopt;
  if (with_size && !(m.lit("size=\"") && m.digits() && m.lit("\" "))) return std::nullopt;
  if (!(m.lit("name=\"") && m.digits() && m.lit("\">[") && m.digits() && m.lit("]</a>") && m.spaces() &&
        m.lit("<a href=\"#") && m.digits() && m.lit("\" id=") && m.digits() && m.lit(">"))) {
    return std::nullopt;
  }
  auto text = m.until_lt();
  if (!text) return std::nullopt;
  return std::pair{std::move(*text), m.start};
}

// ^<S SNTNO="[0-9a-z,]+">([^<]+)</S>
Capture isi_sentence(std::string_view line) {
  LineMatcher m{line};
  if (!m.lit("<S SNTNO=\"")) return std::nullopt;
  const std::size_t start = m.i;
  while (m.i < line.size() && ((line[m.i] >= '0' && line[m.i] <= '9') || (line[m.i] >= 'a' && line[m.i] <= 'z') ||
                               line[m.i] == ',')) {
    ++m.i;
  }
  if (m.i == start || !m.lit("\">")) return std::nullopt;
  auto text = m.until_lt();
  if (!text || !m.lit("</S>")) return std::nullopt;
  return std::pair{std::move(*text), m.start};
}

}  // namespace

std::vector<Rouge155Sentence> read_rouge155_sentences(std::string_view content, const std::string& format) {
  std::vector<Rouge155Sentence> sentences;
  std::size_t start = 0, line_number = 0;
  while (start < content.size()) {
    // Perl's <TEXT>: a line keeps its "\n".
    auto end = content.find('\n', start);
    end = end == std::string_view::npos ? content.size() : end + 1;
    const std::string_view line = content.substr(start, end - start);
    start = end;
    ++line_number;
    Capture text;
    if (format == "SPL") {
      // chomp; lines of length 0 are skipped (a line of spaces is kept).
      const std::string_view chomped = line.back() == '\n' ? line.substr(0, line.size() - 1) : line;
      if (!chomped.empty()) text = std::pair{std::string(chomped), std::size_t{0}};
    } else if (format == "SEE") {
      text = see_sentence(line, true);
      if (!text) text = see_sentence(line, false);
    } else {
      text = isi_sentence(line);
    }
    if (text) sentences.push_back({std::move(text->first), line_number, text->second});
  }
  return sentences;
}

bool rouge155_eval_key_before(const std::string& a, const std::string& b) {
  auto leading_digits = [](const std::string& s) {
    std::size_t n = 0;
    while (n < s.size() && s[n] >= '0' && s[n] <= '9') ++n;
    std::size_t zeros = 0;
    while (zeros + 1 < n && s[zeros] == '0') ++zeros;
    return std::pair<std::size_t, std::string_view>{n, std::string_view(s).substr(zeros, n - zeros)};
  };
  const auto [na, da] = leading_digits(a);
  const auto [nb, db] = leading_digits(b);
  if (na > 0 && nb > 0 && da != db) {
    // Numeric comparison of the digit runs (no leading zeros): longer is larger.
    if (da.size() != db.size()) return da.size() < db.size();
    return da < db;
  }
  // Perl's sort keeps equal numbers in hash order (which varies between runs);
  // evalcli orders them as strings.
  return a < b;
}

}  // namespace evalcli
