// Post-write checks (`--check 'GLOB=COMMAND'`): after a change is written, the commands whose
// glob matches each written file run on it, and on its pre-image too (a copy in a private temp
// folder, or the remembered result of the last check of those very bytes), so the result can say
// what the change introduced and what it fixed. Language servers (`--lsp 'GLOB=COMMAND'`,
// checks/language_server) are the same kind of check, kept running and told both images. They run
// on a pool of their own (at most `parallel` at once), never on the io thread; the call's
// cancellation kills a command and ends a wait for a language server.
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <asio/any_io_executor.hpp>
#include <asio/awaitable.hpp>

#include "os/workspace.hpp"
#include "checks/check_report.hpp"
#include "checks/check_rules.hpp"
#include "checks/language_server.hpp"

namespace checks {

struct CheckSettings {
    std::vector<CheckRule> rules;
    std::vector<CheckRule> language_servers;  // --lsp: started once per rule and root, told each file
    std::chrono::milliseconds timeout{std::chrono::seconds(10)};
    std::size_t max_output = 64 * 1024;
};

// One written file.
struct CheckTarget {
    std::string real;
    std::string display;
    const std::string* before = nullptr;  // the pre-image; nullptr for a file the change created
    const std::string* after = nullptr;   // the bytes written
};

class Checks {
public:
    // At most this many checks run at once (the size of the pool they run on).
    static constexpr std::size_t parallel = 2;
    // Results of checks of the written bytes remembered per (rule, file), to serve as the next
    // change's pre-image result.
    static constexpr std::size_t remembered = 256;

    // `pool`: where the checks block (a pool of `parallel` threads).
    Checks(CheckSettings settings, asio::any_io_executor pool);

    // Language servers running at once (one per --lsp rule and root); past it the least recently
    // used one is stopped.
    static constexpr std::size_t max_language_servers = 8;

    ~Checks();  // stops the language servers

    bool empty() const { return settings_.rules.empty() && settings_.language_servers.empty(); }

    // Runs every matching check on `targets` and waits for them (`targets`' bytes must live until
    // then). Empty when no glob matches.
    asio::awaitable<std::vector<CheckOutcome>> run(const os::Workspace& workspace, std::vector<CheckTarget> targets,
                                                   std::shared_ptr<std::atomic<bool>> cancelled);

    struct Job;  // one check of one file (checks.cpp)

private:
    struct Remembered {
        std::string fingerprint;  // of the bytes checked
        std::vector<Diagnostic> diagnostics;
    };

    void run_language_server(Job& job, const std::string& root, const std::atomic<bool>* cancelled);
    std::shared_ptr<LanguageServer> language_server(std::size_t rule, const std::string& root);

    CheckSettings settings_;
    asio::any_io_executor pool_;
    std::mutex servers_mutex_;
    // By (rule index, root), with the tick of their last use; a call holds its server by a
    // shared_ptr, so one stopped for room finishes that call first.
    std::map<std::pair<std::size_t, std::string>, std::pair<std::shared_ptr<LanguageServer>, std::uint64_t>> servers_;
    std::uint64_t server_tick_ = 0;
    std::mutex cache_mutex_;                                           // the pool's threads share the cache
    std::map<std::pair<std::size_t, std::string>, Remembered> cache_;  // (rule index, real path)
};

// The path of `real` relative to the root that holds it ('/'-separated); `real` when none does.
std::string path_in_roots(const os::Workspace& workspace, const std::string& real);

}  // namespace checks
