// The tool registry: definitions from the embedded schemas (served verbatim, in the contract's
// order), the aliases agents send mapped to canonical names, arguments a tool does not take set
// aside (or, when they look misspelt, refused with the right name), arguments validated against
// the inputSchema before a handler runs, and the handler of each tool that works.
#pragma once

#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "tools/tool.hpp"
#include "tools/tool_definition.hpp"

namespace tools {

struct ToolDefinition;

// What became of the top-level arguments a tool does not take: host bookkeeping (Gemini CLI adds
// `wait_for_previous` to every call) is dropped so the call goes on; a likely misspelling of one
// of the tool's own arguments (`replaceAll`, `old_strng`) fails the call, naming the right one;
// so does, on a tool that changes files, a name that speaks of safety (dry, preview, expect, only,
// overwrite, clobber, confirm, force, check, verify), naming the safety arguments it honours.
struct UnknownArguments {
    std::vector<std::string> ignored;  // removed from the arguments, in the order seen
    std::string note;  // for the result: "Ignored arguments this tool does not take: ..." ("" when none)
};

class Registry {
public:
    // Loads every embedded schema that has a handler on a thread of its own (parsing them and
    // compiling their validators is most of a cold start's work, and `initialize` needs none of
    // it), from start_loading() on: the server calls it once its first reply is written, so that
    // the load does not take the core the start is answering on; list, names, find and ready
    // start it themselves when nothing has yet. A malformed schema file (a build defect, found by
    // the first test run) makes ready(), and so each of those, throw std::runtime_error; the
    // loading thread hands it to `on_broken` first, when given.
    using OnBroken = std::function<void(const std::exception&)>;
    // Serves the tools of tools/catalog.hpp.
    explicit Registry(OnBroken on_broken = nullptr);
    // Serves `tools`, in this order (they outlive the registry).
    explicit Registry(std::vector<const ToolSpec*> tools, OnBroken on_broken = nullptr);
    ~Registry();  // waits for the loading thread, if it was started
    // Starts the loading thread, unless it was started already. Any thread.
    void start_loading() const;
    // Waits until the schemas are loaded (starting the load if need be); rethrows what stopped it.
    void ready() const {
        start_loading();
        loaded_.get();
    }
    Registry(const Registry&) = delete;
    Registry& operator=(const Registry&) = delete;

    // The `tools` array of tools/list: every tool that works, in the contract's order.
    const Json& list() const {
        ready();
        return list_;
    }
    std::vector<std::string> names() const;

    // nullptr when no such tool.
    const ToolDefinition* find(std::string_view name) const;

    // Renames alias keys (`path`, `old_str`, ...) to the canonical names, in place.
    // An alias that is an argument of `tool` itself (list's `path`) is left as it is.
    static void apply_aliases(Json& args, const ToolDefinition* tool = nullptr);

    // Sets aside the top-level arguments `tool` does not take (see UnknownArguments), at most
    // `max_unknown_arguments` of them; more than that is an error. Call after apply_aliases and
    // before validate.
    static constexpr std::size_t max_unknown_arguments = 32;
    // A failure (reason invalid_arguments) carries the message for the model.
    base::Result<UnknownArguments> set_aside_unknown_arguments(const ToolDefinition& tool, Json& args) const;

    // The canonical argument of `tool` that `unknown` most likely stands for: the same name but
    // for case, `_` and `-`, or a few letters apart, from one of the tool's arguments or of their
    // aliases. nullopt when it looks like nothing the tool takes.
    static std::optional<std::string> likely_meant(const ToolDefinition& tool, std::string_view unknown);

    // Arguments sent as a JSON string where the tool's inputSchema asks for an array or an object
    // (Claude Code sends multiedit's `edits` and read's `file_paths` so): replaced, in place, by
    // the value the string holds when it is of that type. Returns the note for the result ("" when
    // none was); a string that holds anything else is left for validate to refuse.
    std::string decode_stringified_arguments(const ToolDefinition& tool, Json& args) const;

    // nullopt when `args` conforms to the tool's inputSchema; otherwise a message for the model
    // naming the JSON pointer of each bad field and what the tool takes.
    base::Result<void> validate(const ToolDefinition& tool, const Json& args) const;

    const Handler& handler(const ToolDefinition& tool) const;
    // What the tool says about itself.
    static const ToolSpec& spec(const ToolDefinition& tool);
    // Every tool's spec, in the order of list().
    const std::vector<const ToolSpec*>& specs() const { return specs_; }

    // "" when the top-level properties of `input_schema` are exactly `fields` (an arguments
    // struct's); else what differs, naming each side's extra names.
    static std::string fields_mismatch(const Json& input_schema, const std::vector<std::string>& fields);

private:
    // Serves `spec` (its schema is spec.schema, or schemas/<name>.json), whose arguments struct
    // must have exactly the schema's properties as fields (else std::runtime_error: a build defect).
    void add(const ToolSpec& spec) const;
    void load() const;  // every tool's registration (on the loading thread)

    // Written by the loading thread only (mutable: a const registry starts it too), read only
    // after loaded_ is ready.
    std::vector<const ToolSpec*> specs_;
    mutable std::vector<std::unique_ptr<ToolDefinition>> tools_;
    mutable Json list_;
    OnBroken on_broken_;
    mutable std::once_flag loading_started_;
    mutable std::shared_future<void> loaded_;  // set once, under loading_started_
};

}  // namespace tools
