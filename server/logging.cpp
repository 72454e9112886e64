// MCP's log level names and the forwarding of log records to the client.
#include "server/logging.hpp"

#include <algorithm>
#include <string>

#include <asio/post.hpp>

#include "server/session.hpp"

namespace server {

using base::log::Level;

std::optional<Level> level_from_mcp(std::string_view name) {
    if (name == "debug") return Level::debug;
    if (name == "info" || name == "notice") return Level::info;
    if (name == "warning") return Level::warn;
    if (name == "error") return Level::error;
    if (name == "critical" || name == "alert" || name == "emergency") return Level::critical;
    return std::nullopt;
}

std::string_view mcp_level_name(Level level) {
    switch (level) {
    case Level::trace:
    case Level::debug: return "debug";
    case Level::info: return "info";
    case Level::warn: return "warning";
    case Level::error: return "error";
    case Level::critical:
    case Level::off: break;
    }
    return "critical";
}

void follow_client_level(Level configured, Level client) { base::log::set_level(std::min(configured, client)); }

void forward_logs_to(asio::io_context& io, const std::shared_ptr<Session>& session) {
    base::log::also_forward(Level::debug, [&io, weak = std::weak_ptr<Session>(session)](Level level, std::string_view logger_name,
                                                                                        std::string_view text) {
        std::string logger(logger_name.empty() ? std::string_view("mcp-edit") : logger_name);
        asio::post(io, [weak, level, logger = std::move(logger), text = std::string(text)] {
            if (auto s = weak.lock()) s->forward_log(level, logger, text);
        });
    });
}

}  // namespace server
