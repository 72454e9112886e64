// Unit tests of the insert tool, called in process: a line number is one the model saw, so
// after line N needs the file read (or written) by this session and unchanged since.
#include <doctest/doctest.h>

#include <string>

#include "tests/unit/tools/fixture.hpp"

using namespace tools_test;

TEST_CASE("insert after line N: refused on a file this session never read, with its facts now") {
    Fixture f;
    f.put("a.txt", "one\ntwo\nthree\n");
    const auto r = f.insert("a.txt", 2, "new");
    CHECK(r.is_error);
    CHECK(has(r.text, "Refused: this session has not read a.txt"));
    CHECK(has(r.text, "It has 3 lines now (sha256 " + os::sha256_hex("one\ntwo\nthree\n") + ")."));
    CHECK(has(r.text, "Call read on it first, then insert again at the line number read shows"));
    CHECK(f.get("a.txt") == "one\ntwo\nthree\n");
    CHECK_FALSE(f.read("a.txt").is_error);
    const auto ok = f.insert("a.txt", 2, "new");
    CHECK_FALSE(ok.is_error);
    CHECK(f.get("a.txt") == "one\ntwo\nnew\nthree\n");
}

TEST_CASE("insert after line N: refused when another program changed the file since the read") {
    Fixture f;
    f.put("a.txt", "one\ntwo\nthree\n");
    CHECK_FALSE(f.read("a.txt").is_error);
    f.put("a.txt", "header 1\nheader 2\none\ntwo\nthree\n");  // shifted by two lines
    const auto r = f.insert("a.txt", 2, "after two");
    CHECK(r.is_error);
    CHECK(has(r.text, "Refused: a.txt changed on disk since this session last read or wrote it"));
    CHECK(has(r.text, "It has 5 lines now (sha256 " + os::sha256_hex("header 1\nheader 2\none\ntwo\nthree\n") + ")."));
    CHECK(has(r.text, "Call read on it again, then insert again"));
    CHECK(f.get("a.txt") == "header 1\nheader 2\none\ntwo\nthree\n");
    CHECK_FALSE(f.read("a.txt").is_error);
    CHECK_FALSE(f.insert("a.txt", 4, "after two").is_error);
    CHECK(f.get("a.txt") == "header 1\nheader 2\none\ntwo\nafter two\nthree\n");
}

TEST_CASE("insert: what this session wrote counts as seen; the top and the end need no read") {
    Fixture f;
    f.put("a.txt", "one\r\ntwo\r\n");
    CHECK_FALSE(f.insert("a.txt", 0, "top").is_error);      // names no line
    CHECK_FALSE(f.insert("a.txt", -1, "bottom").is_error);  // names no line
    CHECK(f.get("a.txt") == "top\r\none\r\ntwo\r\nbottom\r\n");
    // Written by this session just now: line numbers on that content are known.
    CHECK_FALSE(f.insert("a.txt", 2, "middle").is_error);
    CHECK(f.get("a.txt") == "top\r\none\r\nmiddle\r\ntwo\r\nbottom\r\n");
    f.put("a.txt", "changed\n");
    CHECK(f.insert("a.txt", 1, "x").is_error);
    CHECK(f.get("a.txt") == "changed\n");
}
