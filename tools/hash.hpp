// Content hashes (SHA-256 through OpenSSL), hex-encoded: what files are recognised by.
#pragma once

#include <string>
#include <string_view>

namespace tools {

std::string sha256_hex(std::string_view bytes);

}  // namespace tools
