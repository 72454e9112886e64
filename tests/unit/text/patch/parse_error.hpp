// The error message of a patch that must not parse: shared by the tests of the three readers.
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "text/patch/patch_detect.hpp"

namespace test_text {

inline std::string parse_error(std::string_view patch) {
    auto p = text::parse_patch(patch);
    REQUIRE_FALSE(p.ok());
    return p.error().message;
}

}  // namespace test_text
