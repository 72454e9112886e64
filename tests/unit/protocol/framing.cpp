// Unit tests of protocol/framing: newline and Content-Length frames cut from bytes however they
// arrive (split, several in one read), oversized frames skipped, broken headers, bounded writes.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "protocol/framing.hpp"

using protocol::FrameReader;
using protocol::Framing;

namespace {

// Every event, as "frame:BODY", "oversized:N" or "broken:WHY".
struct Events {
    std::vector<std::string> seen;
    FrameReader::Sink sink() {
        return [this](FrameReader::Event e) {
            switch (e.kind) {
                case FrameReader::Event::Kind::frame: seen.push_back("frame:" + e.body); break;
                case FrameReader::Event::Kind::oversized: seen.push_back("oversized:" + std::to_string(e.bytes)); break;
                case FrameReader::Event::Kind::broken: seen.push_back("broken:" + e.why); break;
            }
            return true;
        };
    }
};

std::string lsp(const std::string& body) {
    return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

}  // namespace

TEST_CASE(
    "framing, newline: a line split over reads is one frame; two lines in one read are two; blank lines are none") {
    FrameReader reader(Framing::newline, 100);
    Events e;
    reader.feed(R"({"a":)", e.sink());
    CHECK(e.seen.empty());
    reader.feed("1}\n\r\n{\"b\":2}\n{\"c\":3}\n{\"d\"", e.sink());
    CHECK(e.seen == std::vector<std::string>{R"(frame:{"a":1})", R"(frame:{"b":2})", R"(frame:{"c":3})"});
    reader.finish(e.sink());  // the last line needs no newline
    CHECK(e.seen.back() == R"(frame:{"d")");
}

TEST_CASE("framing, newline: a line over the limit is skipped as it streams past, and the next one is read") {
    FrameReader reader(Framing::newline, 8);
    Events e;
    reader.feed("0123456", e.sink());
    reader.feed("789abc", e.sink());
    reader.feed("def\nok\n", e.sink());
    CHECK(e.seen == std::vector<std::string>{"oversized:16", "frame:ok"});
    reader.feed("0123456789", e.sink());
    reader.finish(e.sink());
    CHECK(e.seen.back() == "oversized:10");
}

TEST_CASE("framing, Content-Length: split headers and bodies, two frames in one read, header case and other headers") {
    FrameReader reader(Framing::content_length, 100);
    Events e;
    const std::string both =
        lsp(R"({"a":1})") + "content-length:  7\r\nContent-Type: application/vscode-jsonrpc\r\n\r\n" + R"({"b":2})";
    // Byte by byte: every split point, the header end's four bytes too.
    for (const char c : both) reader.feed(std::string_view(&c, 1), e.sink());
    CHECK(e.seen == std::vector<std::string>{R"(frame:{"a":1})", R"(frame:{"b":2})"});
    const std::string third = lsp("[33]");
    reader.feed(lsp("[1]") + lsp("[22]") + third.substr(0, third.size() - 2), e.sink());
    CHECK(e.seen == std::vector<std::string>{R"(frame:{"a":1})", R"(frame:{"b":2})", "frame:[1]", "frame:[22]"});
    reader.feed("3]", e.sink());
    CHECK(e.seen.back() == "frame:[33]");
    CHECK_FALSE(reader.broken());
}

TEST_CASE("framing, Content-Length: a body over the limit is skipped by its length, and the next frame is read") {
    FrameReader reader(Framing::content_length, 10);
    Events e;
    const std::string big(25, 'x');
    reader.feed(lsp(big).substr(0, 30), e.sink());
    reader.feed(lsp(big).substr(30) + lsp("{}"), e.sink());
    CHECK(e.seen == std::vector<std::string>{"oversized:25", "frame:{}"});
}

TEST_CASE("framing, Content-Length: a missing, non-numeric, doubled or endless header breaks the stream, said why") {
    const auto broken = [](const std::string& bytes) {
        FrameReader reader(Framing::content_length, 100);
        Events e;
        reader.feed(bytes, e.sink());
        reader.feed(lsp("{}"), e.sink());  // nothing more is read once broken
        CHECK(reader.broken());
        REQUIRE(e.seen.size() == 1);
        return e.seen[0];
    };
    CHECK(broken("Content-Type: x\r\n\r\n{}") == "broken:a header block without Content-Length");
    CHECK(broken("Content-Length: -5\r\n\r\n") == "broken:Content-Length \"-5\" is not a byte count");
    CHECK(broken("Content-Length: 12abc\r\n\r\n") == "broken:Content-Length \"12abc\" is not a byte count");
    CHECK(broken("Content-Length: 99999999999999999999999\r\n\r\n") ==
          "broken:Content-Length \"99999999999999999999999\" is not a byte count");
    CHECK(broken("Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}") == "broken:Content-Length appears twice");
    CHECK(broken("garbage\r\n\r\n") == "broken:a header line without a colon (\"garbage\")");
    CHECK(broken(std::string(FrameReader::max_header_bytes + 10, 'h')) ==
          "broken:no end of headers (a blank line) within 65536 bytes");

    FrameReader cut(Framing::content_length, 100);
    Events e;
    cut.feed("Content-Length: 10\r\n\r\n{}", e.sink());
    cut.finish(e.sink());
    CHECK(e.seen == std::vector<std::string>{"broken:the input ended inside a message (its body)"});
}

TEST_CASE("framing: a sink that returns false stops the feed") {
    FrameReader reader(Framing::newline, 100);
    int calls = 0;
    reader.feed("a\nb\nc\n", [&](FrameReader::Event) { return ++calls < 2; });
    CHECK(calls == 2);
}

TEST_CASE("framing: written frames, and a message over the limit refused with its size") {
    CHECK(protocol::write_frame(Framing::newline, "{}", 10).value() == "{}\n");
    CHECK(protocol::write_frame(Framing::content_length, "{\"a\":1}", 10).value() ==
          "Content-Length: 7\r\n\r\n{\"a\":1}");
    auto over = protocol::write_frame(Framing::content_length, std::string(11, 'x'), 10);
    REQUIRE_FALSE(over.ok());
    CHECK(over.error() == "a message of 11 bytes is over the limit of 10 bytes for one message");
}
