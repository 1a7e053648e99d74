#pragma once
#include <string>

namespace evalcli {

// "0.1.0"
inline std::string evalcli_version() { return EVALCLI_VERSION; }
// The value of `version:` in signatures: "evalcli-0.1.0".
inline std::string evalcli_version_tag() { return std::string("evalcli-") + EVALCLI_VERSION; }

}  // namespace evalcli
