// An in-process client for session tests (clangd's LSPClient idea): a Transport that keeps what
// the server sends, a Session on it over a temporary root, and helpers that run the io_context
// until the message a test waits for has been written. No child process, no pipes.
#pragma once

#include <doctest/doctest.h>

#include <chrono>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/io_context.hpp>
#include <asio/thread_pool.hpp>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "base/log.hpp"
#include "os/workspace.hpp"
#include "protocol/versions.hpp"
#include "server/config.hpp"
#include "server/session.hpp"
#include "server/transport.hpp"
#include "tools/registry.hpp"

namespace session_test {

using Json = nlohmann::json;
namespace fs = std::filesystem;

class FakeTransport final : public server::Transport {
public:
    void start(Receiver given) override { receiver = std::move(given); }
    void send(std::string message) override { sent.push_back(std::move(message)); }
    void stop_reading() override { stopped = true; }
    asio::awaitable<void> drained() override { co_return; }

    Receiver receiver;
    std::deque<std::string> sent;
    bool stopped = false;
};

inline fs::path make_root() {
    static int counter = 0;
    fs::path p = fs::temp_directory_path() /
                 ("mcp-edit-session-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::create_directories(p);
    return fs::canonical(p);
}

class Client {
public:
    explicit Client(const std::function<void(server::Config&)>& configure = {})
        : root_(make_root()), config_(make_config(root_, configure)), workspace_({root_.string()}) {
        base::log::set_level(base::log::Level::off);  // the session's info lines would fill the test output
        session_ =
            std::make_shared<server::Session>(io_, pool_.get_executor(), config_, transport_, workspace_, registry_);
        transport_.start(session_->receiver());
    }
    ~Client() {
        // Input ends: calls waiting on this client are abandoned, the rest finish.
        bool finished = false;
        transport_.receiver.on_eof();
        asio::co_spawn(
            io_,
            [s = session_, &finished]() -> asio::awaitable<void> {
                co_await s->finished();
                finished = true;
            },
            asio::detached);
        run_until([&] { return finished; });
        session_.reset();
        pool_.join();
        std::error_code ignored;
        fs::remove_all(root_, ignored);
    }
    Client(const Client&) = delete;
    Client& operator=(const Client&) = delete;

    void send_line(const std::string& line) { transport_.receiver.on_line(line); }
    void send(const Json& message) { send_line(message.dump()); }
    void request(const Json& id, const std::string& method, Json params = Json::object()) {
        send({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
    }
    void notify(const std::string& method, Json params = Json::object()) {
        send({{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
    }
    void respond(const Json& id, Json result) { send({{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}}); }

    // Runs the io_context until `done` holds (true) or `limit` has passed (false).
    bool run_until(const std::function<bool()>& done, std::chrono::milliseconds limit = std::chrono::seconds(5)) {
        const auto end = std::chrono::steady_clock::now() + limit;
        while (!done()) {
            if (std::chrono::steady_clock::now() >= end) return false;
            io_.restart();
            // Nothing to run here: work may be on the pool, or the test waits for time to pass.
            if (io_.run_one_for(std::chrono::milliseconds(5)) == 0)
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        return true;
    }

    // What the server wrote that no wait_for has taken yet.
    const std::deque<std::string>& sent() const { return transport_.sent; }

    // The first message the server wrote that `match` accepts (taken out), once it is there.
    std::optional<Json> wait_for(const std::function<bool(const Json&)>& match,
                                 std::chrono::milliseconds limit = std::chrono::seconds(5)) {
        std::optional<Json> found;
        run_until(
            [&] {
                for (auto it = transport_.sent.begin(); it != transport_.sent.end(); ++it) {
                    Json message = Json::parse(*it);
                    if (!match(message)) continue;
                    transport_.sent.erase(it);
                    found = std::move(message);
                    return true;
                }
                return false;
            },
            limit);
        return found;
    }
    // The reply to request `id` (a response, not a request of the server's with that id). Each wait
    // below fails the test when what it waits for has not come within 5 s (and returns null).
    Json reply(const Json& id) {
        auto r = wait_for(
            [&](const Json& m) { return m.is_object() && !m.contains("method") && m.value("id", Json()) == id; });
        return r ? *r : missing("the reply to request " + id.dump());
    }
    // A request the server sent the client (elicitation/create, roots/list).
    Json server_request(const std::string& method) {
        auto r = wait_for(
            [&](const Json& m) { return m.is_object() && m.value("method", "") == method && m.contains("id"); });
        return r ? *r : missing("a " + method + " request from the server");
    }
    Json notification(const std::string& method) {
        auto r = wait_for(
            [&](const Json& m) { return m.is_object() && m.value("method", "") == method && !m.contains("id"); });
        return r ? *r : missing("a " + method + " notification");
    }
    // A wait that ended without its message: a failure naming what was awaited and what came instead.
    Json missing(const std::string& what) const {
        std::string instead;
        for (const auto& line : transport_.sent) instead += "\n  " + line.substr(0, 300);
        FAIL_CHECK("waited 5 s for " << what << "; it did not come. Written and not taken meanwhile:"
                                     << (instead.empty() ? std::string(" nothing") : instead));
        return Json();
    }
    // Lets the server work for `time` and returns everything it wrote meanwhile (taken out).
    std::vector<Json> drain(std::chrono::milliseconds time = std::chrono::milliseconds(50)) {
        run_until([] { return false; }, time);
        std::vector<Json> out;
        for (auto& line : transport_.sent) out.push_back(Json::parse(line));
        transport_.sent.clear();
        return out;
    }

    Json initialize(const std::string& version = "2025-11-25", Json capabilities = Json::object()) {
        request(0, "initialize",
                {{"protocolVersion", version},
                 {"capabilities", std::move(capabilities)},
                 {"clientInfo", {{"name", "unit"}, {"version", "1"}}}});
        Json r = reply(0);
        notify("notifications/initialized");
        return r;
    }
    // _meta of a 2026-07-28 request.
    static Json modern_meta(Json capabilities = Json::object()) {
        return {{std::string(protocol::meta_protocol_version), std::string(protocol::modern_version)},
                {std::string(protocol::meta_client_capabilities), std::move(capabilities)},
                {std::string(protocol::meta_client_info), {{"name", "unit"}, {"version", "1"}}}};
    }
    static Json call_params(const std::string& tool, Json args) {
        return {{"name", tool}, {"arguments", std::move(args)}};
    }

    // The arguments of an edit of a.txt from "one" to "two".
    Json edit_args() const { return {{"file_path", path("a.txt")}, {"old_string", "one"}, {"new_string", "two"}}; }
    // A legacy session that has read a.txt ("one\n") and started an edit of it (id 2), which
    // waits for the approval form when `capabilities` let the client show one.
    void start_legacy_edit(Json capabilities = {{"elicitation", Json::object()}}) {
        initialize("2025-11-25", std::move(capabilities));
        put("a.txt", "one\n");
        request(1, "tools/call", call_params("read", {{"file_path", path("a.txt")}}));
        reply(1);
        request(2, "tools/call", call_params("edit", edit_args()));
    }

    void put(const std::string& name, const std::string& bytes) const {
        std::ofstream(root_ / name, std::ios::binary) << bytes;
    }
    std::string get(const std::string& name) const {
        std::ifstream in(root_ / name, std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        return ss.str();
    }
    std::string path(const std::string& name) const { return (root_ / name).string(); }
    const fs::path& root() const { return root_; }
    FakeTransport& transport() { return transport_; }
    asio::io_context& io() { return io_; }
    server::Session& session() { return *session_; }

private:
    static server::Config make_config(const fs::path& root, const std::function<void(server::Config&)>& configure) {
        server::Config config;
        config.roots = {root.string()};
        config.roots_given = true;
        config.fsync = false;
        if (configure) configure(config);
        return config;
    }

    fs::path root_;
    server::Config config_;
    os::Workspace workspace_;
    tools::Registry registry_;
    FakeTransport transport_;
    asio::io_context io_;
    asio::thread_pool pool_{1};
    std::shared_ptr<server::Session> session_;
};

}  // namespace session_test
