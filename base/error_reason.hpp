// Why a tool call failed, as a word hosts and tests can branch on without parsing the message.
// One enum for every producer of an error; it becomes a string only when the result is written
// (`_meta["io.github.mcp-edit/reason"]` of an isError CallToolResult).
#pragma once

#include <string>
#include <utility>

namespace base {

enum class ErrorReason {
    other,                 // not classified (a producer that names no reason)
    invalid_arguments,     // the arguments cannot work as given (schema, misspelt name, bad patch text, bad line)
    not_found,             // the file, or the text to replace, is not there
    ambiguous,             // the text occurs at several places
    already_applied,       // not found, but the new text is already there
    overlap,               // two changes of one call touch the same lines
    exists,                // a file to create exists already (or a move's target does)
    not_read,              // overwriting a file this session has not read
    stale,                 // the file changed since this session last read or wrote it
    conflict,              // another program changed the file while this change was prepared
    outside_root,          // the path resolves outside the allowed roots
    ignored,               // an ignore rule (or a .git folder) keeps the path from this access
    not_a_file,            // a directory, FIFO, socket or device
    not_text,              // binary (NUL bytes) or UTF-16/32
    too_large,             // over --max-file-size
    rejected,              // the user (or --approval require) did not allow the change
    cancelled,             // cancelled by the client or the user
    timeout,               // no answer to the approval in time (or an expired requestState)
    approval_unavailable,  // the approval form could not be shown
    nothing_to_undo,       // undo has no step left for this file
    not_writable,          // the file's permissions allow this user no write (read-only)
    io_error,              // the operating system refused a read or write
    no_root,               // the server has no usable root
    internal,              // a bug: the file was not changed
};

// "not_found", "outside_root", ... (the enumerator's name).
inline const char* to_string(ErrorReason reason) {
    switch (reason) {
        case ErrorReason::other: return "other";
        case ErrorReason::invalid_arguments: return "invalid_arguments";
        case ErrorReason::not_found: return "not_found";
        case ErrorReason::ambiguous: return "ambiguous";
        case ErrorReason::already_applied: return "already_applied";
        case ErrorReason::overlap: return "overlap";
        case ErrorReason::exists: return "exists";
        case ErrorReason::not_read: return "not_read";
        case ErrorReason::stale: return "stale";
        case ErrorReason::conflict: return "conflict";
        case ErrorReason::outside_root: return "outside_root";
        case ErrorReason::ignored: return "ignored";
        case ErrorReason::not_a_file: return "not_a_file";
        case ErrorReason::not_text: return "not_text";
        case ErrorReason::too_large: return "too_large";
        case ErrorReason::rejected: return "rejected";
        case ErrorReason::cancelled: return "cancelled";
        case ErrorReason::timeout: return "timeout";
        case ErrorReason::approval_unavailable: return "approval_unavailable";
        case ErrorReason::nothing_to_undo: return "nothing_to_undo";
        case ErrorReason::not_writable: return "not_writable";
        case ErrorReason::io_error: return "io_error";
        case ErrorReason::no_root: return "no_root";
        case ErrorReason::internal: return "internal";
    }
    return "other";
}

// An error for the model and its reason, as the layers below a tool pass it up.
struct Failure {
    std::string message;
    ErrorReason reason = ErrorReason::other;
};

// The key of the reason in an error result's `_meta`.
inline constexpr const char* reason_meta_key = "io.github.mcp-edit/reason";

}  // namespace base
