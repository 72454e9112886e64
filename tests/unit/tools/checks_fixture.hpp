// What the tests of post-write checks and of --lsp share: a tools fixture whose calls run the given
// check settings on a pool of their own, joined (and the checks, with their language servers,
// ended) before the workspace goes.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <asio/thread_pool.hpp>

#include "tests/unit/tools/fixture.hpp"
#include "checks/checks.hpp"

namespace tools_test {

struct WithChecks {
    Fixture f;
    asio::thread_pool pool{checks::Checks::parallel};
    std::unique_ptr<checks::Checks> checks;

    explicit WithChecks(checks::CheckSettings settings) {
        checks = std::make_unique<checks::Checks>(std::move(settings), pool.get_executor());
        f.ctx.checks = checks.get();
    }
    WithChecks(const WithChecks&) = delete;
    WithChecks& operator=(const WithChecks&) = delete;
    ~WithChecks() {
        pool.join();
        checks.reset();
    }

    // Settings from --check specs ("GLOB=COMMAND") and --lsp specs, with one timeout for both.
    static checks::CheckSettings settings(const std::vector<std::string>& check_specs,
                                          const std::vector<std::string>& lsp_specs,
                                          std::chrono::milliseconds timeout) {
        checks::CheckSettings out;
        for (const auto& spec : check_specs) out.rules.push_back(checks::CheckRule::parse(spec).value());
        for (const auto& spec : lsp_specs)
            out.language_servers.push_back(checks::CheckRule::parse_language_server(spec).value());
        out.timeout = timeout;
        return out;
    }
};

}  // namespace tools_test
