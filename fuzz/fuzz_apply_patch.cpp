// libFuzzer target: the *** Begin Patch reader on any text, then the planner on what it reads.
// One target per parser, so that each gets its own corpus and regressions.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_common.hpp"
#include "text/patch/patch_apply_patch.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::run_parser_target(data, size, [](std::string_view patch) { return text::parse_apply_patch(patch); });
}
