// One language server kept running for `--lsp 'GLOB=COMMAND'` (clangd, pyright, rust-analyzer,
// typescript-language-server): started on first use in its root, spoken to through a
// protocol::Endpoint (Content-Length frames over its stdin and stdout; two threads only pump the
// bytes), told a file's bytes before and after a change (didOpen, then didChange), and the
// diagnostics it publishes for each are the findings. Blocking: checks/checks calls it on the
// checks pool, one call at a time per server.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.hpp"
#include "os/process.hpp"
#include "protocol/endpoint.hpp"
#include "checks/diagnostics.hpp"

namespace checks {

class LanguageServer {
public:
    using Clock = std::chrono::steady_clock;
    using Json = nlohmann::json;

    static constexpr std::size_t max_message = std::size_t{64} << 20;  // a bigger frame ends the server
    static constexpr std::size_t max_open_documents = 64;              // then the least recent is closed
    static constexpr int max_starts = 3;                               // a server that keeps dying is given up
    // How long to wait for more publishes when a server gives no version (it may publish twice).
    static constexpr auto settle = std::chrono::milliseconds(300);

    struct Failure {
        std::string message;  // why there are no findings ("exited with ...", "did not answer initialize")
        bool started = true;  // false: it could not be started at all
        bool timed_out = false;
        bool cancelled = false;
    };
    struct Findings {
        std::vector<Diagnostic> before;  // of the bytes before the change (when compared)
        std::vector<Diagnostic> after;
        bool compared = false;
    };

    // `argv`: the server's command; `root`: the real path of the folder it serves (its working
    // directory and workspace folder).
    LanguageServer(std::vector<std::string> argv, std::string root);
    ~LanguageServer();  // shutdown and exit, a short grace, then killed
    LanguageServer(const LanguageServer&) = delete;
    LanguageServer& operator=(const LanguageServer&) = delete;

    // The findings for `real` with the bytes `after` (just written), and for `before` (nullptr for
    // a new file) unless the server already told them. Starts the server when needed. Bounded by
    // `deadline`; `cancelled` is looked at every few milliseconds.
    base::Result<Findings, Failure> diagnose(const std::string& real, const std::string* before,
                                             const std::string& after, Clock::time_point deadline,
                                             const std::atomic<bool>* cancelled);

private:
    struct Published {
        std::optional<std::int64_t> version;
        std::uint64_t sequence = 0;  // of arrival
        Json diagnostics;
    };
    struct Document {
        std::string uri;  // as sent
        std::int64_t version = 0;
        std::string fingerprint;                          // of the text the server has
        std::optional<std::vector<Diagnostic>> findings;  // what it published for that text
    };

    base::Result<void, Failure> ensure_started(Clock::time_point deadline, const std::atomic<bool>* cancelled);
    base::Result<void, Failure> start_process();  // and sends initialize
    void stop_process();
    // Gives the server `text` for `uri` (open or change) and waits for its findings.
    base::Result<std::vector<Diagnostic>, Failure> show(const std::string& real, const std::string& uri,
                                                        const std::string& text, Clock::time_point deadline,
                                                        const std::atomic<bool>* cancelled);
    // The endpoint's output: one message framed into the outbox. Called with mutex_ held, as every
    // call into the endpoint is.
    void enqueue(std::string message);
    void read_messages();
    // The server's own requests and notifications (mutex_ held).
    void serve(protocol::Request request, protocol::Endpoint::Reply reply);
    void take_notification(const protocol::Notification& note);
    // Waits (mutex_ held through `lock`) until `ready` or the deadline, cancellation or exit.
    template <class Ready>
    base::Result<void, Failure> wait(std::unique_lock<std::mutex>& lock, Clock::time_point deadline,
                                     const std::atomic<bool>* cancelled, const char* what, Ready ready);
    std::string exit_message() const;

    const std::vector<std::string> argv_;
    const std::string root_;

    std::mutex call_mutex_;  // one diagnose at a time
    std::unique_ptr<os::ChildProcess> process_;
    std::thread reader_;
    int starts_ = 0;
    std::map<std::string, Document> documents_;  // by normalized uri; touched by the caller only
    std::list<std::string> recent_;              // documents_' keys, most recent first

    // What is sent goes through an outbox that one writer thread empties, so neither the caller
    // nor the reader (answering the server's requests) ever blocks on a server that stops reading.
    static constexpr std::size_t max_outbox = std::size_t{256} << 20;
    std::mutex outbox_mutex_;
    std::condition_variable outbox_ready_;
    std::deque<std::string> outbox_;
    std::size_t outbox_bytes_ = 0;
    bool outbox_closed_ = false;
    bool writing_ = false;  // the writer holds a frame it took from the outbox
    std::condition_variable outbox_drained_;
    std::thread writer_;
    void write_messages();

    std::mutex mutex_;  // what the reader shares with the caller
    std::condition_variable changed_;
    bool running_ = false;  // initialized and not exited
    bool exited_ = false;   // the reader saw the end of its output
    // The JSON-RPC endpoint of the running process (ids, answers to the server's requests); made
    // at each start.
    std::shared_ptr<protocol::Endpoint> endpoint_;
    bool initializing_ = false;  // initialize sent and not yet taken by a call
    std::optional<protocol::Endpoint::Outcome> initialize_answer_;
    std::set<std::string> watched_;               // normalized uris of the documents open in the server
    std::map<std::string, Published> published_;  // by normalized uri; watched ones only
    std::uint64_t sequence_ = 0;
};

}  // namespace checks
