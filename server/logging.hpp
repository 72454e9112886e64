// Logging for the server: MCP's log level names, and records forwarded to the client as
// notifications/message once it asked for them with logging/setLevel (base/log.hpp writes them).
#pragma once

#include <memory>
#include <optional>
#include <string_view>

#include <asio/io_context.hpp>

#include "base/log.hpp"

namespace server {

class Session;

// MCP's eight syslog level names (logging/setLevel, notifications/message) and the log's six
// levels: "notice" counts as info, "alert" and "emergency" as critical. nullopt: not an MCP level.
std::optional<base::log::Level> level_from_mcp(std::string_view name);
std::string_view mcp_level_name(base::log::Level level);

// Lets records down to the client's level through (stderr or the log file keeps its own level).
void follow_client_level(base::log::Level configured, base::log::Level client);

// While this lives, log records also go to `session` (posted to `io`, so any thread may log); from
// its destruction on they do not, so a record logged later (a static destructor, a thread left to
// end with the process) never reaches an `io` that is gone. Destroy it before `io`.
class LogForwarding {
public:
    LogForwarding(asio::io_context& io, const std::shared_ptr<Session>& session);
    ~LogForwarding();
    LogForwarding(const LogForwarding&) = delete;
    LogForwarding& operator=(const LogForwarding&) = delete;

private:
    struct Target;
    std::shared_ptr<Target> target_;
};

}  // namespace server
