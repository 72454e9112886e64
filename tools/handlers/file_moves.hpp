// Undo of a move, which `undo` hands over to the move tool's code: a move is two files (the
// destination written, the source removed), and undoing either of them moves the file back whole.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "ledger/history.hpp"
#include "tools/tool.hpp"

namespace tools {

// When the latest change this server made to `real_path` is one side of a move whose other side
// is still the latest change of its file: {from, to} of that move (real paths); else nullopt.
std::optional<std::pair<std::string, std::string>> move_of(const ledger::History& history,
                                                           const std::string& real_path);

// The refusal when the latest change of `path` is one side of a move whose other side changed
// since (undoing one side alone would delete the moved file or recreate a second copy).
std::string move_not_undoable(const CallContext& ctx, const os::ResolvedPath& path,
                              const ledger::History::Entry& latest);

// Moves `to_real` back to `from_real` (and puts back the file the move replaced, if any), through
// the approval and the transaction, when `to_real` is still exactly what the move wrote; pops the
// move from the history of both files.
asio::awaitable<ToolResult> undo_move(CallContext& ctx, const std::string& from_real, const std::string& to_real,
                                      bool dry_run);

}  // namespace tools
