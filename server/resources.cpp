// resources/list and resources/read over the session's changes.
#include "server/resources.hpp"

#include "ledger/session_patch.hpp"

namespace server {

namespace {

void modern_fields(Json& result) {
    result["resultType"] = "complete";
    result["ttlMs"] = 0;               // the next change makes it stale
    result["cacheScope"] = "private";  // this session's files
}

}  // namespace

std::optional<Json> resources_list_result(const std::vector<ledger::SessionChanges::File>& files,
                                          const os::Workspace& workspace, const std::string& cursor,
                                          protocol::Era era) {
    std::size_t start = 0;
    if (!cursor.empty()) {
        if (cursor.size() > 12 || cursor.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
        start = std::stoull(cursor);
        if (start > files.size() || start == 0) return std::nullopt;
    }
    Json resources = Json::array();
    if (start == 0)
        resources.push_back({{"uri", std::string(ledger::session_patch_uri)},
                             {"name", "session.patch"},
                             {"title", "Everything this session changed"},
                             {"description",
                              "One unified diff of every file this server changed in this session, from "
                              "before its first change to its bytes now (" +
                                  std::to_string(files.size()) + " file" + (files.size() == 1 ? "" : "s") + ")."},
                             {"mimeType", std::string(ledger::diff_mime_type)}});
    const std::size_t end = std::min(files.size(), start + resources_page_size);
    for (std::size_t i = start; i < end; ++i) {
        const auto& file = files[i];
        const std::string shown = workspace.display_path(file.real_path);
        resources.push_back(
            {{"uri", ledger::session_file_uri(file.real_path)},
             {"name", shown},
             {"title", "Changes of " + shown},
             {"description", "The unified diff of " + shown + " since before this session's first change of it (" +
                                 std::to_string(file.changes) + " write" + (file.changes == 1 ? "" : "s") +
                                 (file.existed ? "" : "; created by this session") + ")."},
             {"mimeType", std::string(ledger::diff_mime_type)}});
    }
    Json result = {{"resources", std::move(resources)}};
    if (end < files.size()) result["nextCursor"] = std::to_string(end);
    if (era == protocol::Era::modern) modern_fields(result);
    return result;
}

std::optional<ResourceTarget> resource_target(const std::string& uri,
                                              const std::vector<ledger::SessionChanges::File>& files) {
    if (uri == ledger::session_patch_uri) return ResourceTarget{true, {}};
    if (uri.rfind(ledger::session_file_uri_prefix, 0) != 0) return std::nullopt;
    for (const auto& file : files)
        if (ledger::session_file_uri(file.real_path) == uri) return ResourceTarget{false, file.real_path};
    return std::nullopt;
}

Json resources_read_result(const std::string& uri, const ResourceTarget& target,
                           const std::vector<ledger::SessionChanges::File>& files, const os::Workspace& workspace,
                           std::uint64_t max_file_size, bool withhold_linked, protocol::Era era) {
    std::string text;
    if (target.whole_patch) {
        text = ledger::session_patch(files, workspace, max_file_size, withhold_linked).text;
    } else {
        for (const auto& file : files)
            if (file.real_path == target.real_path) {
                const auto diff = ledger::diff_now(file, workspace, max_file_size, withhold_linked);
                text = diff.note.empty() ? diff.diff : "# " + diff.note + "\n";
            }
    }
    Json result = {
        {"contents",
         Json::array({{{"uri", uri}, {"mimeType", std::string(ledger::diff_mime_type)}, {"text", std::move(text)}}})}};
    if (era == protocol::Era::modern) modern_fields(result);
    return result;
}

}  // namespace server
