// The settings of one server process, as the command line gives them (contract section 2).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include <spdlog/common.h>

namespace server {

enum class ApprovalPolicy { ask, automatic, require };

struct Config {
    std::vector<std::string> roots;  // empty: the working directory
    ApprovalPolicy approval = ApprovalPolicy::ask;
    std::chrono::seconds approval_timeout{600};
    std::uint64_t max_file_size = 256ull << 20;
    std::size_t max_message_size = 16u << 20;
    bool fsync = true;
    double fuzzy_threshold = 1.0;  // apply_diff: similarity matching below 1 (off by default)
    spdlog::level::level_enum log_level = spdlog::level::info;
    std::string log_file;  // empty: stderr
};

}  // namespace server
