// Encoding conversion on POSIX: iconv (glibc on Linux, libiconv in the macOS SDK), one descriptor
// per call, no transliteration, so that every refusal names the first unconvertible character.
#include "os/encoding_conversion.hpp"

#include <iconv.h>

#include <cerrno>

namespace os::conversion {

namespace {

base::Result<std::string, Stop> iconv_convert(std::string_view input, const char* to, const char* from,
                                              std::size_t reserve) {
    iconv_t cd = iconv_open(to, from);
    if (cd == reinterpret_cast<iconv_t>(-1)) return base::fail(Stop{0});
    std::string out(reserve, '\0');
    char* in = const_cast<char*>(input.data());  // iconv's signature; it does not write the input
    std::size_t in_left = input.size();
    std::size_t used = 0;
    bool failed = false;
    for (;;) {
        char* dst = out.data() + used;
        std::size_t out_left = out.size() - used;
        const std::size_t r = iconv(cd, in_left ? &in : nullptr, in_left ? &in_left : nullptr, &dst, &out_left);
        used = out.size() - out_left;
        if (r != static_cast<std::size_t>(-1)) {
            if (in_left == 0) break;
            continue;
        }
        if (errno == E2BIG) {
            out.resize(out.size() * 2 + 64);
            continue;
        }
        failed = true;  // EILSEQ: no such character; EINVAL: a sequence cut off at the end
        break;
    }
    iconv_close(cd);
    if (failed) return base::fail(Stop{input.size() - in_left});
    out.resize(used);
    return out;
}

}  // namespace

base::Result<std::string, Stop> to_utf8(std::string_view bytes, const text::EncodingInfo& from) {
    const std::string from_name(from.iconv_name);
    return iconv_convert(bytes, "UTF-8", from_name.c_str(), bytes.size() * (from.single_byte ? 2 : 3) / 2 + 64);
}

base::Result<std::string, Stop> from_utf8(std::string_view utf8, const text::EncodingInfo& to) {
    const std::string to_name(to.iconv_name);
    return iconv_convert(utf8, to_name.c_str(), "UTF-8", utf8.size() + 64);
}

}  // namespace os::conversion
