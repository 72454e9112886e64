// The configuration blocks of `mcp-edit config HOST` (host_config.hpp). Each host's format is the
// one its documentation gives for a stdio server; the server is named "edit" (short tool names in
// hosts that prefix them: mcp__edit__read). Hosts that send their working directory or workspace
// as a root need no --root; Claude Desktop sends none, so its block always names one.
#include "server/host_config.hpp"

#include <cctype>

#include <filesystem>

#include <nlohmann/json.hpp>

namespace server {
namespace {

constexpr std::string_view server_name = "edit";

std::string utf8(const std::filesystem::path& path) {
    const std::u8string text = path.u8string();
    return {reinterpret_cast<const char*>(text.data()), text.size()};
}

std::filesystem::path path_of(const std::string& text) {
    return std::filesystem::path(std::u8string(reinterpret_cast<const char8_t*>(text.data()), text.size()));
}

// `root` made absolute against `base` and cleaned (no `.` or `..`, the system's separators). Host
// variables such as ${workspaceFolder} are kept as written.
std::string absolute_root(const std::string& root, const std::string& base) {
    if (root.find("${") != std::string::npos) return root;
        // A Windows path (C:\project, C:/project, \\server\share) is absolute for the machine the block
        // is for, whatever system prints it (`--windows` on Linux): kept, with a trailing separator cut.
        // (On Windows the path library knows drive paths itself; UNC paths it joins to the drive.)
#ifdef _WIN32
    const bool drive = false;
#else
    const bool drive = root.size() >= 3 && std::isalpha(static_cast<unsigned char>(root[0])) && root[1] == ':' &&
                       (root[2] == '\\' || root[2] == '/');
#endif
    if (drive || root.starts_with("\\\\")) {
        std::string kept = root;
        if (kept.size() > 3 && (kept.back() == '\\' || kept.back() == '/')) kept.pop_back();
        return kept;
    }
    std::filesystem::path path = path_of(root);
    if (!path.is_absolute()) path = path_of(base) / path;
    path = path.lexically_normal();
    path.make_preferred();
    std::string text = utf8(path);
    if (text.size() > 1 && (text.back() == '/' || text.back() == '\\') && text[text.size() - 2] != ':') text.pop_back();
    return text;
}

nlohmann::ordered_json stdio_entry(const std::string& executable, const std::vector<std::string>& args, bool typed) {
    nlohmann::ordered_json entry = nlohmann::ordered_json::object();
    if (typed) entry["type"] = "stdio";
    entry["command"] = executable;
    entry["args"] = args;
    return entry;
}

std::string json_block(std::string_view table, nlohmann::ordered_json entry) {
    nlohmann::ordered_json block;
    block[std::string(table)][std::string(server_name)] = std::move(entry);
    return block.dump(2) + "\n";
}

// A TOML basic string: JSON's escapes (\\, \", \n, \uXXXX) are TOML's too.
std::string toml_string(const std::string& text) { return nlohmann::json(text).dump(); }

std::string codex_block(const std::string& executable, const std::vector<std::string>& args) {
    std::string text =
        "[mcp_servers." + std::string(server_name) + "]\ncommand = " + toml_string(executable) + "\nargs = [";
    for (std::size_t i = 0; i < args.size(); ++i) text += (i ? ", " : "") + toml_string(args[i]);
    return text + "]\n";
}

std::string shell_word(const std::string& word) {
    if (!word.empty() &&
        word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") ==
            std::string::npos)
        return word;
    std::string quoted = "'";
    for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

}  // namespace

const std::vector<std::string_view>& host_config_names() {
    static const std::vector<std::string_view> names = {"claude-desktop", "claude-code", "vscode",
                                                        "cursor",         "codex",       "gemini"};
    return names;
}

bool in_npx_cache(std::string_view executable) {
    return executable.find("/_npx/") != std::string_view::npos || executable.find("\\_npx\\") != std::string_view::npos;
}

base::Result<HostConfig> host_config(const HostConfigRequest& given) {
    HostConfigRequest request = given;
    // Run through `npx -y mcp-edit config HOST`: the executable's own path is in npx's cache, so the
    // block starts the package instead.
    const bool from_npx_cache = !request.npx && in_npx_cache(request.executable);
    if (from_npx_cache) request.npx = true;
    const std::string& host = request.host;
    std::vector<std::string> roots = request.roots;
    // Without --root: the host's own root where it sends one; the editor's workspace folder in
    // VS Code and Cursor (both expand ${workspaceFolder}); Claude Desktop, which sends no roots,
    // gets the directory `config` ran in.
    if (roots.empty() && (host == "vscode" || host == "cursor")) roots.push_back("${workspaceFolder}");
    if (roots.empty() && host == "claude-desktop") roots.push_back(request.working_directory);
    std::vector<std::string> args;
    // npx -y: install (or reuse from npm's cache) without asking, then run the package's bin; on
    // Windows through cmd /c, since npx is a .cmd script there.
    if (request.npx && request.windows) args = {"/c", "npx"};
    if (request.npx) args.insert(args.end(), {"-y", std::string(npm_package_name)});
    for (const auto& root : roots) {
        args.push_back("--root");
        args.push_back(absolute_root(root, request.working_directory));
    }
    args.insert(args.end(), request.extra_args.begin(), request.extra_args.end());
    const std::string exe = !request.npx      ? request.executable
                            : request.windows ? std::string("cmd")
                                              : std::string("npx");

    HostConfig out;
    if (host == "claude-desktop") {
        out.text = json_block("mcpServers", stdio_entry(exe, args, false));
        out.where =
            "Merge into claude_desktop_config.json (Settings > Developer > Edit Config), then restart Claude Desktop:\n"
            "  macOS:   ~/Library/Application Support/Claude/claude_desktop_config.json\n"
            "  Windows: %APPDATA%\\Claude\\claude_desktop_config.json\n"
            "Claude Desktop sends no roots: --root is the only directory the agent may change.";
    } else if (host == "claude-code") {
        out.text = json_block("mcpServers", stdio_entry(exe, args, true));
        std::string command = "claude mcp add --transport stdio " + std::string(server_name) + " -- " + shell_word(exe);
        for (const auto& arg : args) command += " " + shell_word(arg);
        out.where = "Merge into .mcp.json at the project's root (shared with the project), or run:\n  " + command +
                    "\nWithout --root, Claude Code's working directory is the root.";
    } else if (host == "vscode") {
        out.text = json_block("servers", stdio_entry(exe, args, true));
        out.where =
            "Merge into .vscode/mcp.json in the workspace (or the user configuration: \"MCP: Open User "
            "Configuration\"), then start the server from that file.";
    } else if (host == "cursor") {
        out.text = json_block("mcpServers", stdio_entry(exe, args, false));
        out.where = "Merge into .cursor/mcp.json in the project, or ~/.cursor/mcp.json for every project.";
    } else if (host == "codex") {
        out.text = codex_block(exe, args);
        out.where =
            "Append to ~/.codex/config.toml (Windows: %USERPROFILE%\\.codex\\config.toml).\n"
            "Without --root, Codex's working directory is the root.";
    } else if (host == "gemini") {
        out.text = json_block("mcpServers", stdio_entry(exe, args, false));
        out.where =
            "Merge into ~/.gemini/settings.json, or .gemini/settings.json in the project.\n"
            "Without --root, Gemini CLI's working directory is the root.";
    } else {
        std::string known;
        for (const auto name : host_config_names()) known += (known.empty() ? "" : ", ") + std::string(name);
        return base::fail(base::Failure{"unknown host \"" + host + "\"; known hosts: " + known,
                                        base::ErrorReason::invalid_arguments});
    }
    if (from_npx_cache)
        out.where += "\nThis executable runs from npx's cache (" + request.executable +
                     "), which a cache clean or the next version removes, so the block starts the npm package with npx "
                     "instead of naming it.";
    if (request.npx)
        out.where += "\nnpx (Node.js 18 or later) fetches the npm package " + std::string(npm_package_name) +
                     " on first start and runs the executable for this system from it." +
                     (request.windows ? " On Windows it starts through cmd /c, since npx is a .cmd script there." : "");
    return out;
}

}  // namespace server
