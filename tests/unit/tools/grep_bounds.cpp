// Unit tests of grep's result bound: hosts such as Claude Code hand their model only the JSON of
// structuredContent, and only a 2 KB preview of it past 50,000 characters, so it must stay under 45,000.
#include <doctest/doctest.h>

#include <string>

#include "tests/unit/tools/fixture.hpp"
#include "tools/pipeline/listing.hpp"

using namespace tools_test;

#ifndef _WIN32  // file names with a quote and a backslash
TEST_CASE("grep: max_results at its maximum over long lines JSON escapes stays under 45,000 characters of JSON") {
    Fixture f;
    // Lines of quotes, backslashes and tabs (2 characters each in JSON), longer than the 300-byte cut.
    std::string noisy;
    for (int i = 0; i < 150; ++i) noisy += i % 3 == 0 ? "\"" : i % 3 == 1 ? "\\" : "\t";
    std::string content;
    for (int i = 0; i < 40; ++i) content += noisy + "NEEDLE" + noisy + noisy + "\n";
    for (int i = 0; i < 100; ++i) f.put("d\"\\/file" + std::to_string(100 + i) + ".txt", content);
    const auto r = grep(f, {{"pattern", "NEEDLE"}, {"max_results", 2000}, {"context", 2}});
    REQUIRE_FALSE(r.is_error);
    INFO("grep JSON: " << r.structured.dump().size());
    CHECK(r.structured.dump().size() < tools::max_structured_json);
    CHECK(r.structured["text"] == r.text);
    CHECK(r.structured["matches"] == 4000);
    const auto shown = r.structured["shown_matches"].get<std::uint64_t>();
    CHECK(shown > 0);
    CHECK(shown < 2000);
    const std::string last = r.text.substr(r.text.rfind('\n') + 1);
    CHECK(last == base::with_commas(4000 - shown) + " more matches in " +
                      base::with_commas(r.structured["more_files"].get<std::uint64_t>()) +
                      " files; narrow with glob or path (or raise max_results).");
    // `files` holds each shown file's path, its match count and the shown matching line numbers.
    const Json& first = r.structured["files"].at(0);
    CHECK(first["path"] ==
          "\"d\\\"\\\\/file100.txt\"");  // quoted as git quotes it: a quote and a backslash in the name
    CHECK(first["matches"] == 40);
    CHECK(first["lines"].at(0) == 1);
    CHECK(first["lines"].at(1) == 2);
}
#endif

TEST_CASE("grep: a small result keeps its whole text and the matching line numbers per file") {
    Fixture f;
    f.put("a.txt", "one\ntwo NEEDLE\nthree\nfour NEEDLE\n");
    const auto r = grep(f, {{"pattern", "NEEDLE"}});
    REQUIRE_FALSE(r.is_error);
    CHECK(r.text == "2 matching lines in 1 file under . (1 file searched):\na.txt\n2:two NEEDLE\n4:four NEEDLE");
    CHECK(r.structured["text"] == r.text);
    CHECK(r.structured["files"] == Json::parse(R"([{"path":"a.txt","matches":2,"lines":[2,4]}])"));
}
