// The resources methods' messages (resource_messages.hpp). Each keeps the exact wording the tests
// rely on.
#include "server/resource_messages.hpp"

namespace server {

std::string cursor_not_string_message() {
    return "Invalid params: cursor must be a string from an earlier resources/list";
}

std::string unknown_cursor_message() {
    return "Invalid params: unknown cursor; call resources/list without one to start over";
}

std::string uri_required_message() {
    return "Invalid params: uri (a string) is required; resources/list names the resources";
}

std::string resource_not_found_message(std::string_view uri) {
    return "Resource not found: " + std::string(uri) +
           ". This server's resources are mcp-edit://session/patch and one per file this session "
           "changed; resources/list names them.";
}

std::string not_our_resource_message() {
    return "Invalid params: uri must be one of this server's resources (mcp-edit://session/patch, or a "
           "file's from resources/list)";
}

std::string too_many_subscriptions_message(std::size_t max_subscriptions) {
    return "Too many subscriptions (" + std::to_string(max_subscriptions) +
           "): subscribe to mcp-edit://session/patch to hear of every change";
}

}  // namespace server
