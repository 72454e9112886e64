// libFuzzer target: the unified-diff reader on any text, then the planner on what it reads.
// Own file: one target per parser, so that each gets its own corpus and regressions.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_common.hpp"
#include "text/patch_detect.hpp"
#include "text/patch_unified.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const fuzz::Input input = fuzz::split(data, size);
    auto patch = text::parse_unified_diff(input.patch);
    if (!patch.ok()) {
        fuzz::require(!patch.error().message.empty());
        return 0;
    }
    fuzz::check_patch(patch.value(), input.patch);
    // The last byte of the input chooses exact matching or a similarity threshold.
    const double threshold = size > 0 && (data[size - 1] & 1) ? 0.5 + (data[size - 1] % 50) / 100.0 : 1.0;
    fuzz::plan_all(patch.value(), input.file, threshold);
    // Detection agrees or says no; it never crashes.
    (void)text::detect_patch_format(input.patch);
    return 0;
}
