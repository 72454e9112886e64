// libFuzzer target: the whole server in process (a Session on an in-memory transport, as the unit
// tests drive it), fed lines of messages of both eras; a structure-aware mutator (session_mutator.cpp) takes valid
// messages and confuses them: values of another JSON type, numbers out of range, deep nesting, huge
// strings, missing and repeated keys. Promises checked on every input: no crash, no internal error,
// every request with an id of its own gets one reply at most (exactly one unless the input cancels
// that request or the server is left waiting on the client at EOF), a trailing ping is answered, and
// the end of input ends the session. The server has two roots with files of the same names, and
// files whose names hold a newline, an ESC, quotes or 255 bytes; an input may have another holder
// keep the folder lock (hold_lock_line), and then the ping is answered while writes wait.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/io_context.hpp>
#include <nlohmann/json.hpp>

#include "base/log.hpp"
#include "fuzz/session_inputs.hpp"
#include "os/workspace.hpp"
#include "protocol/jsonrpc.hpp"
#include "protocol/versions.hpp"
#include "server/config.hpp"
#include "server/session.hpp"
#include "server/transport.hpp"
#include "tools/registry.hpp"

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

using namespace session_fuzz;

namespace {

using Json = nlohmann::json;
namespace fs = std::filesystem;

// A failed promise: say which, then abort so that libFuzzer keeps the input.
[[noreturn]] void fail(const std::string& why) {
    std::fprintf(stderr, "fuzz_session: %s\n", why.c_str());
    std::abort();
}

class MemoryTransport final : public server::Transport {
public:
    void start(Receiver given) override { receiver = std::move(given); }
    void send(std::string message) override { sent.push_back(std::move(message)); }
    void stop_reading() override {}
    asio::awaitable<void> drained() override { co_return; }

    Receiver receiver;
    std::vector<std::string> sent;
};

// Error-level logs mean an exception reached a backstop (a handler that threw): a finding.
struct LoggedErrors {
    std::mutex mutex;
    std::vector<std::string> errors;
};

struct Setup {
    fs::path root;
    fs::path second_root;  // a second root with files of the same names
    server::Config config;
    std::unique_ptr<os::Workspace> workspace;
    tools::Registry registry;
    std::shared_ptr<LoggedErrors> logged = std::make_shared<LoggedErrors>();

    Setup() {
        root = fs::temp_directory_path() / "mcp-edit-fuzz-session-root";
        fs::create_directories(root);
        root = fs::canonical(root);
        second_root = fs::temp_directory_path() / "mcp-edit-fuzz-session-root2";
        fs::create_directories(second_root);
        second_root = fs::canonical(second_root);
        config.roots = {root.generic_string(), second_root.generic_string()};
        config.roots_given = true;
        config.fsync = false;
        workspace = std::make_unique<os::Workspace>(config.roots);
        std::string ignored;
        base::log::to_stderr_or_file(base::log::Level::off, "", ignored);  // nothing on stderr
        base::log::also_forward(base::log::Level::error,
                                [errors = logged](base::log::Level, std::string_view, std::string_view text) {
                                    const std::lock_guard lock(errors->mutex);
                                    errors->errors.emplace_back(text);
                                });
        base::log::set_level(base::log::Level::error);
    }

    // The roots as every input finds them: a.txt and b.txt in both, the odd names and sub/c.txt in
    // the first, nothing else.
    void reset_root() const {
        std::error_code ignored;
        for (const fs::path& dir : {root, second_root}) {
            for (const auto& entry : fs::directory_iterator(dir, ignored)) fs::remove_all(entry.path(), ignored);
            std::ofstream(dir / "a.txt", std::ios::binary) << "one\ntwo\nthree\n";
            std::ofstream(dir / "b.txt", std::ios::binary) << "\x01\x02 alpha\r\nbeta\r\n";
        }
        for (const std::string& name : odd_names) std::ofstream(root / name, std::ios::binary) << "one\r\ntwo\n";
        fs::create_directories(root / "sub", ignored);
        std::ofstream(root / "sub" / "c.txt", std::ios::binary) << "one\n";
    }
};

Setup& setup() {
    static Setup s;
    return s;
}

std::vector<std::string> split_lines(std::string_view text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        lines.emplace_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

constexpr std::string_view final_ping_id = "fuzz-final-ping";

// The folder lock of `dir` held as another process would hold it; -1 when it could not be taken.
int hold_folder_lock(const fs::path& dir) {
    const int fd = ::open((dir / ".mcp-edit-lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) return -1;
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

// The ids of requests in `lines` that no other message of the input names (so their replies can
// be counted): single lines, parsed, without a repeated key.
std::map<std::string, protocol::RequestId> countable_requests(const std::vector<std::string>& lines) {
    std::map<std::string, int> seen;
    std::map<std::string, protocol::RequestId> requests;
    for (const std::string& line : lines) {
        protocol::ParsedLine parsed = protocol::parse_line(line);
        if (parsed.kind == protocol::ParsedLine::Kind::failure) continue;
        const auto note_id = [&seen](const Json& v) {
            if (const Json* id = protocol::member(v, "id"))
                if (auto rid = protocol::RequestId::from_json(*id)) ++seen[rid->key()];
        };
        if (parsed.kind == protocol::ParsedLine::Kind::batch) {
            for (const Json& v : parsed.value) note_id(v);
            continue;
        }
        note_id(parsed.value);
        if (!parsed.duplicate_key.empty()) continue;
        protocol::Message m = protocol::classify(parsed.value);
        if (auto* request = std::get_if<protocol::Request>(&m)) requests.emplace(request->id.key(), request->id);
    }
    for (auto it = requests.begin(); it != requests.end();)
        it = seen[it->first] == 1 ? std::next(it) : requests.erase(it);
    return requests;
}

// The ids (keys) that the input's cancellation notifications name, in single lines and batches: a
// request so cancelled may end without a reply; every other request must get one.
std::set<std::string> cancelled_requests(const std::vector<std::string>& lines) {
    std::set<std::string> cancelled;
    for (const std::string& line : lines) {
        if (line.find("notifications/cancelled") == std::string::npos) continue;
        protocol::ParsedLine parsed = protocol::parse_line(line);
        if (parsed.kind == protocol::ParsedLine::Kind::failure) continue;
        const auto note = [&cancelled](const Json& v) {
            protocol::Message m = protocol::classify(v);
            const auto* n = std::get_if<protocol::Notification>(&m);
            if (!n || n->method != "notifications/cancelled") return;
            if (const Json* id = protocol::member(n->params, "requestId"))
                if (auto rid = protocol::RequestId::from_json(*id)) cancelled.insert(rid->key());
        };
        if (parsed.kind == protocol::ParsedLine::Kind::batch) {
            for (const Json& v : parsed.value) note(v);
        } else {
            note(parsed.value);
        }
    }
    return cancelled;
}

// Replies by id key, from everything the server wrote; also whether it asked the client anything.
struct Output {
    std::map<std::string, std::vector<Json>> replies;
    bool asked_client = false;
};

Output read_output(const std::vector<std::string>& sent) {
    Output out;
    const auto take = [&out](const Json& m) {
        if (!m.is_object()) fail("a message that is no object: " + m.dump());
        if (m.contains("method")) {
            if (m.contains("id")) out.asked_client = true;
            return;
        }
        if (const Json* error = protocol::member(m, "error"))
            if (const Json* code = protocol::member(*error, "code"); code && *code == protocol::internal_error)
                fail("an internal error: " + m.dump());
        if (const Json* id = protocol::member(m, "id"))
            if (auto rid = protocol::RequestId::from_json(*id)) out.replies[rid->key()].push_back(m);
    };
    for (const std::string& line : sent) {
        const Json m = Json::parse(line, nullptr, false);
        if (m.is_discarded()) fail("an output line that is no JSON: " + line.substr(0, 200));
        if (m.is_array()) {
            for (const Json& element : m) take(element);
        } else {
            take(m);
        }
    }
    return out;
}

void run_one(std::string_view input) {
    Setup& s = setup();
    s.reset_root();
    s.logged->errors.clear();
    std::vector<std::string> lines = split_lines(input);
    const bool ping_id_taken = input.find(final_ping_id) != std::string_view::npos;
    const std::string final_ping =
        Json{{"jsonrpc", "2.0"}, {"id", std::string(final_ping_id)}, {"method", "ping"}}.dump();

    asio::io_context io(1);
    MemoryTransport transport;
    // Blocking work runs on the io thread too: one thread, the same run for the same input.
    auto session =
        std::make_shared<server::Session>(io, io.get_executor(), s.config, transport, *s.workspace, s.registry);
    transport.start(session->receiver());
    const auto settle = [&io] {
        io.restart();
        io.poll();
    };
    int held_lock = -1;
    for (const std::string& line : lines) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;  // as the stdio transport skips it
        if (line == hold_lock_line) {
            if (held_lock < 0) held_lock = hold_folder_lock(s.root);
            continue;
        }
        transport.receiver.on_line(line);
        settle();
    }
    transport.receiver.on_line(final_ping);
    settle();
    const Output before_eof = read_output(transport.sent);
    if (held_lock >= 0) {
        // While writes wait for the lock, the io thread goes on: the ping is answered at once.
        const auto ping = before_eof.replies.find(protocol::RequestId(std::string(final_ping_id)).key());
        if (!ping_id_taken && ping == before_eof.replies.end())
            fail("the trailing ping was not answered while another process held the folder lock");
        ::flock(held_lock, LOCK_UN);
        ::close(held_lock);
    }

    transport.receiver.on_eof();
    bool finished = false;
    asio::co_spawn(
        io,
        [session, &finished]() -> asio::awaitable<void> {
            co_await session->finished();
            finished = true;
        },
        asio::detached);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!finished && std::chrono::steady_clock::now() < deadline) {
        io.restart();
        io.run_one_for(std::chrono::milliseconds(10));
    }
    if (!finished) fail("the session did not end at the end of input");
    if (!s.logged->errors.empty()) fail("error logged: " + s.logged->errors.front());

    const Output out = read_output(transport.sent);
    if (!ping_id_taken) {
        const auto ping = out.replies.find(protocol::RequestId(std::string(final_ping_id)).key());
        if (ping == out.replies.end() || ping->second.size() != 1 || !ping->second[0].contains("result"))
            fail("the trailing ping was not answered once with a result");
    }
    lines.push_back(final_ping);
    const std::set<std::string> cancelled = cancelled_requests(lines);
    for (const auto& [key, id] : countable_requests(lines)) {
        const auto it = out.replies.find(key);
        const std::size_t n = it == out.replies.end() ? 0 : it->second.size();
        if (n > 1) fail("request " + key + " got " + std::to_string(n) + " replies");
        // No reply is allowed only for a request the input cancels, or one left waiting on the client at EOF.
        const bool answered_before_eof = before_eof.replies.count(key) > 0;
        if (n == 0 && cancelled.count(key) == 0 && !(before_eof.asked_client && !answered_before_eof))
            fail("request " + key + " got no reply" + (cancelled.empty() ? std::string() : " (it was not cancelled)"));
    }
    session.reset();
}

std::string join_lines(const std::vector<std::string>& lines) {
    std::string out;
    for (std::size_t i = 0; i < lines.size(); ++i) out += (i ? "\n" : "") + lines[i];
    return out;
}

}  // namespace

std::string session_fuzz::second_root_path() { return setup().second_root.generic_string(); }

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    run_one(std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
    Rng rng(seed);
    std::vector<std::string> lines = split_lines(std::string_view(reinterpret_cast<const char*>(data), size));
    if (lines.size() == 1 && lines[0].empty()) lines.clear();
    const std::size_t i = pick(rng, lines.size());
    switch (pick(rng, 11)) {
        case 0:
        case 1:
            lines.insert(lines.begin() + static_cast<long>(std::min(i, lines.size())), template_message(rng).dump());
            break;
        case 9:
            lines.insert(lines.begin() + static_cast<long>(std::min(i, lines.size())), std::string(hold_lock_line));
            break;
        case 2:
            if (lines.empty())
                lines.push_back(template_message(rng).dump());
            else
                lines[i] = template_message(rng).dump();
            break;
        case 3:
            if (!lines.empty()) lines.erase(lines.begin() + static_cast<long>(i));
            break;
        case 4:
            if (!lines.empty()) lines.insert(lines.begin() + static_cast<long>(i), lines[i]);
            break;
        case 5:
        case 6:
        case 7:
        case 8: {
            if (lines.empty()) lines.push_back(template_message(rng).dump());
            const std::size_t j = pick(rng, lines.size());
            Json parsed = Json::parse(lines[j], nullptr, false);
            if (parsed.is_discarded()) parsed = template_message(rng);
            lines[j] = mutate_message(std::move(parsed), rng);
            break;
        }
        default: return LLVMFuzzerMutate(data, size, max_size);
    }
    const std::string out = join_lines(lines);
    if (out.size() > max_size) return LLVMFuzzerMutate(data, size, max_size);
    std::memcpy(data, out.data(), out.size());
    return out.size();
}
