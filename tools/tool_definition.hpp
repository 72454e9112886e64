// What one tool says about itself, in its own file: its name, its arguments struct and handler,
// and its traits (does it change files, which safety arguments it honours, what a result too
// large to send says instead, whether only the review view calls it, its one-line summary).
// tools/catalog.hpp lists the tools; everything else that names tools reads them from here.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/tool.hpp"

namespace tools {

struct ToolTraits {
    ToolKind kind = ToolKind::read_listing;
    // The safety arguments a tool that changes files honours, as the refusal of an unknown
    // argument whose name speaks of safety lists them ("`dry_run` (or `preview`), ..."); "" for
    // the others (an argument dropped there cannot cost a file).
    std::string_view safety_arguments;
    // One line for people (the .mcpb manifest, the README's table of tools): what the tool does.
    std::string_view summary;
};

// A tool bound by the type of its arguments: the call's JSON (validated against the schema
// first) is read into `Args` once, and the tool gets the struct.
template <class Args>
Handler typed_handler(asio::awaitable<ToolResult> (*tool)(CallContext&, Args)) {
    return [tool](CallContext& ctx, const Json& args) { return tool(ctx, args.get<Args>()); };
}

struct ToolSpec {
    std::string name;
    ToolTraits traits;
    Handler handler;
    // The arguments struct's fields: the registry requires them to be exactly the inputSchema's
    // top-level properties (a build defect otherwise, found by the first test run).
    std::vector<std::string> fields;
    // The schema's text (title, description, inputSchema, outputSchema, annotations); empty: the
    // file schemas/<name>.json embedded at build time.
    std::string schema;
};

// The spec of the tool `name` run by `tool`, whose struct's fields are read off a default `Args`.
template <class Args>
ToolSpec define_tool(std::string name, asio::awaitable<ToolResult> (*tool)(CallContext&, Args), ToolTraits traits) {
    ToolSpec spec;
    spec.name = std::move(name);
    spec.traits = traits;
    spec.handler = typed_handler(tool);
    const Json written = Args{};  // every field a struct writes, so every field it reads
    for (auto it = written.begin(); it != written.end(); ++it) spec.fields.push_back(it.key());
    return spec;
}

}  // namespace tools
