/* SwiftPM needs a source file in a C target; the ABI itself is the header. */
#include "memery_filter.h"

/* Hidden: a plugin that links this target must export nothing but its entry. */
__attribute__((visibility("hidden"))) uint32_t memery_filter_abi_version(void) {
    return (MEMERY_FILTER_ABI_MAJOR << 16) | MEMERY_FILTER_ABI_MINOR;
}
