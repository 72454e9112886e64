// read with file_paths (several files, each in its share of the reply, failures in place, each
// recorded as read) and read of an image (by its magic bytes) as MCP image content.
#include <doctest/doctest.h>

#include <string>

#include "os/crypto.hpp"
#include "tests/unit/tools/fixture.hpp"

namespace {

using tools::Json;
using tools_test::Fixture;
using tools_test::has;

std::string lines(const std::string& word, int n) {
    std::string out;
    for (int i = 1; i <= n; ++i) out += word + " " + std::to_string(i) + "\n";
    return out;
}

const std::string png_bytes =
    std::string("\x89PNG\r\n\x1a\n", 8) + std::string("\0\0\0\rIHDR", 8) + std::string(32, '\0');

}  // namespace

TEST_CASE("read file_paths: each file in order within its share, a missing one in place, each recorded as read") {
    Fixture f;
    f.settings.limits.max_result_text = 8192;
    f.put("a.txt", lines("alpha", 1000));
    f.put("b.txt", "b\r\n");
    const auto r = f.call(tools::read_handler(), {{"file_paths", {"a.txt", "nope.txt", "b.txt"}}});
    INFO(r.text);
    REQUIRE(!r.is_error);
    CHECK(r.text.rfind("Read 2 of 3 files (1 could not be read: see [not read]).\n\n==> a.txt <==\n     1\talpha 1\n",
                       0) == 0);
    CHECK(has(r.text, "\n\n==> nope.txt <==\n[not read] File not found: nope.txt"));
    CHECK(has(r.text, "\n\n==> b.txt <==\n     1\tb"));
    CHECK(r.text.size() < 8192 + 512);  // three shares of 8192 / 3, and the headers
    const Json& files = r.structured["files"];
    REQUIRE(files.size() == 3);
    CHECK(files[0]["truncated"] == true);
    CHECK(files[0]["end_line"].get<int>() < 1000);
    CHECK(files[1]["reason"] == "not_found");
    CHECK(files[2]["line_ending"] == "crlf");
    CHECK(r.structured["text"] == r.text);
    CHECK(f.states.known_hash(f.path("a.txt")).has_value());
    CHECK(f.states.known_hash(f.path("b.txt")).has_value());

    const auto none = f.call(tools::read_handler(), Json::object());
    CHECK(none.is_error);
    CHECK(has(none.text, "file_paths"));
}

TEST_CASE("read of an image: MCP image content by magic bytes, bounded at 5 MiB; other binary refused as before") {
    Fixture f;
    f.put("shot.bin", png_bytes);
    const auto r = f.read("shot.bin");
    INFO(r.text);
    REQUIRE(!r.is_error);
    REQUIRE(r.extra_content.size() == 1);
    CHECK(r.extra_content[0]["type"] == "image");
    CHECK(r.extra_content[0]["mimeType"] == "image/png");
    CHECK(os::crypto::from_base64(r.extra_content[0]["data"].get<std::string>()) == png_bytes);
    CHECK(r.structured["mime_type"] == "image/png");

    f.put("anim.gif", std::string("GIF89a\0\0", 8));
    CHECK(f.read("anim.gif").extra_content.at(0)["mimeType"] == "image/gif");
    f.put("photo", std::string("\xff\xd8\xff\xe0\0", 5));
    CHECK(f.read("photo").extra_content.at(0)["mimeType"] == "image/jpeg");
    f.put("pic.webp", std::string("RIFF\0\0\0\0WEBPVP8 ", 16));
    CHECK(f.read("pic.webp").extra_content.at(0)["mimeType"] == "image/webp");

    f.put("huge.png", png_bytes + std::string(5u << 20, '\0'));
    const auto huge = f.read("huge.png");
    CHECK(huge.is_error);
    CHECK(has(huge.text, "over the 5.0 MiB"));
    f.put("data.bin", std::string("\0\1\2", 3));
    const auto binary = f.read("data.bin");
    CHECK(binary.is_error);
    CHECK(has(binary.text, "looks binary"));
    CHECK(binary.extra_content.empty());
}

TEST_CASE("read file_paths keeps to the client's budget with many files: the rest are named, not read (issue 39)") {
    // Codex's budget is 9,000 bytes; 128 files once came back as 131 KB (a share of at least 1 KB each).
    Fixture f;
    f.settings.limits.max_result_text = 9000;
    Json paths = Json::array();
    for (int i = 0; i < 128; ++i) {
        const std::string name = "f" + std::to_string(i) + ".txt";
        f.put(name, lines("line", 200));
        paths.push_back(name);
    }
    const auto r = f.call(tools::read_handler(), {{"file_paths", paths}});
    INFO(r.text.substr(0, 400));
    REQUIRE(!r.is_error);
    const Json& files = r.structured["files"];
    const Json& not_read = r.structured["not_read"];
    REQUIRE(not_read.is_array());
    CHECK(files.size() + not_read.size() == 128);
    CHECK(files.size() >= 2);
    CHECK(not_read.front() == paths[files.size()]);
    CHECK(not_read.back() == "f127.txt");
    CHECK(r.text.size() + files.dump().size() < 9000 + 2048);  // the budget, a header and the closing sentence
    CHECK(has(r.text, "Read " + std::to_string(files.size()) + " of 128 files; " + std::to_string(not_read.size()) +
                          " did not fit in this reply (see the end)."));
    CHECK(has(r.text, "[not read] " + std::to_string(not_read.size()) + " more files did not fit in this reply"));
    // The files read were recorded as read; the others were not.
    CHECK(f.states.known_hash(f.path("f0.txt")).has_value());
    CHECK_FALSE(f.states.known_hash(f.path("f127.txt")).has_value());
}
