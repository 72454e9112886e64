// What the matcher's Unicode tier reads a character as: its NFKC form (utf8proc: fullwidth
// letters, ligatures, decomposed accents, superscripts) with typographic quotes, dashes and spaces
// then read as ASCII (typography.hpp). Works on clusters (a character and the combining marks after
// it), the unit NFKC can change, so that every folded piece maps back to whole source bytes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace text {

struct FoldedCluster {
    std::size_t size = 1;      // source bytes of the cluster at `pos` (at least 1)
    bool changed = false;      // `text` differs from the source bytes
    bool typographic = false;  // the cluster is one character of the typography table
    std::string text;          // the folded form, when changed
};

// The cluster starting at s[pos] (pos < end <= s.size()) and its folded form. A byte that is not
// valid UTF-8 is a cluster of its own and never changes. Clusters are cut at 32 code points.
FoldedCluster fold_cluster_at(std::string_view s, std::size_t pos, std::size_t end);

// `s` with every cluster folded.
std::string fold_unicode(std::string_view s);

}  // namespace text
