// MCP's log level names and the forwarding of log records to the client.
#include "server/logging.hpp"

#include <algorithm>
#include <mutex>
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

struct LogForwarding::Target {
    Target(asio::io_context& context, const std::shared_ptr<Session>& forward_to) : io(&context), session(forward_to) {}
    std::mutex lock;
    asio::io_context* io;  // null once the LogForwarding is gone
    std::weak_ptr<Session> session;
};

LogForwarding::LogForwarding(asio::io_context& io, const std::shared_ptr<Session>& session)
    : target_(std::make_shared<Target>(io, session)) {
    base::log::also_forward(Level::debug, [target = target_](Level level, std::string_view logger_name,
                                                             std::string_view text) {
        const std::lock_guard lock(target->lock);
        if (!target->io) return;
        std::string logger(logger_name.empty() ? std::string_view("mcp-edit") : logger_name);
        asio::post(*target->io, [weak = target->session, level, logger = std::move(logger), text = std::string(text)] {
            if (auto s = weak.lock()) s->forward_log(level, logger, text);
        });
    });
}

LogForwarding::~LogForwarding() {
    const std::lock_guard lock(target_->lock);
    target_->io = nullptr;
}

}  // namespace server
