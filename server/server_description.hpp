// What the server says about itself in initialize, server/discover and tools/list.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "server/config.hpp"
#include "server/session_envelope.hpp"
#include "tools/registry.hpp"

namespace server {

// The capabilities the server declares; 2026-07-28 has no logging.
nlohmann::json server_capabilities(protocol::Era era);
// How to use the tools, led by what is wrong with the server's configuration when something is.
std::string instructions(const Config& config);
// server/discover's answer (any era).
nlohmann::json discover_result(const Config& config);
// tools/list's answer to the request `envelope` (its era, and the client's capabilities).
nlohmann::json tools_list_result(const Config& config, const tools::Registry& registry,
                                 const RequestEnvelope& envelope);

}  // namespace server
