// The settings of one server process, as the command line gives them, and
// what start-up found wrong with them: a server that cannot work as configured still serves and
// says so to the host (instructions, tool results), since hosts show little of its stderr.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/log.hpp"
#include "os/ignore_files.hpp"

namespace server {

// Where a user fixes a stdio server's command line: the host's configuration of it.
inline constexpr std::string_view how_to_fix_arguments =
    "Fix the server's arguments in the host's configuration (the \"args\" of this server's entry, e.g. in "
    "claude_desktop_config.json, .mcp.json, .vscode/mcp.json or ~/.gemini/settings.json) and restart it.";

enum class ApprovalPolicy { ask, automatic, require };
// Where the human decides when the client can show both the review view (MCP Apps) and an
// elicitation form (--approval-ui); a client that can show only one uses that one.
enum class ApprovalUi { view, form };

struct Config {
    std::vector<std::string> roots;  // empty: the working directory
    bool roots_given = false;        // --root was on the command line (otherwise the client's roots are the roots)
    ApprovalPolicy approval = ApprovalPolicy::ask;
    std::chrono::milliseconds approval_timeout{std::chrono::seconds(600)};  // whole seconds from the command line
    ApprovalUi approval_ui = ApprovalUi::view;                              // --approval-ui
    std::uint64_t max_file_size = 256ull << 20;
    std::size_t max_message_size = 16u << 20;
    bool fsync = true;
    bool write_through_hard_links = false;      // --write-through-hard-links
    double fuzzy_threshold = 1.0;               // apply_diff: similarity matching below 1 (off by default)
    std::vector<std::string> checks;            // --check 'GLOB=COMMAND', as given (tools::CheckRule::parse reads them)
    std::vector<std::string> language_servers;  // --lsp 'GLOB=COMMAND', as given
    std::chrono::milliseconds check_timeout{std::chrono::seconds(10)};  // --check-timeout
    os::IgnoreSettings ignore;  // --ignore-file, --respect-gitignore, --ignore-reads
    std::string history_dir;    // --history-dir: undo history and session changes kept there ("" = memory only)
    std::size_t history_budget =
        64u << 20;  // --history-budget: bytes the undo history, and the session's bases, each keep
    base::log::Level log_level = base::log::Level::info;
    std::string log_file;  // empty: stderr

    // Set when no root is usable: why, and how to fix it. Every tools/call fails with this (unless,
    // without --root, the client's roots supply a workspace), and the instructions lead with it.
    std::string misconfiguration;
    // What works, but not as configured ("--root /x does not exist, so it is left out (...)"):
    // told in the instructions.
    std::vector<std::string> warnings;
};

}  // namespace server
