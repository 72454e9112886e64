// FileEncoding: a file's encoding decision as the tools carry it, and the two conversions they need.
#include "tools/pipeline/file_encoding.hpp"

#include "tools/pipeline/file_access_messages.hpp"

namespace tools {

std::optional<std::string> FileEncoding::text_of(std::string_view raw) const {
    if (name == "utf-8" || name == os::unknown_8bit || !raw.starts_with(bom)) return std::nullopt;
    auto text = os::decode(raw.substr(bom.size()), name);
    if (!text) return std::nullopt;
    return std::move(*text);
}

base::Result<std::string> FileEncoding::bytes_of(std::string_view text, const std::string& display) const {
    auto encoded = os::encode(text, name);
    if (!encoded)
        return base::fail(base::Failure{cannot_encode_message(display, how, encoded.error().message),
                                        base::ErrorReason::invalid_arguments});
    if (bom.empty()) return std::move(*encoded);
    std::string out;
    out.reserve(bom.size() + encoded->size());
    out += bom;
    out += *encoded;
    return out;
}

FileEncoding file_encoding(os::EncodingDecision& decision, std::string_view raw, std::string& text) {
    FileEncoding out;
    out.name = decision.encoding;
    out.source = decision.source;
    out.confidence = decision.confidence;
    out.how = std::move(decision.how);
    out.note = std::move(decision.note);
    out.transcoded = decision.lossless && decision.encoding != "utf-8";
    if (out.transcoded) {
        out.bom = std::string(raw.substr(0, decision.bom_size));
        text = std::move(decision.text);
    }
    return out;
}

}  // namespace tools
