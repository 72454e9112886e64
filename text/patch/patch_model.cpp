// The names of the patch model's enums, as results and messages show them.
// The model's header is included everywhere and holds no code.
#include "text/patch/patch_model.hpp"

namespace text {

const char* to_string(PatchFormat format) {
    switch (format) {
        case PatchFormat::search_replace: return "search_replace";
        case PatchFormat::unified: return "unified";
        case PatchFormat::apply_patch: return "apply_patch";
    }
    return "search_replace";
}

const char* to_string(FileAction action) {
    switch (action) {
        case FileAction::update: return "update";
        case FileAction::create: return "create";
        case FileAction::remove: return "delete";
    }
    return "update";
}

}  // namespace text
