// Temp file names: fixed prefixes and 16 random hex digits (os/crypto's generator).
#include "os/temp_names.hpp"

#include <array>

#include "os/crypto.hpp"

namespace os {

namespace {

constexpr std::string_view stage_prefix = ".mcp-edit-stage-";
constexpr std::string_view backup_prefix = ".mcp-edit-backup-";
constexpr std::size_t random_digits = 16;

}  // namespace

std::string temp_file_name(TempPurpose purpose) {
    std::array<unsigned char, random_digits / 2> bytes{};
    crypto::random_bytes(bytes);
    static constexpr char digits[] = "0123456789abcdef";
    std::string name(purpose == TempPurpose::stage ? stage_prefix : backup_prefix);
    for (const unsigned char b : bytes) {
        name += digits[b >> 4];
        name += digits[b & 15];
    }
    return name;
}

bool is_staging_temp_name(std::string_view name) {
    if (name.size() != stage_prefix.size() + random_digits || name.substr(0, stage_prefix.size()) != stage_prefix)
        return false;
    for (const char c : name.substr(stage_prefix.size()))
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    return true;
}

}  // namespace os
