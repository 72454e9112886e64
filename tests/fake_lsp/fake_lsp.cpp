// A language server for tests of `--lsp`: it speaks LSP's framing on stdin/stdout and publishes a
// finding for every line holding "ERROR:" (an error) or "WARNING:" (a warning), the rest of the line
// being the message. Flags make it behave like the servers that bite:
//   --no-version      publishDiagnostics without a version (as some servers do)
//   --empty-first     publish an empty set first, then the findings (pyright-like)
//   --delay-ms N      wait N ms before publishing
//   --slow-init-ms N  wait N ms before answering initialize (a slow first start)
//   --silent          never publish
//   --deaf            after answering initialize, never read again (its input fills up)
//   --exit-on-change  exit at the first didChange (a server that crashes)
//   --ask             ask workspace/configuration and window/workDoneProgress/create first, and
//                     publish only after both are answered
//   --log FILE        append each method received to FILE, one per line
// Built for Linux and Windows, so the same tests run under Wine.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#endif

using Json = nlohmann::json;

namespace {

struct Options {
    bool no_version = false;
    bool empty_first = false;
    int delay_ms = 0;
    int slow_init_ms = 0;
    bool silent = false;
    bool deaf = false;
    bool exit_on_change = false;
    bool ask = false;
    std::string log;
};

bool read_message(Json& out) {
    std::size_t length = 0;
    std::string line;
    for (;;) {
        line.clear();
        int c;
        while ((c = std::getchar()) != EOF && c != '\n') line += static_cast<char>(c);
        if (c == EOF) return false;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) break;
        if (line.rfind("Content-Length:", 0) == 0) length = std::stoul(line.substr(15));
    }
    std::string body(length, '\0');
    if (std::fread(body.data(), 1, length, stdin) != length) return false;
    out = Json::parse(body);
    return true;
}

void send(const Json& message) {
    const std::string body = message.dump();
    std::printf("Content-Length: %zu\r\n\r\n%s", body.size(), body.c_str());
    std::fflush(stdout);
}

Json findings(const std::string& text) {
    Json out = Json::array();
    std::size_t line = 0;
    for (std::size_t start = 0; start <= text.size(); ++line) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        const std::string row = text.substr(start, end - start);
        for (const auto& [marker, severity] :
             {std::pair{std::string("ERROR:"), 1}, std::pair{std::string("WARNING:"), 2}}) {
            const auto at = row.find(marker);
            if (at == std::string::npos) continue;
            std::string message = row.substr(at + marker.size());
            while (!message.empty() && (message.back() == '\r' || message.back() == ' ')) message.pop_back();
            while (!message.empty() && message.front() == ' ') message.erase(0, 1);
            out.push_back({{"range",
                            {{"start", {{"line", line}, {"character", at}}},
                             {"end", {{"line", line}, {"character", row.size()}}}}},
                           {"severity", severity},
                           {"source", "fake"},
                           {"message", message}});
        }
        start = end + 1;
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
#ifdef _WIN32
    _setmode(_fileno(stdin), _O_BINARY);
    _setmode(_fileno(stdout), _O_BINARY);
#endif
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--no-version")
            options.no_version = true;
        else if (arg == "--empty-first")
            options.empty_first = true;
        else if (arg == "--delay-ms" && i + 1 < argc)
            options.delay_ms = std::stoi(argv[++i]);
        else if (arg == "--slow-init-ms" && i + 1 < argc)
            options.slow_init_ms = std::stoi(argv[++i]);
        else if (arg == "--silent")
            options.silent = true;
        else if (arg == "--deaf")
            options.deaf = true;
        else if (arg == "--exit-on-change")
            options.exit_on_change = true;
        else if (arg == "--ask")
            options.ask = true;
        else if (arg == "--log" && i + 1 < argc)
            options.log = argv[++i];
    }
    std::map<std::string, std::string> documents;
    int answers_awaited = 0;
    Json held;  // a publish waiting for the answers of --ask
    const auto publish = [&](const std::string& uri, const Json& version) {
        if (options.silent) return;
        if (options.delay_ms) std::this_thread::sleep_for(std::chrono::milliseconds(options.delay_ms));
        Json params = {{"uri", uri}, {"diagnostics", findings(documents[uri])}};
        if (!options.no_version) params["version"] = version;
        const Json message = {{"jsonrpc", "2.0"}, {"method", "textDocument/publishDiagnostics"}, {"params", params}};
        if (answers_awaited > 0) {
            held = message;
            return;
        }
        if (options.empty_first) {
            Json empty = message;
            empty["params"]["diagnostics"] = Json::array();
            send(empty);
        }
        send(message);
    };
    Json message;
    while (read_message(message)) {
        const std::string method = message.value("method", "");
        if (!options.log.empty())
            std::ofstream(options.log, std::ios::app | std::ios::binary)
                << (method.empty() ? "(answer)" : method) << "\n";
        if (method.empty() && message.contains("id")) {  // an answer to --ask
            if (--answers_awaited == 0 && !held.is_null()) {
                if (options.empty_first) {
                    Json empty = held;
                    empty["params"]["diagnostics"] = Json::array();
                    send(empty);
                }
                send(held);
                held = nullptr;
            }
            continue;
        }
        if (method == "initialize") {
            if (options.slow_init_ms) std::this_thread::sleep_for(std::chrono::milliseconds(options.slow_init_ms));
            send(
                {{"jsonrpc", "2.0"}, {"id", message["id"]}, {"result", {{"capabilities", {{"textDocumentSync", 1}}}}}});
            while (options.deaf) std::this_thread::sleep_for(std::chrono::seconds(1));
        } else if (method == "initialized") {
            if (options.ask) {
                send({{"jsonrpc", "2.0"},
                      {"id", 1},
                      {"method", "workspace/configuration"},
                      {"params", {{"items", {{{"section", "fake"}}}}}}});
                send({{"jsonrpc", "2.0"},
                      {"id", "p"},
                      {"method", "window/workDoneProgress/create"},
                      {"params", {{"token", "t"}}}});
                answers_awaited = 2;
            }
        } else if (method == "textDocument/didOpen") {
            const auto& doc = message["params"]["textDocument"];
            documents[doc["uri"]] = doc["text"];
            publish(doc["uri"], doc["version"]);
        } else if (method == "textDocument/didChange") {
            if (options.exit_on_change) return 3;
            const auto& params = message["params"];
            documents[params["textDocument"]["uri"]] = params["contentChanges"].back()["text"];
            publish(params["textDocument"]["uri"], params["textDocument"]["version"]);
        } else if (method == "textDocument/didClose") {
            documents.erase(message["params"]["textDocument"]["uri"].get<std::string>());
        } else if (method == "shutdown") {
            send({{"jsonrpc", "2.0"}, {"id", message["id"]}, {"result", nullptr}});
        } else if (method == "exit") {
            return 0;
        } else if (message.contains("id")) {
            send({{"jsonrpc", "2.0"}, {"id", message["id"]}, {"error", {{"code", -32601}, {"message", "not here"}}}});
        }
    }
    return 0;
}
