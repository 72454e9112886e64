// What kind of tool a call goes to, as far as anything outside the tool needs to know (the
// workbench's way through a call, the session's view payload, a result too large to send). Its own
// small header so the call's scope (tools/tool.hpp) can name it without the tool definitions.
#pragma once

namespace tools {

// What a tool is, as far as anything outside it needs to know.
enum class ToolKind {
    read_lines,       // read: a file's lines; a result too large says which offset/limit would fit
    read_listing,     // list, find, grep: changes nothing; a result too large says to narrow the call
    session_patch,    // changes: what the session changed, as one patch (shown in the review view too)
    change,           // changes files through the approval gate (edit, write, move, ...)
    review_decision,  // the review view's decision: called by the view, never listed to other clients
};

// Whether a tool of this kind changes files (its calls pass the approval gate, and other agents'
// safety arguments are read as ours).
constexpr bool changes_files(ToolKind kind) { return kind == ToolKind::change; }

}  // namespace tools
