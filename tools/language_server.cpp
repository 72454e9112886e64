// The LSP client behind `--lsp`: framing (Content-Length headers), the initialize handshake, the
// server's own requests answered (configuration, progress, capability registration), documents
// opened and changed with whole texts, and the wait for the publishDiagnostics of the version sent.
#include "tools/language_server.hpp"

#include <algorithm>
#include <cctype>

#include <spdlog/spdlog.h>

#include "tools/fingerprint.hpp"

namespace tools {

namespace {

bool unreserved(unsigned char c) {
    return std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
}

// A uri as the server may spell it ("file:///C%3A/x", "file:///c:/x") made comparable with ours.
std::string normalized(const std::string& uri) {
    std::string out;
    out.reserve(uri.size());
    for (std::size_t i = 0; i < uri.size(); ++i) {
        if (uri[i] == '%' && i + 2 < uri.size() && std::isxdigit(static_cast<unsigned char>(uri[i + 1])) &&
            std::isxdigit(static_cast<unsigned char>(uri[i + 2]))) {
            out += static_cast<char>(std::stoi(uri.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else {
            out += uri[i];
        }
    }
#ifdef _WIN32
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
#endif
    return out;
}

std::string severity_name(const nlohmann::json& severity) {
    switch (severity.is_number_integer() ? severity.get<int>() : 1) {
        case 2: return "warning";
        case 3: return "info";
        case 4: return "note";  // LSP's hint
        default: return "error";
    }
}

constexpr std::string_view header_end = "\r\n\r\n";

}  // namespace

LanguageServer::LanguageServer(std::vector<std::string> argv, std::string root) : argv_(std::move(argv)), root_(std::move(root)) {}

LanguageServer::~LanguageServer() {
    const std::lock_guard call(call_mutex_);
    stop_process();
}

std::string LanguageServer::file_uri(const std::string& real) {
    std::string out = real.starts_with('/') ? "file://" : "file:///";
    for (const unsigned char c : real) {
        if (unreserved(c) || (c == ':' && out.size() <= 9)) {  // the drive's colon stays
            out += static_cast<char>(c);
        } else {
            static constexpr char hex[] = "0123456789ABCDEF";
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

std::string LanguageServer::language_id(const std::string& real) {
    static const std::map<std::string, std::string> by_extension = {
        {"c", "c"},           {"h", "c"},           {"cc", "cpp"},        {"cpp", "cpp"},        {"cxx", "cpp"},
        {"hh", "cpp"},        {"hpp", "cpp"},       {"hxx", "cpp"},       {"m", "objective-c"},  {"mm", "objective-cpp"},
        {"py", "python"},     {"pyi", "python"},    {"ts", "typescript"}, {"tsx", "typescriptreact"},
        {"js", "javascript"}, {"mjs", "javascript"}, {"cjs", "javascript"}, {"jsx", "javascriptreact"},
        {"rs", "rust"},       {"go", "go"},         {"java", "java"},     {"kt", "kotlin"},      {"cs", "csharp"},
        {"rb", "ruby"},       {"php", "php"},       {"lua", "lua"},       {"sh", "shellscript"}, {"json", "json"},
        {"yaml", "yaml"},     {"yml", "yaml"},      {"toml", "toml"},     {"md", "markdown"},    {"html", "html"},
        {"css", "css"},       {"zig", "zig"},       {"swift", "swift"},   {"hs", "haskell"},     {"ml", "ocaml"}};
    const auto slash = real.find_last_of('/');
    const auto dot = real.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "plaintext";
    std::string extension = real.substr(dot + 1);
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const auto it = by_extension.find(extension);
    return it == by_extension.end() ? "plaintext" : it->second;
}

std::vector<Diagnostic> LanguageServer::read_diagnostics(const Json& diagnostics, const std::string& real) {
    std::vector<Diagnostic> out;
    if (!diagnostics.is_array()) return out;
    for (const auto& item : diagnostics) {
        if (out.size() >= max_diagnostics) break;
        if (!item.is_object() || !item.contains("message") || !item["message"].is_string()) continue;
        Diagnostic d;
        d.file = real;
        const Json start = item.value("range", Json::object()).value("start", Json::object());
        const Json line = start.value("line", Json()), character = start.value("character", Json());
        if (line.is_number_unsigned()) d.line = line.get<std::size_t>() + 1;
        if (character.is_number_unsigned()) d.column = character.get<std::size_t>() + 1;
        d.severity = severity_name(item.value("severity", Json()));
        d.message = item["message"].get<std::string>();
        if (const Json code = item.value("code", Json()); code.is_string() || code.is_number())
            d.message += " [" + (code.is_string() ? code.get<std::string>() : code.dump()) + "]";
        out.push_back(std::move(d));
    }
    return out;
}

base::Result<LanguageServer::Findings, LanguageServer::Failure> LanguageServer::diagnose(
    const std::string& real, const std::string* before, const std::string& after, Clock::time_point deadline,
    const std::atomic<bool>* cancelled) {
    const std::lock_guard call(call_mutex_);
    if (auto started = ensure_started(deadline, cancelled); !started) return base::fail(std::move(started.error()));
    const std::string uri = file_uri(real);
    const std::string key = normalized(uri);
    Findings findings;
    if (before) {
        const auto known = documents_.find(key);
        if (known != documents_.end() && known->second.findings && known->second.fingerprint == Fingerprint::of(*before).hex) {
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
    {
        const std::lock_guard lock(mutex_);
        if (running_ && !exited_) return {};
    }
    const std::string last_words = process_ ? exit_message() : "";
    stop_process();
    if (starts_ >= max_starts)
        return base::fail(Failure{"it was started " + std::to_string(starts_) + " times and ended each time; not started again" +
                                      (last_words.empty() ? "" : " (last: " + last_words + ")"),
                                  false});
    ++starts_;
    process_ = std::make_unique<platform::ChildProcess>();
    std::string error;
    if (!process_->start(argv_, root_, error)) {
        process_.reset();
        return base::fail(Failure{error, false});
    }
    {
        const std::lock_guard lock(mutex_);
        exited_ = false;
        running_ = false;
        responses_.clear();
        published_.clear();
        watched_.clear();
        awaited_.clear();
    }
    documents_.clear();
    recent_.clear();
    reader_ = std::thread([this] { read_messages(); });

    const std::int64_t id = next_id_++;
    {
        const std::lock_guard lock(mutex_);
        awaited_.push_back(id);
    }
    const std::string root_uri = file_uri(root_);
    const auto slash = root_.find_last_of('/');
    const Json capabilities = {
        {"textDocument",
         {{"synchronization", {{"dynamicRegistration", false}, {"didSave", false}}},
          {"publishDiagnostics", {{"relatedInformation", false}, {"versionSupport", true}}}}},
        {"workspace", {{"configuration", true}, {"workspaceFolders", true}}},
        {"general", {{"positionEncodings", {"utf-16"}}}}};
    send({{"jsonrpc", "2.0"},
          {"id", id},
          {"method", "initialize"},
          {"params",
           {{"processId", nullptr},
            {"clientInfo", {{"name", "mcp-edit"}}},
            {"rootUri", root_uri},
            {"rootPath", root_},
            {"workspaceFolders", {{{"uri", root_uri}, {"name", slash == std::string::npos ? root_ : root_.substr(slash + 1)}}}},
            {"capabilities", capabilities}}}});
    std::unique_lock lock(mutex_);
    auto answered = wait(lock, deadline, cancelled, "answer initialize", [&] { return responses_.count(id) > 0; });
    if (!answered) return answered;
    const Json response = std::move(responses_[id]);
    responses_.erase(id);
    if (response.contains("error"))
        return base::fail(Failure{"initialize failed: " + response["error"].value("message", response["error"].dump())});
    running_ = true;
    lock.unlock();
    send({{"jsonrpc", "2.0"}, {"method", "initialized"}, {"params", Json::object()}});
    return {};
}

void LanguageServer::stop_process() {
    if (!process_) return;
    bool polite = false;
    {
        const std::lock_guard lock(mutex_);
        polite = running_ && !exited_;
        running_ = false;
    }
    if (polite) {
        // shutdown's answer is not awaited: exit follows at once, and a short grace ends it.
        send({{"jsonrpc", "2.0"}, {"id", next_id_++}, {"method", "shutdown"}});
        send({{"jsonrpc", "2.0"}, {"method", "exit"}});
    }
    process_->stop(polite ? std::chrono::milliseconds(500) : std::chrono::milliseconds(0));
    if (reader_.joinable()) reader_.join();
    process_.reset();
}

base::Result<std::vector<Diagnostic>, LanguageServer::Failure> LanguageServer::show(
    const std::string& real, const std::string& uri, const std::string& text, Clock::time_point deadline,
    const std::atomic<bool>* cancelled) {
    const std::string key = normalized(uri);
    auto found = documents_.find(key);
    if (found == documents_.end() && documents_.size() >= max_open_documents) {
        const std::string oldest = recent_.back();
        recent_.pop_back();
        send({{"jsonrpc", "2.0"},
              {"method", "textDocument/didClose"},
              {"params", {{"textDocument", {{"uri", documents_[oldest].uri}}}}}});
        documents_.erase(oldest);
        const std::lock_guard lock(mutex_);
        watched_.erase(oldest);
        published_.erase(oldest);
    }
    recent_.remove(key);
    recent_.push_front(key);
    const bool opening = found == documents_.end();
    Document& document = documents_[key];
    document.uri = uri;
    document.version += 1;
    document.fingerprint = Fingerprint::of(text).hex;
    document.findings.reset();
    const std::int64_t version = document.version;
    std::uint64_t sent_after = 0;
    {
        const std::lock_guard lock(mutex_);
        watched_.insert(key);
        sent_after = sequence_;
    }
    // Text that is not UTF-8 reaches the server with U+FFFD in place of each bad byte.
    Json message = {{"jsonrpc", "2.0"}};
    if (opening) {
        message["method"] = "textDocument/didOpen";
        message["params"]["textDocument"] = {{"uri", uri}, {"languageId", language_id(real)}, {"version", version}, {"text", text}};
    } else {
        message["method"] = "textDocument/didChange";
        message["params"]["textDocument"] = {{"uri", uri}, {"version", version}};
        message["params"]["contentChanges"] = Json::array({{{"text", text}}});
    }
    send(message);

    std::unique_lock lock(mutex_);
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
        if (!(waited.error().timed_out && it != published_.end() && it->second.sequence > sent_after)) return base::fail(std::move(waited.error()));
    }
    auto findings = read_diagnostics(published_[key].diagnostics, real);
    lock.unlock();
    document.findings = findings;
    return findings;
}

template <class Ready>
base::Result<void, LanguageServer::Failure> LanguageServer::wait(std::unique_lock<std::mutex>& lock, Clock::time_point deadline,
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

bool LanguageServer::send(const Json& message) {
    const std::string body = message.dump(-1, ' ', false, Json::error_handler_t::replace);
    const std::string frame = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    const std::lock_guard lock(write_mutex_);
    return process_ && process_->write(frame);
}

void LanguageServer::read_messages() {
    std::string buffer;
    char chunk[65536];
    bool broken = false;
    while (!broken) {
        const std::size_t got = process_->read(chunk, sizeof chunk);
        if (got == 0) break;
        buffer.append(chunk, got);
        for (;;) {
            const auto end = buffer.find(header_end);
            if (end == std::string::npos) {
                broken = buffer.size() > 64 * 1024;  // headers are short
                break;
            }
            std::size_t length = 0;
            bool has_length = false;
            std::string headers = buffer.substr(0, end);
            std::transform(headers.begin(), headers.end(), headers.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            if (const auto at = headers.find("content-length:"); at != std::string::npos) {
                length = std::strtoull(headers.c_str() + at + 15, nullptr, 10);
                has_length = true;
            }
            if (!has_length || length > max_message) {
                broken = true;
                break;
            }
            if (buffer.size() < end + header_end.size() + length) break;
            Json message = Json::parse(buffer.begin() + static_cast<std::ptrdiff_t>(end + header_end.size()),
                                       buffer.begin() + static_cast<std::ptrdiff_t>(end + header_end.size() + length), nullptr,
                                       false);
            buffer.erase(0, end + header_end.size() + length);
            if (message.is_object()) handle(std::move(message));
        }
    }
    // Output that is not LSP counts as an end: the next call stops it and starts it again.
    if (broken) spdlog::warn("language server {}: its output is not LSP; it will be restarted", argv_.front());
    const std::lock_guard lock(mutex_);
    exited_ = true;
    changed_.notify_all();
}

void LanguageServer::handle(Json message) {
    const bool has_id = message.contains("id") && (message["id"].is_number_integer() || message["id"].is_string());
    if (message.contains("method") && message["method"].is_string()) {
        if (has_id) return answer_request(message);
        if (message["method"] != "textDocument/publishDiagnostics") return;
        const Json params = message.value("params", Json::object());
        const Json uri = params.value("uri", Json());
        if (!uri.is_string()) return;
        const std::string key = normalized(uri.get<std::string>());
        const std::lock_guard lock(mutex_);
        if (!watched_.count(key)) return;
        Published& published = published_[key];
        published.sequence = ++sequence_;
        const Json version = params.value("version", Json());
        published.version = version.is_number_integer() ? std::optional(version.get<std::int64_t>()) : std::nullopt;
        published.diagnostics = params.value("diagnostics", Json::array());
        changed_.notify_all();
        return;
    }
    if (!has_id || !message["id"].is_number_integer()) return;
    const std::int64_t id = message["id"].get<std::int64_t>();
    const std::lock_guard lock(mutex_);
    if (std::find(awaited_.begin(), awaited_.end(), id) == awaited_.end()) return;
    awaited_.erase(std::find(awaited_.begin(), awaited_.end(), id));
    responses_[id] = std::move(message);
    changed_.notify_all();
}

void LanguageServer::answer_request(const Json& message) {
    const std::string method = message["method"];
    Json answer = {{"jsonrpc", "2.0"}, {"id", message["id"]}};
    if (method == "workspace/configuration") {
        // No settings of ours: a null per item asks for the server's defaults.
        const Json items = message.value("params", Json::object()).value("items", Json::array());
        answer["result"] = Json::array();
        for (std::size_t i = 0; i < (items.is_array() ? items.size() : 0); ++i) answer["result"].push_back(nullptr);
    } else if (method == "workspace/workspaceFolders") {
        answer["result"] = {{{"uri", file_uri(root_)}, {"name", root_}}};
    } else if (method == "client/registerCapability" || method == "client/unregisterCapability" ||
               method == "window/workDoneProgress/create" || method == "window/showMessageRequest" ||
               method == "workspace/diagnostic/refresh" || method == "workspace/semanticTokens/refresh" ||
               method == "workspace/inlayHint/refresh" || method == "workspace/codeLens/refresh") {
        answer["result"] = nullptr;
    } else {
        answer["error"] = {{"code", -32601}, {"message", "mcp-edit does not handle " + method}};
    }
    send(answer);
}

}  // namespace tools
