// Unit tests of what LSP calls files and findings: file URIs made and compared, language ids, and
// publishDiagnostics entries of any shape (they come from another program) read as findings.
#include <doctest/doctest.h>

#include "checks/lsp_text.hpp"

namespace {

std::vector<std::string> diagnostic_lines(const std::vector<checks::Diagnostic>& found) {
    std::vector<std::string> out;
    for (const auto& d : found)
        out.push_back(d.severity + " " + std::to_string(d.line) + ":" + std::to_string(d.column) + " " + d.message);
    return out;
}

}  // namespace

TEST_CASE("lsp: file URIs, language ids and LSP diagnostics read as findings") {
    CHECK(checks::lsp::file_uri("/a/b c.txt") == "file:///a/b%20c.txt");
    CHECK(checks::lsp::file_uri("/src/caf\xc3\xa9.py") == "file:///src/caf%C3%A9.py");
    CHECK(checks::lsp::file_uri("C:/dir/x.cpp") == "file:///C:/dir/x.cpp");
    CHECK(checks::lsp::file_uri("/odd:name#1") == "file:///odd%3Aname%231");
    CHECK(checks::lsp::language_id("/p/x.cpp") == "cpp");
    CHECK(checks::lsp::language_id("/p/X.PY") == "python");
    CHECK(checks::lsp::language_id("/p/app.tsx") == "typescriptreact");
    CHECK(checks::lsp::language_id("/p/Makefile") == "plaintext");
    CHECK(checks::lsp::language_id("/p.d/file") == "plaintext");

    const auto found = checks::lsp::read_diagnostics(nlohmann::json::parse(R"([
          {"range":{"start":{"line":2,"character":4},"end":{"line":2,"character":5}},"severity":1,"message":"bad","code":"E1"},
          {"range":{"start":{"line":0,"character":0}},"severity":2,"message":"meh","code":42},
          {"severity":4,"message":"hint without a range"},
          {"message":"no severity"},
          {"range":{"start":{"line":1,"character":0}},"severity":3},
          {"range":"not an object","severity":"high","message":"odd shapes","code":{"value":1}},
          {"range":{"start":{"line":-1,"character":2}},"message":"negative"},
          "not an object", null, 7])"),
                                                     "/p/x.c");
    CHECK(diagnostic_lines(found) == std::vector<std::string>{"error 3:5 bad [E1]", "warning 1:1 meh [42]",
                                                              "note 0:0 hint without a range", "error 0:0 no severity",
                                                              "error 0:0 odd shapes", "error 0:0 negative"});
    CHECK(checks::lsp::read_diagnostics(nlohmann::json::object(), "/p/x.c").empty());
    CHECK(checks::lsp::read_diagnostics(nullptr, "/p/x.c").empty());
    CHECK(found[0].file == "/p/x.c");
}

TEST_CASE("lsp: a server's spelling of a URI compares equal to ours") {
    CHECK(checks::lsp::normalized_uri("file:///a/b%20c.txt") ==
          checks::lsp::normalized_uri(checks::lsp::file_uri("/a/b c.txt")));
    CHECK(checks::lsp::normalized_uri("file:///a/b%2") == "file:///a/b%2");  // a cut escape stays as it is
    CHECK(checks::lsp::normalized_uri("file:///a/%zz") == "file:///a/%zz");
#ifdef _WIN32
    CHECK(checks::lsp::normalized_uri("file:///C%3A/Dir/x.c") == checks::lsp::normalized_uri("file:///c:/dir/X.c"));
#endif
}
