#pragma once
#include <string>

namespace evalcli::io {

// Reads a whole file (a JSON shard, report or caption file) into memory.
// A missing, unreadable or directory path, and a read that fails midway
// (EIO), are input errors naming the file: never a partial content.
std::string read_whole_file(const std::string& path);

}  // namespace evalcli::io
