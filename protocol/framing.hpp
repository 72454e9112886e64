// How JSON-RPC messages are cut out of a byte stream and put into one: newline-delimited (MCP over
// stdio) or Content-Length headers (LSP). Both byte pumps (stdio, a language server's pipes) use it.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "base/result.hpp"

namespace protocol {

enum class Framing { newline, content_length };

// Cuts frames out of the bytes fed to it. Holds at most one frame's bytes (max_frame) plus the
// chunk being fed: a longer newline frame is skipped as it streams past, a longer Content-Length
// body is skipped by its announced length.
class FrameReader {
public:
    struct Event {
        enum class Kind {
            frame,      // `body` is one whole message
            oversized,  // a frame of `bytes` bytes was over max_frame and skipped; reading goes on
            broken,     // the stream cannot be read on (`why`); nothing more comes from it
        } kind = Kind::frame;
        std::string body;
        std::size_t bytes = 0;
        std::string why;
    };
    // Gets each event; returning false stops the feed (the rest of the chunk is dropped).
    using Sink = std::function<bool(Event event)>;

    static constexpr std::size_t max_header_bytes = 64 * 1024;  // Content-Length headers are short

    FrameReader(Framing framing, std::size_t max_frame) : framing_(framing), max_frame_(max_frame) {}

    void feed(std::string_view bytes, const Sink& sink);
    // The input has ended: a newline stream's last line without its newline is a frame.
    void finish(const Sink& sink);
    bool broken() const { return broken_; }

private:
    void feed_lines(std::string_view bytes, const Sink& sink);
    void feed_content_length(std::string_view bytes, const Sink& sink);
    bool fail(const Sink& sink, std::string why);

    Framing framing_;
    std::size_t max_frame_;
    bool broken_ = false;
    std::string partial_;  // newline: the line so far; content_length: headers, then the body so far
    bool discarding_ = false;
    std::size_t discarded_ = 0;
    bool in_body_ = false;  // content_length: the headers are read, `body_length_` bytes follow
    std::size_t body_length_ = 0;
};

// One message framed for the wire; refused when `body` is over `max_frame` bytes.
base::Result<std::string, std::string> write_frame(Framing framing, std::string body, std::size_t max_frame);

}  // namespace protocol
