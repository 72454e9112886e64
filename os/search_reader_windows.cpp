// SearchReader on Windows: read_regular_file for each file, the last file's bytes kept until the next.
// (The POSIX version keeps the folder open and one buffer for every file; see search_reader.hpp.)
#include "os/search_reader.hpp"

#include <cstring>

namespace os {

struct SearchReader::Impl {
    ReadFile file;
};

SearchReader::SearchReader() : impl_(std::make_unique<Impl>()) {}
SearchReader::~SearchReader() = default;

base::Result<std::string_view, ReadFailure> SearchReader::read(const std::string& real, std::uint64_t max_size,
                                                               bool skip_linked) {
    linked_ = nul_ = cr_ = false;
    auto file = read_regular_file(real, max_size);
    if (!file) return base::fail(std::move(file.error()));
    impl_->file = std::move(*file);
    if (skip_linked && impl_->file.stat.links > 1) {  // read, but never shown or searched
        linked_ = true;
        std::string().swap(impl_->file.bytes);
        return std::string_view();
    }
    const std::string_view bytes = impl_->file.bytes;
    nul_ = std::memchr(bytes.data(), '\0', bytes.size()) != nullptr;
    cr_ = std::memchr(bytes.data(), '\r', bytes.size()) != nullptr;
    return bytes;
}

void SearchReader::release_above(std::size_t keep) {
    if (impl_->file.bytes.capacity() > keep) std::string().swap(impl_->file.bytes);
}

}  // namespace os
