// Logging: spdlog to stderr (or --log-file), never stdout, plus a sink that forwards records to
// the client as notifications/message once it asked for them with logging/setLevel.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <asio/io_context.hpp>
#include <spdlog/common.h>

namespace server {

class Session;

// MCP's eight syslog level names (logging/setLevel, notifications/message) and spdlog's six
// levels: "notice" counts as info, "alert" and "emergency" as critical. nullopt: not an MCP level.
std::optional<spdlog::level::level_enum> level_from_mcp(std::string_view name);
std::string_view mcp_level_name(spdlog::level::level_enum level);

// Installs the default logger. Returns false (with a reason) when the log file cannot be opened.
bool setup_logging(spdlog::level::level_enum level, const std::string& log_file, std::string& error);

// Lets records down to the client's level through (the stderr/file sink keeps its own level).
void follow_client_level(spdlog::level::level_enum configured, spdlog::level::level_enum client);

// From now on, log records also go to `session` (posted to `io`, so any thread may log).
void forward_logs_to(asio::io_context& io, const std::shared_ptr<Session>& session);

}  // namespace server
