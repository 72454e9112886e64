// The tool schema files (schemas/<tool>.json) as embedded into the binary at build time by
// cmake/GenerateSchemaTable.cmake: the text of each file, verbatim, keyed by tool name.
#pragma once

#include <string_view>
#include <vector>

namespace tools {

struct EmbeddedSchema {
    std::string_view name;
    std::string_view text;
};

const std::vector<EmbeddedSchema>& embedded_schemas();

}  // namespace tools
