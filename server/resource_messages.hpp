// What the session's resources methods answer a client that asks wrongly (server/session_resources.cpp):
// a bad cursor or uri, a resource that does not exist, too many subscriptions. The methods decide;
// these word it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace server {

std::string cursor_not_string_message();
std::string unknown_cursor_message();
std::string uri_required_message();
std::string resource_not_found_message(std::string_view uri);
std::string not_our_resource_message();
std::string too_many_subscriptions_message(std::size_t max_subscriptions);

}  // namespace server
