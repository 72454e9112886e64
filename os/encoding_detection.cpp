// Charset detection with libuchardet (see encoding_detection.hpp).
#include "os/encoding_detection.hpp"

#include <uchardet/uchardet.h>

#include <algorithm>

namespace os {

std::string detect_charset(std::string_view bytes) {
    uchardet_t detector = uchardet_new();
    if (!detector) return {};
    const std::string_view head = bytes.substr(0, std::min<std::size_t>(bytes.size(), std::size_t{1} << 20));
    std::string name;
    if (uchardet_handle_data(detector, head.data(), head.size()) == 0) {
        uchardet_data_end(detector);
        if (const char* charset = uchardet_get_charset(detector)) name = charset;
    }
    uchardet_delete(detector);
    return name;
}

}  // namespace os
