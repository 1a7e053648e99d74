#include "evalcli/io/caption_inputs.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <unordered_map>
#include <unordered_set>

#include "evalcli/core/error.hpp"
#include "evalcli/io/line_reader.hpp"
#include "evalcli/io/read_file.hpp"
#include "evalcli/text/utf8.hpp"

namespace evalcli::io {

std::size_t CaptionSet::uniform_refs() const {
  if (items.empty()) return 0;
  const std::size_t first = items.front().refs.size();
  for (const auto& item : items) {
    if (item.refs.size() != first) return 0;
  }
  return first;
}

void check_every_item_has_references(const CaptionSet& set, const std::string& source) {
  for (std::size_t i = 0; i < set.items.size(); ++i) {
    if (set.items[i].refs.empty()) {
      throw input_error(fmt::format("{}: item {} (id {}) has no references; CIDEr needs at least one", source,
                                    i + 1, set.items[i].id));
    }
  }
}

CaptionSet read_plain_captions(const CorpusSpec& spec) {
  ParallelReader reader(spec);
  CaptionSet set;
  set.system_names = reader.system_names();
  std::vector<std::u32string> hyps, refs;
  while (reader.next(hyps, refs)) {
    CaptionItem item;
    item.id = std::to_string(reader.segments_read());
    item.refs = std::move(refs);  // the reader refills moved-from vectors
    item.hyps = std::move(hyps);
    set.items.push_back(std::move(item));
  }
  if (set.items.empty()) {
    throw input_error(fmt::format("{}: empty input: no hypothesis lines",
                                  spec.hyp_paths.empty() ? "<stdin>" : spec.hyp_paths[0]));
  }
  return set;
}

namespace {

std::u32string caption_text(const nlohmann::json& value, const std::string& where) {
  if (!value.is_string()) throw input_error(fmt::format("{}: caption must be a string", where));
  return utf8::decode_or_throw(value.get_ref<const std::string&>(), where);
}

nlohmann::json parse_json(std::string_view text, const std::string& where) {
  // nlohmann::json reads a NUL as the end of the text: what follows it would be ignored.
  if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
    throw input_error(fmt::format("{}: invalid JSON: NUL byte at byte {}", where, nul + 1));
  }
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {  // parse_error, or out_of_range: a number beyond double
    throw input_error(fmt::format("{}: invalid JSON: {}", where, e.what()));
  }
}

}  // namespace

CaptionSet read_jsonl_captions(const std::string& path, const std::vector<std::string>& hyp_paths) {
  for (const auto& hyp_path : hyp_paths) check_readable_file(hyp_path);
  LineReader reader(path);
  CaptionSet set;
  std::string line;
  while (reader.next_bytes(line)) {
    const std::string where = fmt::format("{}:{}", path, reader.line_number());
    if (line.find_first_not_of(" \t\r") == std::string::npos) {
      throw input_error(fmt::format("{}: empty line (one JSON object per line expected)", where));
    }
    const nlohmann::json object = parse_json(line, where);
    if (!object.is_object()) throw input_error(fmt::format("{}: expected a JSON object", where));
    CaptionItem item;
    item.id = object.contains("id") ? object["id"].dump() : std::to_string(reader.line_number());
    if (!object.contains("refs") || !object["refs"].is_array()) {
      throw input_error(fmt::format("{}: missing \"refs\" array", where));
    }
    for (const auto& ref : object["refs"]) item.refs.push_back(caption_text(ref, where + ": refs"));
    if (item.refs.empty()) throw input_error(fmt::format("{}: item {} has no references", where, item.id));
    if (hyp_paths.empty()) {
      if (!object.contains("hyp")) {
        throw input_error(fmt::format("{}: missing \"hyp\" (or give hypothesis files with -i)", where));
      }
      item.hyps.push_back(caption_text(object["hyp"], where + ": hyp"));
    }
    set.items.push_back(std::move(item));
  }
  if (set.items.empty()) throw input_error(fmt::format("{}: empty input: no items", path));
  if (hyp_paths.empty()) {
    set.system_names.push_back(path);
    return set;
  }
  for (const auto& hyp_path : hyp_paths) {
    set.system_names.push_back(hyp_path);
    LineReader hyps(hyp_path);
    std::u32string hyp;
    std::size_t count = 0;
    while (hyps.next(hyp)) {
      if (count < set.items.size()) set.items[count].hyps.push_back(hyp);
      ++count;
    }
    if (count != set.items.size()) {
      throw input_error(fmt::format("line counts differ: {} has {} line{}, {} has {} item{}", hyp_path, count,
                                    count == 1 ? "" : "s", path, set.items.size(), set.items.size() == 1 ? "" : "s"));
    }
  }
  return set;
}

CaptionSet read_coco_captions(const std::string& annotations_path, const std::string& results_path) {
  const nlohmann::json annotations = parse_json(read_whole_file(annotations_path), annotations_path);
  const nlohmann::json results = parse_json(read_whole_file(results_path), results_path);
  if (!annotations.is_object() || !annotations.contains("annotations") || !annotations["annotations"].is_array()) {
    throw input_error(fmt::format("{}: not a COCO captions file (no \"annotations\" array)", annotations_path));
  }
  if (!results.is_array()) throw input_error(fmt::format("{}: a COCO results file is a JSON array", results_path));

  // Image order: the annotation file's "images" list, else first appearance in "annotations".
  std::vector<std::string> image_order;
  std::unordered_map<std::string, std::size_t> image_index;
  auto add_image = [&](const std::string& key) {
    if (image_index.emplace(key, image_order.size()).second) image_order.push_back(key);
  };
  if (annotations.contains("images") && annotations["images"].is_array()) {
    for (std::size_t i = 0; i < annotations["images"].size(); ++i) {
      const auto& image = annotations["images"][i];
      if (!image.is_object() || !image.contains("id")) {
        throw input_error(fmt::format("{}: images[{}]: missing \"id\"", annotations_path, i));
      }
      add_image(image["id"].dump());
    }
  }
  std::vector<std::vector<std::u32string>> refs_by_image(image_order.size());
  const auto& anns = annotations["annotations"];
  for (std::size_t i = 0; i < anns.size(); ++i) {
    const std::string where = fmt::format("{}: annotations[{}]", annotations_path, i);
    if (!anns[i].is_object() || !anns[i].contains("image_id") || !anns[i].contains("caption")) {
      throw input_error(fmt::format("{}: needs \"image_id\" and \"caption\"", where));
    }
    const std::string key = anns[i]["image_id"].dump();
    add_image(key);
    if (refs_by_image.size() < image_order.size()) refs_by_image.resize(image_order.size());
    refs_by_image[image_index[key]].push_back(caption_text(anns[i]["caption"], where));
  }

  std::unordered_map<std::string, std::u32string> hyp_by_image;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const std::string where = fmt::format("{}: [{}]", results_path, i);
    if (!results[i].is_object() || !results[i].contains("image_id") || !results[i].contains("caption")) {
      throw input_error(fmt::format("{}: needs \"image_id\" and \"caption\"", where));
    }
    const std::string key = results[i]["image_id"].dump();
    if (!image_index.count(key)) {
      throw input_error(fmt::format("{}: image_id {} is not in {}", where, key, annotations_path));
    }
    if (!hyp_by_image.emplace(key, caption_text(results[i]["caption"], where)).second) {
      throw input_error(fmt::format("{}: a second result for image_id {} (CIDEr takes exactly one)", where, key));
    }
  }
  if (hyp_by_image.empty()) throw input_error(fmt::format("{}: empty input: no results", results_path));

  CaptionSet set;
  set.system_names.push_back(results_path);
  for (std::size_t i = 0; i < image_order.size(); ++i) {
    auto it = hyp_by_image.find(image_order[i]);
    if (it == hyp_by_image.end()) continue;
    if (refs_by_image[i].empty()) {
      throw input_error(fmt::format("{}: image_id {} has a result but no reference caption in {}", results_path,
                                    image_order[i], annotations_path));
    }
    set.items.push_back(CaptionItem{image_order[i], refs_by_image[i], {it->second}});
  }
  return set;
}

}  // namespace evalcli::io
