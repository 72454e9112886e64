// Unit tests of the multiedit tool, called in process: with against "original" every edit is
// located on the file as it was and they are applied at once; overlaps and misses are refused.
#include <doctest/doctest.h>

#include <string>

#include "tests/unit/tools/fixture.hpp"

using namespace tools_test;

// ---- multiedit against "original" ------------------------------------------------------------

TEST_CASE("multiedit against original: every edit located on the file as it was, applied at once") {
    Fixture f;
    f.put("m.txt", "alpha\r\nbeta\r\ngamma\r\n");
    // Sequentially, edits[1] would find "beta" twice (edits[0] wrote a second one); on the original, once.
    Json edits = Json::array(
        {{{"old_string", "alpha"}, {"new_string", "beta alpha"}}, {{"old_string", "beta"}, {"new_string", "BETA"}}});
    const auto sequential = f.call(tools::multiedit_handler(), {{"file_path", f.path("m.txt")}, {"edits", edits}});
    INFO(sequential.text);
    CHECK(sequential.is_error);
    CHECK(sequential.reason == base::ErrorReason::ambiguous);
    // The advice is the call that does what was asked, never replace_all (it would change the
    // "beta" edits[0] wrote too).
    CHECK(sequential.text.find("only one in the file as it is (line 2): edits[0] wrote the other") !=
          std::string::npos);
    CHECK(sequential.text.find("against: \"original\"") != std::string::npos);
    CHECK(sequential.text.find("set replace_all to true") == std::string::npos);
    CHECK(f.get("m.txt") == "alpha\r\nbeta\r\ngamma\r\n");
    const auto r =
        f.call(tools::multiedit_handler(), {{"file_path", f.path("m.txt")}, {"edits", edits}, {"against", "original"}});
    INFO(r.text);
    REQUIRE_FALSE(r.is_error);
    CHECK(f.get("m.txt") == "beta alpha\r\nBETA\r\ngamma\r\n");
    CHECK(r.structured["replacements"] == 2);
}

TEST_CASE("multiedit against original: overlapping edits are refused as an overlap naming both") {
    Fixture f;
    f.put("m.txt", "one\ntwo\nthree\nfour\n");
    const auto r = f.call(tools::multiedit_handler(),
                          {{"file_path", f.path("m.txt")},
                           {"against", "original"},
                           {"edits", Json::array({{{"old_string", "two\nthree"}, {"new_string", "2\n3"}},
                                                  {{"old_string", "three\nfour"}, {"new_string", "3\n4"}}})}});
    REQUIRE(r.is_error);
    CHECK(r.reason == base::ErrorReason::overlap);
    CHECK(has(r.text, "edits[1] (lines 3-4) overlaps edits[0] (lines 2-3)"));
    CHECK(f.get("m.txt") == "one\ntwo\nthree\nfour\n");
}

TEST_CASE("multiedit against original: a missing old_string names its edit; nothing is written") {
    Fixture f;
    f.put("m.txt", "one\ntwo\n");
    const auto r =
        f.call(tools::multiedit_handler(), {{"file_path", f.path("m.txt")},
                                            {"against", "original"},
                                            {"edits", Json::array({{{"old_string", "one"}, {"new_string", "1"}},
                                                                   {{"old_string", "zzz"}, {"new_string", "2"}}})}});
    REQUIRE(r.is_error);
    CHECK(r.reason == base::ErrorReason::not_found);
    CHECK(r.text.starts_with("edits[1] failed"));
    CHECK(f.get("m.txt") == "one\ntwo\n");
}

TEST_CASE("multiedit: edits that cancel out write nothing, count no replacement and say so") {
    Fixture f;
    f.put("m.txt", "alpha\nbeta\n");
    const auto r = f.call(tools::multiedit_handler(),
                          {{"file_path", f.path("m.txt")},
                           {"edits", Json::array({{{"old_string", "alpha"}, {"new_string", "omega"}},
                                                  {{"old_string", "omega"}, {"new_string", "alpha"}}})}});
    INFO(r.text);
    REQUIRE_FALSE(r.is_error);
    CHECK(r.structured["replacements"] == 0);
    CHECK(r.text.find("No change: ") != std::string::npos);
    CHECK(r.text.find("The edits cancel each other out") != std::string::npos);
    CHECK(f.get("m.txt") == "alpha\nbeta\n");
}
