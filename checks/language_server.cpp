// The LSP client behind `--lsp`: the initialize handshake, the server's own requests answered
// (configuration, progress, capability registration), documents opened and changed with whole
// texts, and the wait for the publishDiagnostics of the version sent. JSON-RPC and framing are
// protocol/'s; the threads here only move bytes.
#include "checks/language_server.hpp"

#include <algorithm>

#include "base/log.hpp"
#include "ledger/fingerprint.hpp"
#include "checks/lsp_text.hpp"
#include "protocol/framing.hpp"

namespace checks {

namespace {

using lsp::field;

}  // namespace

LanguageServer::LanguageServer(std::vector<std::string> argv, std::string root)
    : argv_(std::move(argv)), root_(std::move(root)) {}

LanguageServer::~LanguageServer() {
    const std::lock_guard call(call_mutex_);
    stop_process();
}

base::Result<LanguageServer::Findings, LanguageServer::Failure> LanguageServer::diagnose(
    const std::string& real, const std::string* before, const std::string& after, Clock::time_point deadline,
    const std::atomic<bool>* cancelled) {
    const std::lock_guard call(call_mutex_);
    if (auto started = ensure_started(deadline, cancelled); !started) return base::fail(std::move(started.error()));
    const std::string uri = lsp::file_uri(real);
    const std::string key = lsp::normalized_uri(uri);
    Findings findings;
    if (before) {
        const auto known = documents_.find(key);
        if (known != documents_.end() && known->second.findings &&
            known->second.fingerprint == ledger::Fingerprint::of(*before).hex) {
            findings.before = *known->second.findings;
        } else {
            auto shown = show(real, uri, *before, deadline, cancelled);
            if (!shown) return base::fail(std::move(shown.error()));
            findings.before = std::move(*shown);
        }
        attach_line_text(findings.before, real, *before);
        findings.compared = true;
    }
    auto shown = show(real, uri, after, deadline, cancelled);
    if (!shown) return base::fail(std::move(shown.error()));
    findings.after = std::move(*shown);
    attach_line_text(findings.after, real, after);
    return findings;
}

base::Result<void, LanguageServer::Failure> LanguageServer::ensure_started(Clock::time_point deadline,
                                                                           const std::atomic<bool>* cancelled) {
    std::unique_lock lock(mutex_);
    if (running_ && !exited_) return {};
    // A server still busy with initialize (a slow first start) is waited for again, not restarted.
    const bool initializing = process_ && !exited_ && initializing_;
    lock.unlock();
    if (!initializing) {
        const std::string last_words = process_ ? exit_message() : "";
        stop_process();
        if (starts_ >= max_starts)
            return base::fail(Failure{"it was started " + std::to_string(starts_) +
                                          " times and ended each time; not started again" +
                                          (last_words.empty() ? "" : " (last: " + last_words + ")"),
                                      false});
        if (auto started = start_process(); !started) return started;
    }
    lock.lock();
    auto answered =
        wait(lock, deadline, cancelled, "answer initialize", [&] { return initialize_answer_.has_value(); });
    if (!answered) return answered;
    const protocol::Endpoint::Outcome outcome = std::move(*initialize_answer_);
    initialize_answer_.reset();
    initializing_ = false;
    if (!outcome.malformed.empty())
        return base::fail(Failure{"initialize failed: its answer cannot be trusted (" + outcome.malformed + ")"});
    const Json response = outcome.response.value_or(Json::object());
    if (const auto& error = field(response, "error"); !error.is_null()) {
        const auto& message = field(error, "message");
        return base::fail(
            Failure{"initialize failed: " + (message.is_string() ? message.get<std::string>() : error.dump())});
    }
    running_ = true;
    endpoint_->notify("initialized", Json::object());
    return {};
}

base::Result<void, LanguageServer::Failure> LanguageServer::start_process() {
    ++starts_;
    process_ = std::make_unique<os::ChildProcess>();
    if (auto started = process_->start(argv_, root_); !started) {
        process_.reset();
        return base::fail(Failure{std::move(started.error().message), false});
    }
    documents_.clear();
    recent_.clear();
    {
        const std::lock_guard lock(outbox_mutex_);
        outbox_.clear();
        outbox_bytes_ = 0;
        outbox_closed_ = false;
    }
    const std::lock_guard lock(mutex_);
    exited_ = false;
    running_ = false;
    published_.clear();
    watched_.clear();
    initializing_ = true;
    initialize_answer_.reset();
    protocol::Endpoint::Handlers handlers;
    handlers.request = [this](protocol::Request request, protocol::Endpoint::Reply reply) {
        serve(std::move(request), std::move(reply));
    };
    handlers.notification = [this](const protocol::Notification& note) { take_notification(note); };
    endpoint_ = protocol::Endpoint::make(
        protocol::lsp_dialect, protocol::Endpoint::Limits{max_outbox},
        [this](std::string message) { enqueue(std::move(message)); }, std::move(handlers));
    reader_ = std::thread([this] { read_messages(); });
    writer_ = std::thread([this] { write_messages(); });

    const std::string root_uri = lsp::file_uri(root_);
    const auto slash = root_.find_last_of('/');
    const Json capabilities = {{"textDocument",
                                {{"synchronization", {{"dynamicRegistration", false}, {"didSave", false}}},
                                 {"publishDiagnostics", {{"relatedInformation", false}, {"versionSupport", true}}}}},
                               {"workspace", {{"configuration", true}, {"workspaceFolders", true}}},
                               {"general", {{"positionEncodings", {"utf-16"}}}}};
    const Json params = {
        {"processId", nullptr},
        {"clientInfo", {{"name", "mcp-edit"}}},
        {"rootUri", root_uri},
        {"rootPath", root_},
        {"workspaceFolders",
         {{{"uri", root_uri}, {"name", slash == std::string::npos ? root_ : root_.substr(slash + 1)}}}},
        {"capabilities", capabilities}};
    // No deadline of its own: a slow first start is waited for by each call until its deadline.
    auto sent =
        endpoint_->request("initialize", params, Clock::time_point::max(), [this](protocol::Endpoint::Outcome outcome) {
            initialize_answer_ = std::move(outcome);
            changed_.notify_all();
        });
    if (!sent) return base::fail(Failure{"initialize could not be sent: " + sent.error()});
    return {};
}

void LanguageServer::stop_process() {
    if (!process_) return;
    bool polite = false;
    {
        const std::lock_guard lock(mutex_);
        polite = running_ && !exited_;
        running_ = false;
        if (polite) {
            // shutdown's answer is not awaited: exit follows at once, and a short grace ends it.
            (void)endpoint_->request("shutdown", Json(), Clock::time_point::max(), nullptr);
            endpoint_->notify("exit", Json());
        }
    }
    if (polite) {
        std::unique_lock lock(outbox_mutex_);  // written within the grace, or not at all
        outbox_drained_.wait_for(lock, std::chrono::milliseconds(500), [&] { return outbox_.empty() && !writing_; });
    }
    process_->stop(polite ? std::chrono::milliseconds(500) : std::chrono::milliseconds(0));
    {
        const std::lock_guard lock(outbox_mutex_);
        outbox_closed_ = true;
        outbox_ready_.notify_all();
    }
    if (writer_.joinable()) writer_.join();  // a write in progress fails once the process is gone
    if (reader_.joinable()) reader_.join();
    process_.reset();
    const std::lock_guard lock(mutex_);
    initializing_ = false;
    initialize_answer_.reset();
    endpoint_.reset();
}

base::Result<std::vector<Diagnostic>, LanguageServer::Failure> LanguageServer::show(
    const std::string& real, const std::string& uri, const std::string& text, Clock::time_point deadline,
    const std::atomic<bool>* cancelled) {
    const std::string key = lsp::normalized_uri(uri);
    auto found = documents_.find(key);
    if (found == documents_.end() && documents_.size() >= max_open_documents) {
        const std::string oldest = recent_.back();
        recent_.pop_back();
        const std::lock_guard lock(mutex_);
        endpoint_->notify("textDocument/didClose", {{"textDocument", {{"uri", documents_[oldest].uri}}}});
        documents_.erase(oldest);
        watched_.erase(oldest);
        published_.erase(oldest);
    }
    recent_.remove(key);
    recent_.push_front(key);
    const bool opening = found == documents_.end();
    Document& document = documents_[key];
    document.uri = uri;
    document.version += 1;
    document.fingerprint = ledger::Fingerprint::of(text).hex;
    document.findings.reset();
    const std::int64_t version = document.version;
    // Text that is not UTF-8 reaches the server with U+FFFD in place of each bad byte.
    Json params;
    if (opening) {
        params["textDocument"] = {
            {"uri", uri}, {"languageId", lsp::language_id(real)}, {"version", version}, {"text", text}};
    } else {
        params["textDocument"] = {{"uri", uri}, {"version", version}};
        params["contentChanges"] = Json::array({{{"text", text}}});
    }
    std::unique_lock lock(mutex_);
    watched_.insert(key);
    const std::uint64_t sent_after = sequence_;
    endpoint_->notify(opening ? "textDocument/didOpen" : "textDocument/didChange", std::move(params));

    // A publish for this version (or a later one), or, from a server that gives no versions, the
    // last of those that arrive after the change until `settle` passes without another.
    Clock::time_point quiet_since{};
    std::uint64_t seen = sent_after;
    auto waited = wait(lock, deadline, cancelled, "publish diagnostics", [&] {
        const auto it = published_.find(key);
        if (it == published_.end() || it->second.sequence <= sent_after) return false;
        if (it->second.version) return *it->second.version >= version;
        if (it->second.sequence != seen) {
            seen = it->second.sequence;
            quiet_since = Clock::now();
        }
        return Clock::now() - quiet_since >= settle;
    });
    if (!waited) {
        // A versionless server that published and then went quiet past the deadline did answer.
        const auto it = published_.find(key);
        if (!(waited.error().timed_out && it != published_.end() && it->second.sequence > sent_after))
            return base::fail(std::move(waited.error()));
    }
    auto findings = lsp::read_diagnostics(published_[key].diagnostics, real);
    lock.unlock();
    document.findings = findings;
    return findings;
}

template <class Ready>
base::Result<void, LanguageServer::Failure> LanguageServer::wait(std::unique_lock<std::mutex>& lock,
                                                                 Clock::time_point deadline,
                                                                 const std::atomic<bool>* cancelled, const char* what,
                                                                 Ready ready) {
    constexpr auto tick = std::chrono::milliseconds(20);
    for (;;) {
        if (ready()) return {};
        if (exited_) {
            lock.unlock();
            Failure failure{"it ended before it could " + std::string(what) + " (" + exit_message() + ")"};
            lock.lock();
            return base::fail(std::move(failure));
        }
        if (cancelled && cancelled->load()) return base::fail(Failure{"the call was cancelled", true, false, true});
        const auto now = Clock::now();
        if (now >= deadline) return base::fail(Failure{"it did not " + std::string(what) + " in time", true, true});
        changed_.wait_until(lock, std::min(deadline, now + tick));
    }
}

std::string LanguageServer::exit_message() const {
    std::string tail = process_ ? process_->error_output() : "";
    while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r')) tail.pop_back();
    if (const auto line = tail.find_last_of('\n'); line != std::string::npos) tail = tail.substr(line + 1);
    return tail.empty() ? "nothing on stderr" : "stderr: " + tail;
}

void LanguageServer::enqueue(std::string message) {
    auto frame = protocol::write_frame(protocol::Framing::content_length, std::move(message), max_outbox);
    const std::lock_guard lock(outbox_mutex_);
    if (outbox_closed_) return;
    if (!frame || outbox_bytes_ + frame->size() > max_outbox) {
        // It has not read what it was sent for a long while: it is treated as ended.
        base::log::warn("language server {}: {} MiB unread on its input; it will be restarted", argv_.front(),
                        outbox_bytes_ >> 20);
        outbox_closed_ = true;
        exited_ = true;  // mutex_ is held (see enqueue's comment)
        changed_.notify_all();
        return;
    }
    outbox_bytes_ += frame->size();
    outbox_.push_back(std::move(*frame));
    outbox_ready_.notify_one();
}

void LanguageServer::write_messages() {
    std::unique_lock lock(outbox_mutex_);
    for (;;) {
        outbox_ready_.wait(lock, [&] { return outbox_closed_ || !outbox_.empty(); });
        if (outbox_.empty()) return;  // closed, and all written
        std::string frame = std::move(outbox_.front());
        outbox_.pop_front();
        outbox_bytes_ -= frame.size();
        writing_ = true;
        lock.unlock();
        const bool written = process_->write(frame);
        lock.lock();
        writing_ = false;
        if (outbox_.empty()) outbox_drained_.notify_all();
        if (!written) {  // it stopped reading for good (it exited): nothing more can reach it
            outbox_.clear();
            outbox_bytes_ = 0;
            outbox_closed_ = true;
            outbox_drained_.notify_all();
            return;
        }
    }
}

void LanguageServer::read_messages() {
    protocol::FrameReader frames(protocol::Framing::content_length, max_message);
    char chunk[65536];
    std::string broken;  // why its output is not LSP
    while (broken.empty()) {
        const std::size_t got = process_->read(chunk, sizeof chunk);
        if (got == 0) break;
        const std::lock_guard lock(mutex_);
        frames.feed(std::string_view(chunk, got), [&](protocol::FrameReader::Event event) {
            switch (event.kind) {
                case protocol::FrameReader::Event::Kind::frame: endpoint_->receive(event.body); return true;
                case protocol::FrameReader::Event::Kind::oversized:
                    broken = "a message of " + std::to_string(event.bytes) + " bytes, over the limit of " +
                             std::to_string(max_message) + " bytes";
                    return false;
                case protocol::FrameReader::Event::Kind::broken: broken = std::move(event.why); return false;
            }
            return false;
        });
    }
    // Output that is not LSP counts as an end: the next call stops it and starts it again.
    if (!broken.empty())
        base::log::warn("language server {}: its output is not LSP ({}); it will be restarted", argv_.front(), broken);
    const std::lock_guard lock(mutex_);
    exited_ = true;
    changed_.notify_all();
}

void LanguageServer::take_notification(const protocol::Notification& note) {
    if (note.method != "textDocument/publishDiagnostics") return;
    const auto uri = protocol::string_member(note.params, "uri");
    if (!uri) return;
    const std::string key = lsp::normalized_uri(*uri);
    if (!watched_.count(key)) return;
    Published& published = published_[key];
    published.sequence = ++sequence_;
    const Json* version = protocol::member(note.params, "version");
    published.version =
        version && version->is_number_integer() ? std::optional(version->get<std::int64_t>()) : std::nullopt;
    published.diagnostics = field(note.params, "diagnostics");
    changed_.notify_all();
}

void LanguageServer::serve(protocol::Request request, protocol::Endpoint::Reply reply) {
    const std::string& method = request.method;
    if (method == "workspace/configuration") {
        // No settings of ours: a null per item asks for the server's defaults.
        const Json* items = protocol::member(request.params, "items");
        Json result = Json::array();
        for (std::size_t i = 0; i < (items && items->is_array() ? items->size() : 0); ++i) result.push_back(nullptr);
        reply.result(std::move(result));
    } else if (method == "workspace/workspaceFolders") {
        reply.result(Json::array({Json{{"uri", lsp::file_uri(root_)}, {"name", root_}}}));
    } else if (method == "client/registerCapability" || method == "client/unregisterCapability" ||
               method == "window/workDoneProgress/create" || method == "window/showMessageRequest" ||
               method == "workspace/diagnostic/refresh" || method == "workspace/semanticTokens/refresh" ||
               method == "workspace/inlayHint/refresh" || method == "workspace/codeLens/refresh") {
        reply.result(nullptr);
    } else {
        reply.method_not_found(method);
    }
}

}  // namespace checks
