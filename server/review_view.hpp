// The review view (MCP Apps): one self-contained HTML page built from ui/ and embedded at build
// time (cmake/EmbedView.cmake), served as the resource ui://mcp-edit/review.html.
#pragma once

#include <string_view>

namespace server {

inline constexpr std::string_view review_view_uri = "ui://mcp-edit/review.html";
inline constexpr std::string_view review_view_mime_type = "text/html;profile=mcp-app";

// The page, with its style and script inlined.
std::string_view review_view_html();

}  // namespace server
