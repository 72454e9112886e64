// `mcp-edit config HOST`: the block a user pastes into an agent host's configuration to start this
// server, in the host's own format (JSON or Codex's TOML) with this binary's absolute path, and
// where that block goes (or, with --npx, `npx -y mcp-edit` from npm). Pure text;
// main.cpp finds the executable and prints.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"

namespace server {

struct HostConfigRequest {
    std::string host;                     // one of host_config_names()
    std::string executable;               // absolute path of mcp-edit, in the system's spelling
    std::vector<std::string> roots;       // --root values as given (made absolute here)
    std::vector<std::string> extra_args;  // further server flags, after `--`
    std::string working_directory;        // what relative roots are relative to
    bool npx = false;                     // start it as `npx -y mcp-edit` (the npm package), not `executable`
    // Spell the npx form as native Windows needs it: `cmd /c npx ...` (Claude Code and Claude
    // Desktop cannot start npx, a .cmd script, themselves). The default on Windows; --windows elsewhere.
    bool windows = false;
};

// Whether `executable` lies in npx's cache (~/.npm/_npx/<hash>/...): a path that vanishes with the
// cache or the next version, which a host's configuration must not name.
bool in_npx_cache(std::string_view executable);

struct HostConfig {
    std::string text;   // the block to paste, ending in a newline
    std::string where;  // where it goes and how to apply it, for a human (several lines)
};

// The npm package whose bin starts this server (packaging/npm).
inline constexpr std::string_view npm_package_name = "mcp-edit";

// The hosts `config` knows, in the order --help lists them.
const std::vector<std::string_view>& host_config_names();

// The block for `request.host`, or why there is none (an unknown host: the known ones listed).
base::Result<HostConfig> host_config(const HostConfigRequest& request);

}  // namespace server
