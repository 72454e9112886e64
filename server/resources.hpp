// The session's changes as MCP resources: `resources/list` (the session patch first, then one
// resource per changed file, paged), `resources/read` of either, and what a subscription to them
// hears. The JSON of both eras; Session serves the methods and sends the notifications.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "os/workspace.hpp"
#include "protocol/versions.hpp"
#include "ledger/session_changes.hpp"

namespace server {

using Json = nlohmann::json;

inline constexpr std::size_t resources_page_size = 1000;
inline constexpr std::size_t max_subscriptions = 1024;

// resources/list from `files` (in the order first changed); `cursor` as the client sent it ("" for
// the first page). nullopt when the cursor is not one this server gave.
std::optional<Json> resources_list_result(const std::vector<ledger::SessionChanges::File>& files,
                                          const os::Workspace& workspace, const std::string& cursor, protocol::Era era);

// What `uri` names: the whole session patch, or one changed file (its real path).
struct ResourceTarget {
    bool whole_patch = false;
    std::string real_path;
};
std::optional<ResourceTarget> resource_target(const std::string& uri,
                                              const std::vector<ledger::SessionChanges::File>& files);

// resources/read's result for `uri` (a resource of resource_target), reading the files now.
Json resources_read_result(const std::string& uri, const ResourceTarget& target,
                           const std::vector<ledger::SessionChanges::File>& files, const os::Workspace& workspace,
                           std::uint64_t max_file_size, bool withhold_linked, protocol::Era era);

// MCP's "resource not found" error code (resources/read of an unknown URI).
inline constexpr int resource_not_found = -32002;

}  // namespace server
