// libFuzzer target: the unified-diff reader on any text, then the planner on what it reads.
// One target per parser, so that each gets its own corpus and regressions.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_common.hpp"
#include "text/patch/patch_unified.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::run_parser_target(data, size, [](std::string_view patch) { return text::parse_unified_diff(patch); });
}
