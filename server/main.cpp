// mcp-edit's entry point: the command line (CLI11) into a Config, then the server on stdio until
// stdin ends or SIGTERM/SIGINT arrives, finishing in-flight work before exit 0. Only a command
// line that cannot be parsed ends it early (exit 2); settings that parse but cannot work (a --root
// that does not exist) are served as a problem the host shows (see Config::misconfiguration).
#include <algorithm>
#include <cctype>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <CLI/CLI.hpp>
#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/io_context.hpp>
#include <asio/post.hpp>
#include <asio/signal_set.hpp>
#include <asio/thread_pool.hpp>
#include <asio/use_awaitable.hpp>
#include <fmt/format.h>

#include "base/log.hpp"
#include "server/config.hpp"
#include "server/deferred_pool_threads.hpp"
#include "server/host_config.hpp"
#include "server/logging.hpp"
#include "text/bytes/lines.hpp"
#include "os/console_close.hpp"
#include "os/system_paths.hpp"
#include "server/session.hpp"
#include "server/stdio_transport.hpp"
#include "os/workspace.hpp"
#include "checks/checks.hpp"
#include "tools/registry.hpp"

namespace {

// `mcp-edit config HOST`: prints the host's configuration block (stdout) and where it goes (stderr).
int print_host_config(server::HostConfigRequest request) {
    const auto executable = os::executable_path();
    if (!executable) {
        std::cerr << "mcp-edit: cannot find the path of this executable\n";
        return 1;
    }
    request.executable = *executable;
    request.working_directory = os::current_directory();
    auto config = server::host_config(request);
    if (!config) {
        std::cerr << "mcp-edit config: " << config.error().message << "\n";
        return 2;
    }
    std::cout << config->text << std::flush;
    std::cerr << config->where << "\n";
    return 0;
}

// Relative paths that came from a --config file (not from the command line) are relative to the
// file's folder, so one file serves wherever the host starts the server.
void resolve_config_paths(const std::string& config_path, int argc, char** argv, server::Config& config) {
    const auto given = [&](std::string_view flag) {
        for (int i = 1; i < argc; ++i) {
            const std::string_view arg = argv[i];
            if (arg == flag ||
                (arg.size() > flag.size() && arg.substr(0, flag.size()) == flag && arg[flag.size()] == '='))
                return true;
        }
        return false;
    };
    const std::filesystem::path folder = std::filesystem::absolute(std::filesystem::path(config_path)).parent_path();
    const auto anchored = [&](std::string& path) {
        if (!path.empty() && !os::is_absolute(path)) path = (folder / path).lexically_normal().generic_string();
    };
    if (!given("--root"))
        for (auto& root : config.roots) anchored(root);
    if (!given("--log-file")) anchored(config.log_file);
    if (!given("--history-dir")) anchored(config.history_dir);
}

// --approval as given: ask, auto or require in any case, surrounded by blanks or not; anything else
// (empty, mistyped) leaves the default and says so in the warnings (the initialize instructions).
void read_approval_policy(const std::string& given, server::Config& config) {
    std::string word;
    for (char c : given)
        if (!std::isspace(static_cast<unsigned char>(c)))
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    static const std::map<std::string, server::ApprovalPolicy> policies = {
        {"ask", server::ApprovalPolicy::ask},
        {"auto", server::ApprovalPolicy::automatic},
        {"require", server::ApprovalPolicy::require}};
    if (const auto it = policies.find(word); it != policies.end()) {
        config.approval = it->second;
        return;
    }
    config.warnings.push_back("--approval \"" +
                              given.substr(0, text::utf8_floor(given, std::min<std::size_t>(given.size(), 40))) +
                              (given.size() > 40 ? "…" : "") +
                              "\" is not one of ask, auto, require, so the default, ask, is used (each change is "
                              "shown to the user where the client can show it)");
}

int parse_command_line(int argc, char** argv, server::Config& config) {
    CLI::App app{"mcp-edit: an MCP server over stdio through which AI agents read and change files safely.",
                 "mcp-edit"};
    app.set_version_flag("--version", std::string("mcp-edit ") + MCP_EDIT_VERSION);
    server::HostConfigRequest host_request;
    std::string hosts;
    for (const auto name : server::host_config_names()) hosts += (hosts.empty() ? "" : " | ") + std::string(name);
    CLI::App* config_command = app.add_subcommand(
        "config",
        "Print the block that starts this server in an agent host's configuration (JSON, or TOML for "
        "Codex), with this executable's absolute path; where it goes is printed on stderr");
    config_command->add_option("host", host_request.host, hosts)->required();
    config_command->add_option("--root", host_request.roots,
                               "Directory the agent may change (repeatable; default: the host's own root, "
                               "${workspaceFolder} in VS Code and Cursor, the current directory for Claude Desktop)");
    config_command->add_flag("--npx", host_request.npx,
                             "Start it with `npx -y mcp-edit` (the npm package) instead of this executable's path");
#if defined(_WIN32)
    host_request.windows = true;
#endif
    config_command->add_flag(
        "--windows", host_request.windows,
        "With --npx: the form native Windows needs, `cmd /c npx -y mcp-edit` (the default on Windows)");
    config_command->footer(
        "Further mcp-edit flags for the block go after --, e.g. mcp-edit config codex -- --approval auto");
    app.add_option("--root", config.roots,
                   "Directory that may be touched (repeatable; default: the working directory)");
    // Free text in the .mcpb's settings (Claude Desktop passes whatever the user typed, empty
    // included): read in any case and spacing, and anything else is served with the default and a
    // warning, never a server that exits at start (a dead extension).
    std::string approval_text;
    app.add_option("--approval", approval_text,
                   "ask | auto | require (default ask; any case; anything else: ask, and the instructions say so)")
        ->option_text("POLICY");
    const std::map<std::string, server::ApprovalUi> approval_uis = {{"view", server::ApprovalUi::view},
                                                                    {"form", server::ApprovalUi::form}};
    app.add_option("--approval-ui", config.approval_ui,
                   "view | form: where the user decides when the client can show both the review view (MCP Apps) "
                   "and an approval form (default view)")
        ->transform(CLI::CheckedTransformer(approval_uis, CLI::ignore_case))
        ->option_text("WHERE");
    std::int64_t timeout = std::chrono::duration_cast<std::chrono::seconds>(config.approval_timeout).count();
    app.add_option("--approval-timeout", timeout,
                   "Seconds before an unanswered approval counts as rejected (default 600)")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{86400}));
    app.add_option("--max-file-size", config.max_file_size, "Largest file read or changed, in bytes (default 256 MiB)")
        ->check(CLI::PositiveNumber);
    app.add_option("--max-message-size", config.max_message_size,
                   "Longest input line, in bytes; longer ones get an error reply (default 16 MiB)")
        ->check(CLI::Range(std::size_t{1024}, std::size_t{1} << 32));
    app.add_option(
           "--fuzzy-threshold", config.fuzzy_threshold,
           "apply_diff: accept a block whose lines are at least this similar (0.5-1; default 1 = exact tiers only)")
        ->check(CLI::Range(0.5, 1.0));
    app.add_option("--check", config.checks,
                   "GLOB=COMMAND: after a change is written, run COMMAND on each written file whose name (or path "
                   "under its root, when GLOB holds a /) matches GLOB; {file} is the file's absolute path "
                   "(repeatable; e.g. '*.py=python3 -m py_compile {file}')")
        ->check([](const std::string& spec) {
            auto rule = checks::CheckRule::parse(spec);
            return rule ? std::string() : rule.error().message;
        });
    app.add_option("--lsp", config.language_servers,
                   "GLOB=COMMAND: a language server (e.g. '*.{c,cc,cpp,h,hpp}=clangd', '*.py=pyright-langserver "
                   "--stdio') started once per root and told each written file whose name (or path under its root, "
                   "when GLOB holds a /) matches GLOB, before and after the change; its diagnostics are reported like "
                   "a check's (repeatable)")
        ->check([](const std::string& spec) {
            auto rule = checks::CheckRule::parse_language_server(spec);
            return rule ? std::string() : rule.error().message;
        });
    double check_timeout = 10;
    app.add_option("--check-timeout", check_timeout,
                   "Seconds a check may run before it is killed, and a language server may take to report (default 10)")
        ->check(CLI::Range(0.1, 3600.0));
    std::vector<std::string> ignore_files;
    app.add_option("--ignore-file", ignore_files,
                   "NAME: a file of gitignore rules looked up in each root and every folder below it; the paths it "
                   "matches cannot be changed (repeatable; default .mcp-editignore; naming any replaces the default)")
        ->check([](const std::string& name) {
            if (name.empty() || name == "." || name == ".." || name.find_first_of("/\\") != std::string::npos)
                return std::string(
                    "--ignore-file takes a file name such as .mcp-editignore, not a path: it is looked "
                    "up in every folder");
            return std::string();
        })
        ->option_text("NAME");
    app.add_option("--history-dir", config.history_dir,
                   "Keep the undo history and the session's changes in this folder, so undo and the session patch "
                   "survive a restart (one journal per set of roots; default: memory only)")
        ->option_text("DIR");
    app.add_option(
           "--history-budget", config.history_budget,
           "Bytes the undo history keeps, and the session's record of changed files' first bytes keeps "
           "(each; big files are kept as the bytes changes replaced; the oldest undo steps go first; default 64 MiB)")
        ->option_text("BYTES");
    app.add_flag("--respect-gitignore", config.ignore.respect_gitignore,
                 "Also refuse changing what .gitignore files (and the root's .git/info/exclude) ignore");
    app.add_flag("--ignore-reads", config.ignore.ignore_reads,
                 "Refuse reading ignored files too (default: reads are allowed)");
    app.add_flag("--write-through-hard-links", config.write_through_hard_links,
                 "A file with other names (hard links): write through every name (default: give it a file of its own)");
    app.add_flag(
        "--no-fsync", [&](std::int64_t) { config.fsync = false; }, "Skip fsync when writing (faster, less durable)");
    using base::log::Level;
    const std::map<std::string, Level> levels = {
        {"trace", Level::trace},  {"debug", Level::debug}, {"info", Level::info},         {"warn", Level::warn},
        {"warning", Level::warn}, {"error", Level::error}, {"critical", Level::critical}, {"off", Level::off}};
    app.add_option("--log-level", config.log_level,
                   "trace | debug | info | warn | error | critical | off (default info)")
        ->transform(CLI::CheckedTransformer(levels, CLI::ignore_case))
        ->option_text("LEVEL");
    app.add_option("--log-file", config.log_file, "Write logs to this file instead of stderr");
    // Everything above from a TOML file (CLI11's reader: `key = value` with the long flags' names,
    // strings, numbers, booleans, arrays); flags given on the command line win. A key that is no
    // flag is an error, so a misspelt setting is not silently ignored.
    CLI::Option* config_file =
        app.set_config("--config", "",
                       "Read settings from a TOML file: each long flag's name as a key, e.g. approval = \"auto\", "
                       "root = [\"/src/app\"], check = [\"*.py=python3 -m py_compile {file}\"], respect-gitignore = "
                       "true; flags on the command line override it; relative paths in it are relative to its folder")
            ->option_text("FILE");
    app.allow_config_extras(CLI::config_extras_mode::error);
    // `config`'s server flags for the block come after `--` (e.g. -- --approval auto): set aside as
    // given, before CLI11 sees the rest.
    int parsed_argc = argc;
    if (argc > 1 && std::string_view(argv[1]) == "config")
        for (int i = 2; i < argc; ++i)
            if (std::string_view(argv[i]) == "--") {
                host_request.extra_args.assign(argv + i + 1, argv + argc);
                parsed_argc = i;
                break;
            }
    try {
        app.parse(parsed_argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ConfigError& e) {
        // CLI11 says "INI was not able to parse KEY" for a key that is no flag.
        const std::string what = e.what();
        const std::string_view prefix = "INI was not able to parse ";
        if (what.rfind(prefix, 0) == 0)
            std::cerr << "mcp-edit: the --config file has a setting mcp-edit does not know: "
                      << what.substr(prefix.size())
                      << " (its keys are the long flags' names without --; see mcp-edit --help)\n";
        else
            std::cerr << "mcp-edit: the --config file: " << what << " (see mcp-edit --help)\n";
        return 2;
    } catch (const CLI::ParseError& e) {
        std::cerr << "mcp-edit: " << e.what() << " (see mcp-edit --help)\n";
        return 2;  // whatever CLI11 would say (105, 109, ...): the README promises 2
    }
    if (config_command->parsed()) return print_host_config(std::move(host_request));
    if (app.count("--approval") > 0) read_approval_policy(approval_text, config);
    config.approval_timeout = std::chrono::seconds(timeout);
    config.check_timeout = std::chrono::milliseconds(static_cast<std::int64_t>(check_timeout * 1000));
    if (config_file->count() > 0) resolve_config_paths(config_file->as<std::string>(), parsed_argc, argv, config);
    if (!config.history_dir.empty() && !os::is_absolute(config.history_dir))
        config.history_dir = std::filesystem::absolute(std::filesystem::path(config.history_dir)).generic_string();
    config.roots_given = !config.roots.empty();
    if (!ignore_files.empty()) config.ignore.names = std::move(ignore_files);
    return -1;
}

// Fills in config.misconfiguration and config.warnings from what the roots turned out to be.
void judge_roots(server::Config& config, const os::Workspace& workspace) {
    std::vector<std::string> problems;
    for (const auto& problem : workspace.problems())
        problems.push_back(config.roots_given ? "--root " + problem : "its working directory " + problem);
    if (problems.empty()) return;
    const std::string what = os::Workspace::list_text(problems);
    if (workspace.roots().empty()) {
        config.misconfiguration =
            config.roots_given
                ? "mcp-edit is misconfigured: " + what + ". " + std::string(server::how_to_fix_arguments) +
                      " Until then every tool call fails."
                : "mcp-edit is misconfigured: it was started without --root and " + what +
                      ". Add --root DIR to the server's arguments in the host's configuration and restart it.";
        return;
    }
    config.warnings.push_back(what + (problems.size() == 1 ? ", so it is" : ", so they are") +
                              " left out (the roots are " + os::Workspace::list_text(workspace.roots()) + ")");
}

// A SIGINT or SIGTERM that comes before the session's own signal handling is set up (a client
// that starts a server and stops it at once, as client 2.4.0 does with its probe process): noted
// here and acted on once it is, so the server still finishes and exits 0 instead of dying of it.
volatile std::sig_atomic_t early_stop_signal = 0;

extern "C" void note_early_stop(int signo) { early_stop_signal = signo; }

// Before main and before other static initialisers (the signal can come while they run).
#if defined(__GNUC__)
__attribute__((constructor(101)))
#endif
void notice_early_stops() {
    std::signal(SIGINT, note_early_stop);
    std::signal(SIGTERM, note_early_stop);
}

}  // namespace

int main(int argc, char** argv) {
    notice_early_stops();
#if defined(__GLIBC__)
    // A file's bytes and its new image (1 MiB and more) come from mmap and go back to the system
    // when the call ends. glibc otherwise raises its mmap threshold after the first such buffer is
    // freed (up to 32 MiB), and from then on serves files of that size from the heap and keeps
    // what they used: RSS after one edit in each of ten 20 MiB files went to 128 MiB and stayed
    // there; with the threshold fixed it stays at 8.5 MiB (bench/memory.mjs).
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
    server::Config config;
    if (const int code = parse_command_line(argc, argv, config); code >= 0) return code;

    // A log file that cannot be opened is no reason to stop: logs go to stderr, the host is told.
    std::string log_error;
    if (!base::log::to_stderr_or_file(config.log_level, config.log_file, log_error)) {
        std::string stderr_error;
        base::log::to_stderr_or_file(config.log_level, "", stderr_error);
        config.warnings.push_back("--log-file " + config.log_file + " cannot be opened (" + log_error +
                                  "), so logs go to stderr");
    }
#ifdef SIGPIPE
    std::signal(SIGPIPE, SIG_IGN);
#endif

    if (!config.roots_given) config.roots.push_back(os::current_directory());
    const os::Workspace workspace(
        config.roots, config.roots_given ? "" : "this server's working directory; it was started without --root");
    judge_roots(config, workspace);
    if (!config.misconfiguration.empty()) base::log::error("{}", config.misconfiguration);
    for (const auto& warning : config.warnings) base::log::warn("configuration problem: {}", warning);

    // The tool schemas load on the registry's own thread once the first reply is written (see
    // below); a malformed one (a build defect) ends the server as soon as it is found.
    const tools::Registry registry([](const std::exception& e) {
        std::cerr << "mcp-edit: broken tool schemas: " << e.what() << "\n";
        std::_Exit(3);
    });

    asio::io_context io(1);
    asio::thread_pool blocking(0);
    server::DeferredPoolThreads blocking_threads(blocking, 2);
    server::StdioTransport transport(io, 0, 1, config.max_message_size);
    // Work on the pool waits while the client leaves too much output unread (see OutputBudget).
    const server::BudgetedExecutor pool(server::StartingExecutor(blocking.get_executor(), &blocking_threads),
                                        &transport.budget());
    auto session = std::make_shared<server::Session>(io, pool, config, transport, workspace, registry);
    const server::LogForwarding log_forwarding(io, session);
    // Checks block a thread each while their program runs: a pool of their own, so they never
    // hold up the file work of other calls; its size bounds how many run at once.
    std::optional<asio::thread_pool> check_pool;
    std::unique_ptr<checks::Checks> checks;
    if (!config.checks.empty() || !config.language_servers.empty()) {
        checks::CheckSettings settings;
        for (const auto& spec : config.checks) settings.rules.push_back(checks::CheckRule::parse(spec).value());
        for (const auto& spec : config.language_servers)
            settings.language_servers.push_back(checks::CheckRule::parse_language_server(spec).value());
        settings.timeout = config.check_timeout;
        check_pool.emplace(checks::Checks::parallel);
        checks = std::make_unique<checks::Checks>(std::move(settings), check_pool->get_executor());
        session->use_checks(checks.get());
    }

    asio::signal_set signals(io, SIGINT, SIGTERM);
#ifdef SIGBREAK
    signals.add(SIGBREAK);  // Windows: Ctrl-Break
#endif
    signals.async_wait([&](const asio::error_code& ec, int signo) {
        if (ec) return;
        base::log::info("signal {}: finishing in-flight work", signo);
        session->shut_down();
    });
    // The signal set's handlers are in place: one that came before them is acted on now.
    if (const int signo = early_stop_signal) {
        asio::post(io, [session, signo] {
            base::log::info("signal {} (before the server was ready): finishing in-flight work", signo);
            session->shut_down();
        });
    }
    // Windows: the console closing (or logoff, shutdown) ends the session like SIGTERM.
    const os::ConsoleCloseHook console_close([&io, session] {
        asio::post(io, [session] {
            base::log::info("console closing: finishing in-flight work");
            session->shut_down();
        });
    });
    // Loading the schemas takes a thread about as long as the whole start; begun before the
    // first reply, it took the main thread's core on a busy machine, which then waited for it
    // (1.7 ms in the median on two busy cores). A request that needs them sooner (a first
    // tools/list) starts the load itself. The pool's threads start then too, if no work has
    // started them (see DeferredPoolThreads).
    transport.after_first_write([&registry, &blocking_threads] {
        registry.start_loading();
        blocking_threads.start();
    });
    transport.start(session->receiver());
    asio::co_spawn(
        io,
        [&]() -> asio::awaitable<void> {
            co_await session->finished();
            transport.stop_reading();
            co_await transport.drained();
            signals.cancel();
            io.stop();
        },
        asio::detached);
    base::log::debug("serving on stdio; roots: {}", fmt::join(workspace.roots(), ", "));
    io.run();
    // The session has ended: a further SIGINT or SIGTERM (Codex sends SIGTERM twice) is ignored
    // from here, so the end stays exit 0 (the signal set's own handler goes with it).
    signals.clear();
    std::signal(SIGINT, SIG_IGN);
    std::signal(SIGTERM, SIG_IGN);
    blocking_threads.join();
    if (check_pool) check_pool->join();
    base::log::flush();
    return 0;
}
