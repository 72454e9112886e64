// The tool registry: definitions from the embedded schemas (served verbatim, in the contract's
// order), the aliases agents send mapped to canonical names, arguments validated against the
// inputSchema before a handler runs, and the handler of each tool that works.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tools/tool.hpp"

namespace tools {

struct ToolDefinition;

class Registry {
public:
    // Loads every embedded schema that has a handler; throws std::runtime_error when a schema
    // file is malformed (a build defect, found by the first test run).
    Registry();
    ~Registry();
    Registry(const Registry&) = delete;
    Registry& operator=(const Registry&) = delete;

    // The `tools` array of tools/list: every tool that works, in the contract's order.
    const Json& list() const { return list_; }
    std::vector<std::string> names() const;

    // nullptr when no such tool.
    const ToolDefinition* find(std::string_view name) const;

    // Renames alias keys (`path`, `old_str`, ...) to the canonical names, in place.
    static void apply_aliases(Json& args);

    // nullopt when `args` conforms to the tool's inputSchema; otherwise a message for the model
    // naming the JSON pointer of each bad field and what the tool takes.
    std::optional<std::string> validate(const ToolDefinition& tool, const Json& args) const;

    const Handler& handler(const ToolDefinition& tool) const;

private:
    std::vector<std::unique_ptr<ToolDefinition>> tools_;
    Json list_;
};

// Each tool's handler, defined in tools/<tool>.cpp.
Handler read_handler();
Handler edit_handler();
Handler multiedit_handler();
Handler write_handler();
Handler insert_handler();
Handler apply_diff_handler();
Handler undo_handler();

}  // namespace tools
