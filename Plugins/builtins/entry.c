/* The built-in plugin's entry: the ten filters Memery ships. */
#include "builtins.h"

static const memery_filter *const filters[] = {
    &builtin_grayscale, &builtin_sepia, &builtin_invert, &builtin_brightness_contrast, &builtin_saturation,
    &builtin_gaussian_blur, &builtin_sharpen, &builtin_pixelate, &builtin_vignette, &builtin_deep_fry,
};

static uint32_t filter_count(void) { return sizeof(filters) / sizeof(filters[0]); }

static const memery_filter *filter_at(uint32_t index) { return index < filter_count() ? filters[index] : 0; }

static const void *extension(const char *id) { (void)id; return 0; }

static const memery_filter_entry entry = {
    sizeof(memery_filter_entry), MEMERY_FILTER_ABI_MAJOR, MEMERY_FILTER_ABI_MINOR,
    "org.memery.builtins", "Memery built-in filters", "1.0.0",
    0, 0, filter_count, filter_at, extension,
};

MEMERY_EXPORT const memery_filter_entry *memery_plugin_entry(void) { return &entry; }
