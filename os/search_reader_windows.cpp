// SearchReader on Windows: read_regular_file for each file, its buffer kept between files.
// (The POSIX version keeps the folder open as well; see search_reader.hpp.)
#include "os/search_reader.hpp"

#include <cstring>

namespace platform {

struct SearchReader::Impl {
    ReadFile file;
};

SearchReader::SearchReader() : impl_(std::make_unique<Impl>()) {}
SearchReader::~SearchReader() = default;

bool SearchReader::read(const std::string& real, std::uint64_t max_size, std::string_view& bytes, ReadFailure& failure) {
    if (!read_regular_file(real, max_size, impl_->file, failure)) return false;
    bytes = impl_->file.bytes;
    nul_ = std::memchr(bytes.data(), '\0', bytes.size()) != nullptr;
    cr_ = std::memchr(bytes.data(), '\r', bytes.size()) != nullptr;
    return true;
}

void SearchReader::release_above(std::size_t keep) {
    if (impl_->file.bytes.capacity() > keep) std::string().swap(impl_->file.bytes);
}

}  // namespace platform
