// FrameReader and write_frame: newline and Content-Length framing, bounded in bytes both ways.
#include "protocol/framing.hpp"

#include <cctype>
#include <cstring>
#include <optional>

namespace protocol {

namespace {

constexpr std::string_view header_end = "\r\n\r\n";

bool blank(std::string_view line) { return line.find_first_not_of(" \t\r") == std::string_view::npos; }

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

// The Content-Length of a header block, or why there is none that can be trusted.
base::Result<std::size_t, std::string> content_length(std::string_view headers) {
    std::optional<std::size_t> length;
    while (!headers.empty()) {
        const auto eol = headers.find("\r\n");
        const std::string_view line = headers.substr(0, eol);
        headers = eol == std::string_view::npos ? std::string_view() : headers.substr(eol + 2);
        const auto colon = line.find(':');
        if (colon == std::string_view::npos)
            return base::fail("a header line without a colon (\"" + std::string(line.substr(0, 80)) + "\")");
        if (lower(trim(line.substr(0, colon))) != "content-length") continue;
        const std::string_view value = trim(line.substr(colon + 1));
        if (value.empty() || value.size() > 19 || value.find_first_not_of("0123456789") != std::string_view::npos)
            return base::fail("Content-Length \"" + std::string(value.substr(0, 40)) + "\" is not a byte count");
        if (length) return base::fail(std::string("Content-Length appears twice"));
        std::size_t n = 0;
        for (const char c : value) n = n * 10 + static_cast<std::size_t>(c - '0');
        length = n;
    }
    if (!length) return base::fail(std::string("a header block without Content-Length"));
    return *length;
}

}  // namespace

bool FrameReader::fail(const Sink& sink, std::string why) {
    broken_ = true;
    partial_.clear();
    partial_.shrink_to_fit();
    Event event;
    event.kind = Event::Kind::broken;
    event.why = std::move(why);
    sink(std::move(event));
    return false;
}

void FrameReader::feed(std::string_view bytes, const Sink& sink) {
    if (broken_) return;
    if (framing_ == Framing::newline)
        feed_lines(bytes, sink);
    else
        feed_content_length(bytes, sink);
}

void FrameReader::feed_lines(std::string_view bytes, const Sink& sink) {
    while (!bytes.empty()) {
        const void* nl = std::memchr(bytes.data(), '\n', bytes.size());
        const std::size_t piece =
            nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - bytes.data()) : bytes.size();
        if (!discarding_ && partial_.size() + piece > max_frame_) {
            discarding_ = true;
            discarded_ = partial_.size();
            partial_.clear();
            partial_.shrink_to_fit();
        }
        if (discarding_)
            discarded_ += piece;
        else
            partial_.append(bytes.data(), piece);
        if (!nl) return;
        bytes.remove_prefix(piece + 1);
        Event event;
        if (discarding_) {
            discarding_ = false;
            event.kind = Event::Kind::oversized;
            event.bytes = discarded_;
            discarded_ = 0;
        } else {
            event.body.swap(partial_);
            if (blank(event.body)) continue;  // blank lines carry nothing
            event.bytes = event.body.size();
        }
        if (!sink(std::move(event))) return;
    }
}

void FrameReader::feed_content_length(std::string_view bytes, const Sink& sink) {
    while (!bytes.empty()) {
        if (in_body_) {
            const std::size_t missing = body_length_ - (discarding_ ? discarded_ : partial_.size());
            const std::size_t take = std::min(missing, bytes.size());
            if (discarding_)
                discarded_ += take;
            else
                partial_.append(bytes.data(), take);
            bytes.remove_prefix(take);
            if (take < missing) return;
            in_body_ = false;
            Event event;
            if (discarding_) {
                discarding_ = false;
                discarded_ = 0;
                event.kind = Event::Kind::oversized;
            } else {
                event.body.swap(partial_);
            }
            event.bytes = body_length_;
            if (!sink(std::move(event))) return;
            continue;
        }
        // Headers: read up to the blank line that ends them (which may straddle two chunks).
        const std::size_t before = partial_.size();
        const std::size_t take = std::min(bytes.size(), max_header_bytes + header_end.size() - before);
        partial_.append(bytes.data(), take);
        const auto end = partial_.find(header_end, before >= 3 ? before - 3 : 0);
        if (end == std::string::npos) {
            if (partial_.size() > max_header_bytes) {
                fail(sink, "no end of headers (a blank line) within " + std::to_string(max_header_bytes) + " bytes");
                return;
            }
            bytes.remove_prefix(take);
            continue;
        }
        bytes.remove_prefix(end + header_end.size() - before);
        auto length = content_length(std::string_view(partial_).substr(0, end));
        partial_.clear();
        if (!length) {
            fail(sink, std::move(length.error()));
            return;
        }
        in_body_ = true;
        body_length_ = *length;
        discarding_ = body_length_ > max_frame_;
        discarded_ = 0;
        if (!discarding_) partial_.reserve(body_length_);
        if (body_length_ == 0) {  // nothing follows: the (empty) frame is whole now
            in_body_ = false;
            discarding_ = false;
            if (!sink(Event{})) return;
        }
    }
}

void FrameReader::finish(const Sink& sink) {
    if (broken_) return;
    if (framing_ == Framing::newline) {
        if (discarding_) {
            Event event;
            event.kind = Event::Kind::oversized;
            event.bytes = discarded_;
            discarding_ = false;
            sink(std::move(event));
        } else if (!blank(partial_)) {
            Event event;
            event.body.swap(partial_);
            event.bytes = event.body.size();
            sink(std::move(event));
        }
        partial_.clear();
        return;
    }
    if (in_body_ || !partial_.empty())
        fail(sink, "the input ended inside a message (" + std::string(in_body_ ? "its body" : "its headers") + ")");
}

base::Result<std::string, std::string> write_frame(Framing framing, std::string body, std::size_t max_frame) {
    if (body.size() > max_frame)
        return base::fail("a message of " + std::to_string(body.size()) + " bytes is over the limit of " +
                          std::to_string(max_frame) + " bytes for one message");
    if (framing == Framing::newline) {
        body += '\n';  // a serialized message holds no raw newline
        return body;
    }
    std::string out = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
    out.append(body);
    return out;
}

}  // namespace protocol
