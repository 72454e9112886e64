// The session's resource and prompt methods: resources/list, resources/read, the legacy era's
// subscriptions and the notifications a change sends, resources/templates/list and prompts/list
// (both empty). What the resources hold is built in server/resources; this file only answers.
#include <string>
#include <utility>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/use_awaitable.hpp>

#include "ledger/session_patch.hpp"
#include "server/resource_messages.hpp"
#include "server/review_view.hpp"
#include "server/session.hpp"

namespace server {

void Session::list_resources(protocol::Request& request, const RequestEnvelope& envelope, Reply& reply) {
    const Json cursor = request.params.value("cursor", Json());
    if (!cursor.is_null() && !cursor.is_string()) {
        reply.error(protocol::invalid_params, cursor_not_string_message());
        return;
    }
    auto result = resources_list_result(workbench_.changed_files(), workspace_,
                                        cursor.is_string() ? cursor.get<std::string>() : "", envelope.era);
    if (!result) {
        reply.error(protocol::invalid_params, unknown_cursor_message());
        return;
    }
    resources_seen_ = true;
    reply.result(std::move(*result));
}

void Session::list_resource_templates(protocol::Request&, const RequestEnvelope& envelope, Reply& reply) {
    Json result = {{"resourceTemplates", Json::array()}};
    if (envelope.modern()) result.update({{"resultType", "complete"}, {"ttlMs", 3600000}, {"cacheScope", "public"}});
    reply.result(std::move(result));
}

void Session::list_prompts(protocol::Request&, const RequestEnvelope& envelope, Reply& reply) {
    Json result = {{"prompts", Json::array()}};
    if (envelope.modern()) result.update({{"resultType", "complete"}, {"ttlMs", 3600000}, {"cacheScope", "public"}});
    reply.result(std::move(result));
}

void Session::read_resource(protocol::Request& request, const RequestEnvelope& envelope, Reply& reply) {
    const Json uri = request.params.value("uri", Json());
    if (!uri.is_string()) {
        reply.error(protocol::invalid_params, uri_required_message());
        return;
    }
    if (uri.get<std::string>() == review_view_uri) {  // the review view (MCP Apps): the page itself
        Json page = {{"uri", review_view_uri},
                     {"mimeType", review_view_mime_type},
                     {"text", review_view_html()},
                     {"_meta", {{"ui", {{"prefersBorder", true}}}}}};
        Json result = {{"contents", Json::array({std::move(page)})}};
        if (envelope.modern()) result["resultType"] = "complete";
        reply.result(std::move(result));
        return;
    }
    auto target = resource_target(uri.get<std::string>(), workbench_.changed_files());
    if (!target) {
        reply.error(resource_not_found, resource_not_found_message(uri.get<std::string>()), {{"uri", uri}});
        return;
    }
    resources_seen_ = true;
    asio::co_spawn(
        io_,
        read_resource_now(shared_from_this(), uri.get<std::string>(), std::move(*target), std::move(reply), envelope),
        asio::detached);
}

asio::awaitable<void> Session::read_resource_now(std::shared_ptr<Session>, std::string uri, ResourceTarget target,
                                                 Reply reply, RequestEnvelope envelope) {
    // A change whose bookkeeping (its base) is still running is seen whole.
    // (Named first: GCC mishandles a ?: temporary inside a co_await expression.)
    std::string settle = target.whole_patch ? std::string() : target.real_path;
    auto files = co_await workbench_.settled_changes(std::move(settle));
    const protocol::Era era = envelope.era;
    const std::uint64_t max_file_size = config_.max_file_size;
    const bool withhold_linked = config_.ignore.ignore_reads;  // a hard link may name an ignored file
    const os::Workspace& workspace = workspace_;
    Json result = co_await asio::co_spawn(
        blocking_,
        [&]() -> asio::awaitable<Json> {
            co_return resources_read_result(uri, target, files, workspace, max_file_size, withhold_linked, era);
        },
        asio::use_awaitable);
    reply.result(std::move(result));
}

void Session::subscribe_resource(protocol::Request& request, const RequestEnvelope&, Reply& reply) {
    const Json uri = request.params.value("uri", Json());
    if (!uri.is_string() || uri.get<std::string>().rfind("mcp-edit://session/", 0) != 0) {
        reply.error(protocol::invalid_params, not_our_resource_message());
        return;
    }
    if (subscriptions_.size() >= max_subscriptions && !subscriptions_.count(uri.get<std::string>())) {
        reply.error(protocol::invalid_params, too_many_subscriptions_message(max_subscriptions));
        return;
    }
    subscriptions_.insert(uri.get<std::string>());
    resources_seen_ = true;
    reply.result(Json::object());
}

void Session::unsubscribe_resource(protocol::Request& request, const RequestEnvelope&, Reply& reply) {
    const Json uri = request.params.value("uri", Json());
    if (uri.is_string()) subscriptions_.erase(uri.get<std::string>());
    reply.result(Json::object());
}

void Session::on_file_changed(const std::string& real_path, bool new_file) {
    if (era_ != protocol::Era::legacy || !initialized_) return;
    for (const std::string& uri : {std::string(ledger::session_patch_uri), ledger::session_file_uri(real_path)})
        if (subscriptions_.count(uri)) peer_->notify("notifications/resources/updated", {{"uri", uri}});
    // Only to a client that looked at the resources: the others never asked for the list.
    if (new_file && resources_seen_) peer_->notify("notifications/resources/list_changed", Json::object());
}

}  // namespace server
