// Encoding conversion on POSIX: iconv (glibc on Linux, libiconv in the macOS SDK), no
// transliteration, so that every refusal names the first unconvertible character. Descriptors are
// kept for reuse (see Descriptors).
#include "os/encoding_conversion.hpp"

#include <iconv.h>

#include <cerrno>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace os::conversion {

namespace {

// Open descriptors kept for reuse, per conversion. glibc loads an encoding's gconv module when a
// descriptor for it is opened and unloads it when the last one is closed: a descriptor per call
// was a dlopen and a dlclose per file grep decoded, and ThreadSanitizer saw the loader's own
// allocations race when grep's workers did that at once. Bounded: at most kept_per_conversion
// descriptors for each conversion, and the conversions are those of text::find_encoding's table.
class Descriptors {
public:
    static Descriptors& shared() {
        static Descriptors* const pool = new Descriptors;  // never destroyed: a converting thread may outlive exit
        return *pool;
    }

    // A descriptor in its initial state, or (iconv_t)-1 when the conversion is not available.
    iconv_t take(const char* to, const char* from) {
        {
            std::lock_guard lock(mutex_);
            auto& free = kept_[key(to, from)];
            if (!free.empty()) {
                iconv_t cd = free.back();
                free.pop_back();
                return cd;
            }
        }
        return iconv_open(to, from);
    }

    void give_back(const char* to, const char* from, iconv_t cd) {
        iconv(cd, nullptr, nullptr, nullptr, nullptr);  // back to the initial state
        {
            std::lock_guard lock(mutex_);
            auto& free = kept_[key(to, from)];
            if (free.size() < kept_per_conversion) {
                free.push_back(cd);
                return;
            }
        }
        iconv_close(cd);  // others of this conversion stay open: the module stays loaded
    }

private:
    static constexpr std::size_t kept_per_conversion = 8;
    static std::string key(const char* to, const char* from) { return std::string(from) + '>' + to; }
    std::mutex mutex_;
    std::map<std::string, std::vector<iconv_t>> kept_;
};

base::Result<std::string, Stop> iconv_convert(std::string_view input, const char* to, const char* from,
                                              std::size_t reserve) {
    Descriptors& descriptors = Descriptors::shared();
    iconv_t cd = descriptors.take(to, from);
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
    descriptors.give_back(to, from, cd);
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
