// What undo tells the model (tools/handlers/undo.cpp): nothing (more) to undo, a change that cannot be
// undone because the file changed since, and how many earlier changes are left. undo decides;
// these word it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tools {

// After an undo: `left` earlier changes of the file can still be undone.
std::string remaining_undo_note(std::size_t left);
// `evicted` earlier changes were dropped from the history (--history-budget).
std::string history_evicted_message(std::string_view display, std::size_t evicted);
std::string nothing_to_undo_message(std::string_view display);
// `tool` deleted the file, and a file exists there again.
std::string deleted_file_back_message(std::string_view display, std::string_view tool);
std::string written_file_gone_message(std::string_view display, std::string_view tool);
// The file changed since `tool` wrote it: "Cannot undo: ... Nothing was changed."
std::string changed_since_written_message(std::string_view display, std::string_view tool);
// What follows it: the written bytes are not kept (files over `kept_mib` MiB), or how the file differs.
std::string written_bytes_not_kept_note(std::size_t kept_mib);
std::string drift_note(std::string_view diff);

}  // namespace tools
