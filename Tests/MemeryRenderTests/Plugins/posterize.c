/* A third-party filter, written from docs/plugins.md alone: posterize to N levels. */
#include <math.h>
#include "memery_filter.h"

static const memery_param params[] = {
    { sizeof(memery_param), "levels", "Levels", "Colours per channel", MEMERY_PARAM_INTEGER, MEMERY_UNIT_NONE,
      2, 64, { .integer = 4 }, 0, 0 },
};

static memery_status process(const memery_filter *f, const memery_host *host, const memery_image *in,
                             const memery_image *out, const memery_value *values, char *message, size_t message_size) {
    (void)f; (void)host; (void)message; (void)message_size;   /* this filter cannot fail */
    double step = 255.0 / (double)(values[0].integer - 1);
    for (uint32_t y = 0; y < in->height; y++)
        for (uint32_t x = 0; x < in->width; x++) {
            const uint8_t *p = in->pixels + y * in->stride + x * 4;
            uint8_t *q = out->pixels + y * out->stride + x * 4;
            for (int c = 0; c < 3; c++) q[c] = (uint8_t)(round(p[c] / step) * step);
            q[3] = p[3];
        }
    return MEMERY_OK;
}

static const memery_filter posterize = {
    sizeof(memery_filter), "org.example.posterize", "Posterize", "Few colours per channel",
    1 /* parameter version */, MEMERY_FILTER_DETERMINISTIC, MEMERY_PIXEL_FORMAT_BIT(MEMERY_PIXEL_RGBA8),
    1, params, process,
};

static uint32_t count(void) { return 1; }
static const memery_filter *at(uint32_t i) { return i == 0 ? &posterize : 0; }
static const void *extension(const char *id) { (void)id; return 0; }

static const memery_filter_entry entry = {
    sizeof(memery_filter_entry), MEMERY_FILTER_ABI_MAJOR, MEMERY_FILTER_ABI_MINOR,
    "org.example.filters", "Example filters", "1.0", 0, 0, count, at, extension,
};

MEMERY_EXPORT const memery_filter_entry *memery_plugin_entry(void) { return &entry; }
