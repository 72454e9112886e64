// Workbench: a call resolved (shape, aliases), checked (unknown arguments, schema), given its
// CallContext from the ledger it owns and its scope, and run; the resources' view of the ledger.
#include "tools/workbench.hpp"

#include <algorithm>
#include <exception>
#include <utility>

#include "base/log.hpp"
#include "tools/pipeline/change.hpp"

namespace tools {

base::Result<PreparedCall, std::string> prepare_call(const Registry& registry, std::string name, Json args) {
    PreparedCall call;
    call.name = std::move(name);
    call.tool = registry.find(call.name);
    if (!call.tool) {
        std::string available;
        for (const auto& n : registry.names()) available += (available.empty() ? "" : ", ") + n;
        return base::fail("Unknown tool: " + call.name + ". Available tools: " + available);
    }
    call.args = std::move(args);
    // Other agents' call shapes (Anthropic's `command`, pi's and Kimi's edit lists, Roo's XML) may
    // name another of our tools: the call is served, and its permissions asked, as that tool.
    auto shape = map_call_shape(call.name, call.args);
    if (!shape) {
        call.unmappable = std::move(shape).error();
        return call;
    }
    call.shape = std::move(shape).value();
    if (const ToolDefinition* mapped = registry.find(call.shape.tool); mapped && mapped != call.tool) {
        call.tool = mapped;
        call.name = call.shape.tool;
    }
    if (changes_files(Registry::spec(*call.tool).traits.kind))
        if (auto safety = map_safety_names(call.args, call.shape); !safety) {
            call.unmappable = std::move(safety).error();
            return call;
        }
    Registry::apply_aliases(call.args, call.tool);
    return call;
}

std::optional<ToolResult> check_arguments(const Registry& registry, PreparedCall& call) {
    if (call.unmappable) return ToolResult::error(std::move(*call.unmappable));
    auto unknown = registry.set_aside_unknown_arguments(*call.tool, call.args);
    if (!unknown) return ToolResult::error(std::move(unknown).error());
    call.unknown = std::move(unknown).value();
    if (std::string note = registry.decode_stringified_arguments(*call.tool, call.args); !note.empty())
        call.shape.notes.push_back(std::move(note));
    if (auto valid = registry.validate(*call.tool, call.args); !valid)
        return ToolResult::error(std::move(valid).error());
    return std::nullopt;
}

void add_note(ToolResult& outcome, const std::string& note) {
    if (note.empty() || outcome.input_required) return;
    if (!outcome.text.empty()) outcome.text += outcome.text.back() == '\n' ? "\n" : "\n\n";
    outcome.text += note;
    if (!outcome.structured.is_object()) return;
    if (const auto notes = outcome.structured.find("notes"); notes != outcome.structured.end() && notes->is_array())
        notes->push_back(note);
}

void add_call_notes(ToolResult& outcome, const PreparedCall& call) {
    std::string shape_note;
    for (const auto& note : call.shape.notes) shape_note += (shape_note.empty() ? "" : " ") + note;
    add_note(outcome, shape_note);
    add_note(outcome, call.unknown.note);
}

Workbench::Workbench(asio::any_io_executor io, asio::any_io_executor blocking, const Registry& registry,
                     const os::Workspace& workspace, WorkbenchSettings settings)
    : blocking_(std::move(blocking)),
      registry_(registry),
      workspace_(workspace),
      settings_(std::move(settings)),
      lanes_(std::move(io)),
      history_(settings_.history_budget),
      session_changes_(settings_.history_budget),
      ignore_(settings_.ignore) {
    if (settings_.history_dir.empty()) return;
    auto journal =
        ledger::HistoryJournal::open(settings_.history_dir, workspace_, &ignore_, history_, session_changes_);
    if (journal) {
        journal_ = std::move(journal).value();
        base::log::info("history journal {}: {} records read back", journal_->path(), journal_->replayed());
    } else {
        base::log::warn("--history-dir: {}; undo history stays in memory only", journal.error().message);
    }
}

Workbench::~Workbench() = default;

asio::awaitable<ToolResult> Workbench::run(PreparedCall& prepared, const CallScope& scope,
                                           std::shared_ptr<const os::Workspace> roots) {
    const os::Workspace& workspace = roots ? *roots : workspace_;
    CallContext ctx{settings_, scope, workspace, file_states_, lanes_, blocking_};
    ctx.history = &history_;
    ctx.session_changes = &session_changes_;
    ctx.journal = journal_.get();
    ctx.checks = checks_;
    ctx.ignore = &ignore_;
    if (scope.approval) ctx.approve = scope.approval(prepared.name, prepared.args, scope.progress, std::move(roots));
    try {
        co_return co_await registry_.handler (*prepared.tool)(ctx, prepared.args);
    } catch (const std::exception& e) {
        base::log::error("tool {} failed: {}", prepared.name, e.what());
        co_return ToolResult::error(
            std::string("Internal error in ") + prepared.name + ": " + e.what() + ". The file was not changed.",
            base::ErrorReason::internal);
    }
}

asio::awaitable<CallOutcome> Workbench::call(std::string name, Json arguments, CallScope scope) {
    CallOutcome out;
    // An unknown tool is named before its arguments are looked at.
    const bool arguments_object = arguments.is_object() || arguments.is_null();
    auto prepared = prepare_call(registry_, std::move(name),
                                 arguments_object && arguments.is_object() ? std::move(arguments) : Json::object());
    if (!prepared) {
        out.invalid_params = std::move(prepared).error();
    } else if (!arguments_object) {
        out.invalid_params = "Invalid params: \"arguments\" must be an object";
    }
    if (out.invalid_params) {
        out.result = ToolResult::error(*out.invalid_params, base::ErrorReason::invalid_arguments);
        co_return out;
    }
    out.tool = prepared->name;
    out.kind = Registry::spec(*prepared->tool).traits.kind;
    std::optional<ToolResult> refused;
    if (scope.refusal) refused = co_await scope.refusal();
    if (refused) {
        out.result = std::move(*refused);
    } else if (auto wrong = check_arguments(registry_, *prepared)) {
        out.result = std::move(*wrong);
        // The view reads every refusal of a decision as "not written" (ui/README.md): say so.
        if (out.kind == ToolKind::review_decision) out.result.text += "\nNothing was written.";
    } else {
        std::shared_ptr<const os::Workspace> roots;
        if (scope.roots) roots = co_await scope.roots();
        // A review decision goes to whoever holds the reviews (without one, the tool's own refusal).
        if (out.kind == ToolKind::review_decision && scope.decide_review)
            out.result = co_await scope.decide_review(prepared->args, std::move(roots));
        else
            out.result = co_await run(*prepared, scope, std::move(roots));
    }
    if (scope.finish) scope.finish(out.tool, out.kind, out.result);
    add_call_notes(out.result, *prepared);
    co_return out;
}

asio::awaitable<std::vector<ledger::SessionChanges::File>> Workbench::settled_changes(std::string real_path) {
    // Each file's lane once: a change whose bookkeeping (its base) is still running is seen whole.
    // (A named list: a temporary of a range-for does not live across co_await in every compiler.)
    const std::vector<ledger::SessionChanges::File> before = session_changes_.files();
    for (const auto& file : before)
        if (real_path.empty() || file.real_path == real_path) {
            auto guard = co_await lanes_.acquire_for_read(lane_key(file.real_path));
        }
    co_return session_changes_.files();
}

}  // namespace tools
