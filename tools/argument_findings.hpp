// What valijson finds wrong with a tool's arguments, as findings for the model ("at /offset:
// expected integer, got string \"ten\""); the registry turns them into its invalid-arguments message.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <valijson/schema.hpp>

namespace tools {

// Empty when `args` conform to `schema` (compiled from `schema_json`); else in plain words for the
// top-level arguments, or at most eight of the validator's own findings.
std::vector<std::string> argument_findings(const valijson::Schema& schema, const nlohmann::json& schema_json,
                                           const nlohmann::json& args);

}  // namespace tools
