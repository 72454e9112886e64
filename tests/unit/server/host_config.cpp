// `mcp-edit config HOST`: each host's block parses in its format and starts this executable with
// the roots made absolute; unknown hosts are named with the known ones.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "server/host_config.hpp"

namespace {

using Json = nlohmann::json;

#ifdef _WIN32
constexpr const char* exe = "C:\\Tools\\mcp-edit.exe";
constexpr const char* cwd = "C:\\work\\project";
#else
constexpr const char* exe = "/opt/mcp-edit/bin/mcp-edit";
constexpr const char* cwd = "/work/project";
#endif

server::HostConfig config_for(const std::string& host, std::vector<std::string> roots = {},
                              std::vector<std::string> extra = {}) {
    server::HostConfigRequest request;
    request.host = host;
    request.executable = exe;
    request.roots = std::move(roots);
    request.extra_args = std::move(extra);
    request.working_directory = cwd;
    auto config = server::host_config(request);
    REQUIRE_MESSAGE(config.ok(), (config.ok() ? "" : config.error().message));
    return config.value();
}

}  // namespace

TEST_CASE("host config: the JSON hosts get their table, this executable and absolute roots") {
    struct Case {
        const char* host;
        const char* table;
        bool typed;
    };
    for (const Case c :
         {Case{"claude-desktop", "mcpServers", false}, Case{"claude-code", "mcpServers", true},
          Case{"vscode", "servers", true}, Case{"cursor", "mcpServers", false}, Case{"gemini", "mcpServers", false}}) {
        CAPTURE(c.host);
        const auto config = config_for(c.host, {"sub/../src", "/abs"}, {"--approval", "auto"});
        const Json block = Json::parse(config.text);
        const Json& entry = block.at(c.table).at("edit");
        CHECK(entry.at("command") == exe);
        CHECK(entry.contains("type") == c.typed);
#ifdef _WIN32
        const Json expected = {"--root", "C:\\work\\project\\src", "--root", "C:\\abs", "--approval", "auto"};
#else
        const Json expected = {"--root", "/work/project/src", "--root", "/abs", "--approval", "auto"};
#endif
        CHECK(entry.at("args") == expected);
        CHECK(!config.where.empty());
    }
}

TEST_CASE("host config: without --root each host gets the root it cannot do without") {
    CHECK(Json::parse(config_for("claude-desktop").text)["mcpServers"]["edit"]["args"] == Json{"--root", cwd});
    CHECK(Json::parse(config_for("vscode").text)["servers"]["edit"]["args"] == Json{"--root", "${workspaceFolder}"});
    CHECK(Json::parse(config_for("cursor").text)["mcpServers"]["edit"]["args"] == Json{"--root", "${workspaceFolder}"});
    CHECK(Json::parse(config_for("claude-code").text)["mcpServers"]["edit"]["args"] == Json::array());
    CHECK(Json::parse(config_for("gemini").text)["mcpServers"]["edit"]["args"] == Json::array());
}

TEST_CASE("host config: Codex gets a TOML table with escaped strings") {
#ifdef _WIN32
    const std::string root = "D:\\p \"q\"";
#else
    const std::string root = "/p \"q\"";
#endif
    const auto config = config_for("codex", {root});
    // JSON's string escapes are TOML's: "C:\\Tools\\mcp-edit.exe", "/p \"q\"".
    CHECK(config.text ==
          "[mcp_servers.edit]\ncommand = " + Json(exe).dump() + "\nargs = [\"--root\", " + Json(root).dump() + "]\n");
    CHECK(config.where.find("config.toml") != std::string::npos);
}

TEST_CASE("host config: Claude Code's where names the claude mcp add command, quoted for a shell") {
    const auto config = config_for("claude-code", {"/my project"});
    CHECK(config.where.find("claude mcp add --transport stdio edit -- ") != std::string::npos);
#ifndef _WIN32
    CHECK(config.where.find("--root '/my project'") != std::string::npos);
#endif
}

TEST_CASE("host config: --npx starts the npm package through npx -y in every host's block") {
    for (const auto host : server::host_config_names()) {
        CAPTURE(host);
        server::HostConfigRequest request;
        request.host = std::string(host);
        request.executable = exe;
        request.roots = {"/abs"};
        request.extra_args = {"--approval", "auto"};
        request.working_directory = cwd;
        request.npx = true;
        const auto config = server::host_config(request);
        REQUIRE(config.ok());
        CHECK(config->text.find(exe) == std::string::npos);
        CHECK(config->where.find("npm package mcp-edit") != std::string::npos);
#ifndef _WIN32
        if (host == "codex") {
            CHECK(config->text ==
                  "[mcp_servers.edit]\ncommand = \"npx\"\nargs = [\"-y\", \"mcp-edit\", \"--root\", \"/abs\", "
                  "\"--approval\", \"auto\"]\n");
            continue;
        }
        const Json block = Json::parse(config->text);
        const Json& entry = block.at(host == "vscode" ? "servers" : "mcpServers").at("edit");
        CHECK(entry.at("command") == "npx");
        CHECK(entry.at("args") == Json{"-y", "mcp-edit", "--root", "/abs", "--approval", "auto"});
#endif
    }
    server::HostConfigRequest request;
    request.host = "claude-code";
    request.executable = exe;
    request.working_directory = cwd;
    request.npx = true;
    CHECK(server::host_config(request)->where.find("claude mcp add --transport stdio edit -- npx -y mcp-edit\n") !=
          std::string::npos);
}

TEST_CASE("host config: --npx in the Windows form starts npx through cmd /c in every host's block") {
    for (const auto host : server::host_config_names()) {
        CAPTURE(host);
        server::HostConfigRequest request;
        request.host = std::string(host);
        request.executable = exe;
        request.roots = {"/abs"};
        request.working_directory = cwd;
        request.npx = true;
        request.windows = true;
        const auto config = server::host_config(request);
        REQUIRE(config.ok());
        CHECK(config->where.find("cmd /c") != std::string::npos);
        if (host == "codex") {
            CHECK(config->text.find("command = \"cmd\"\nargs = [\"/c\", \"npx\", \"-y\", \"mcp-edit\", \"--root\"") !=
                  std::string::npos);
            continue;
        }
        const Json block = Json::parse(config->text);
        const Json& entry = block.at(host == "vscode" ? "servers" : "mcpServers").at("edit");
        CHECK(entry.at("command") == "cmd");
        CHECK(entry.at("args").at(0) == "/c");
        CHECK(entry.at("args").at(1) == "npx");
        CHECK(entry.at("args").at(2) == "-y");
        CHECK(entry.at("args").at(3) == "mcp-edit");
    }
    // Without --npx the executable's own path is used, whatever the system.
    server::HostConfigRequest plain;
    plain.host = "claude-desktop";
    plain.executable = exe;
    plain.working_directory = cwd;
    plain.windows = true;
    CHECK(Json::parse(server::host_config(plain)->text)["mcpServers"]["edit"]["command"] == exe);
}

TEST_CASE("host config: a Windows root is kept as written, whatever system prints the block") {
    for (const std::string root : {"C:\\Users\\me\\project", "D:\\work\\p", "\\\\server\\share\\p"}) {
        CAPTURE(root);
        server::HostConfigRequest request;
        request.host = "claude-desktop";
        request.executable = "C:\\Tools\\mcp-edit.exe";
        request.roots = {root + "\\"};
        request.working_directory = cwd;
        request.windows = true;
        const auto config = server::host_config(request);
        REQUIRE(config.ok());
        CHECK(Json::parse(config->text)["mcpServers"]["edit"]["args"] == Json::array({"--root", root}));
    }
}

TEST_CASE("host config: run from npx's cache, the block starts the npm package and says why") {
    for (const char* cached : {"/home/me/.npm/_npx/3c1b2d/node_modules/mcp-edit-linux-x64/bin/mcp-edit",
                               "C:\\Users\\me\\AppData\\Local\\npm-cache\\_npx\\3c1b2d\\node_modules\\"
                               "mcp-edit-win32-x64\\bin\\mcp-edit.exe"}) {
        CAPTURE(cached);
        CHECK(server::in_npx_cache(cached));
        server::HostConfigRequest request;
        request.host = "claude-desktop";
        request.executable = cached;
        request.roots = {"/abs"};
        request.working_directory = cwd;
        const auto config = server::host_config(request);
        REQUIRE(config.ok());
        CHECK(config->text.find("_npx") == std::string::npos);
        CHECK(Json::parse(config->text)["mcpServers"]["edit"]["command"] == "npx");
        CHECK(config->where.find("runs from npx's cache") != std::string::npos);
    }
    CHECK_FALSE(server::in_npx_cache("/usr/bin/mcp-edit"));
    CHECK_FALSE(server::in_npx_cache("/usr/lib/node_modules/mcp-edit-linux-x64/bin/mcp-edit"));
}

TEST_CASE("host config: an unknown host is refused with the known ones") {
    server::HostConfigRequest request;
    request.host = "emacs";
    request.executable = exe;
    request.working_directory = cwd;
    const auto config = server::host_config(request);
    REQUIRE(!config.ok());
    CHECK(config.error().message ==
          "unknown host \"emacs\"; known hosts: claude-desktop, claude-code, vscode, cursor, "
          "codex, gemini");
}
