// spdlog set-up and the MCP forwarding sink.
#include "server/logging.hpp"

#include <mutex>

#include <asio/post.hpp>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include "server/session.hpp"

namespace server {

namespace {

class ClientSink final : public spdlog::sinks::base_sink<std::mutex> {
public:
    ClientSink(asio::io_context& io, std::weak_ptr<Session> session) : io_(io), session_(std::move(session)) {}

protected:
    void sink_it_(const spdlog::details::log_msg& msg) override {
        std::string text(msg.payload.data(), msg.payload.size());
        std::string logger(msg.logger_name.data(), msg.logger_name.size());
        if (logger.empty()) logger = "mcp-edit";
        asio::post(io_, [session = session_, level = msg.level, logger = std::move(logger), text = std::move(text)] {
            if (auto s = session.lock()) s->forward_log(level, logger, text);
        });
    }
    void flush_() override {}

private:
    asio::io_context& io_;
    std::weak_ptr<Session> session_;
};

}  // namespace

std::optional<spdlog::level::level_enum> level_from_mcp(std::string_view name) {
    if (name == "notice") return spdlog::level::info;
    if (name == "alert" || name == "emergency") return spdlog::level::critical;
    // spdlog's own names besides MCP's ("warning", "error", ...): its aliases and levels MCP lacks are not MCP's.
    if (name == "warn" || name == "err") return std::nullopt;
    const auto level = spdlog::level::from_str(std::string(name));
    if (level == spdlog::level::trace || level == spdlog::level::off) return std::nullopt;
    return level;
}

std::string_view mcp_level_name(spdlog::level::level_enum level) {
    if (level <= spdlog::level::debug) return "debug";
    if (level >= spdlog::level::critical) return "critical";
    const auto name = spdlog::level::to_string_view(level);
    return std::string_view(name.data(), name.size());
}

bool setup_logging(spdlog::level::level_enum level, const std::string& log_file, std::string& error) {
    spdlog::sink_ptr sink;
    try {
        if (log_file.empty()) sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
        else sink = std::make_shared<spdlog::sinks::basic_file_sink_mt>(log_file);
    } catch (const spdlog::spdlog_ex& e) {
        error = e.what();
        return false;
    }
    sink->set_level(level);
    auto logger = std::make_shared<spdlog::logger>("mcp-edit", sink);
    // Only what some sink wants is formatted; a client's logging/setLevel lowers it (follow_client_level).
    logger->set_level(level);
    logger->set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");
    logger->flush_on(spdlog::level::warn);
    spdlog::set_default_logger(logger);
    return true;
}

void follow_client_level(spdlog::level::level_enum configured, spdlog::level::level_enum client) {
    spdlog::default_logger()->set_level(std::min(configured, client));
}

void forward_logs_to(asio::io_context& io, const std::shared_ptr<Session>& session) {
    auto sink = std::make_shared<ClientSink>(io, session);
    sink->set_level(spdlog::level::debug);
    spdlog::default_logger()->sinks().push_back(sink);
}

}  // namespace server
