/* One filter at two parameter versions (VERSION=1 or 2), for the migration test.
   v1: "strength" in [0, 1]. v2: "amount" in percent, [0, 100]; migrate turns one into the other
   (with FORGETFUL defined it returns OK and renames nothing; with DROPPING it removes the old
   value and never sets the new; with NO_MIGRATE, v2 offers no migrate extension at all). */
#include <stdio.h>
#include "memery_filter.h"

#if VERSION == 1
static const memery_param params[] = {
    { sizeof(memery_param), "strength", "Strength", 0, MEMERY_PARAM_NUMBER, MEMERY_UNIT_NONE, 0, 1, { .number = 0.5 }, 0, 0 },
};
#define SHARE(v) ((v)[0].number)
#else
static const memery_param params[] = {
    { sizeof(memery_param), "amount", "Amount", "percent", MEMERY_PARAM_NUMBER, MEMERY_UNIT_NONE, 0, 100, { .number = 50 }, 0, 0 },
};
#define SHARE(v) ((v)[0].number / 100.0)
#endif

static memery_status process(const memery_filter *f, const memery_host *h, const memery_image *in,
                             const memery_image *out, const memery_value *v, char *m, size_t n) {
    (void)f; (void)h; (void)m; (void)n;
    for (uint32_t y = 0; y < in->height; y++)
        for (uint32_t x = 0; x < in->width; x++) {
            const uint8_t *p = in->pixels + y * in->stride + x * 4;
            uint8_t *q = out->pixels + y * out->stride + x * 4;
            double r = p[0] + (255 - p[0]) * SHARE(v);
            q[0] = (uint8_t)(r + 0.5); q[1] = p[1]; q[2] = p[2]; q[3] = p[3];
        }
    return MEMERY_OK;
}

static const memery_filter filter = {
    sizeof(memery_filter), "org.example.tint", "Red tint", 0, VERSION, MEMERY_FILTER_DETERMINISTIC,
    MEMERY_PIXEL_FORMAT_BIT(MEMERY_PIXEL_RGBA8), 1, params, process,
};

static memery_status migrate(const char *id, uint32_t from, const memery_param_store *store, char *m, size_t n) {
    (void)id;
    if (from != 1) { snprintf(m, n, "no step from version %u", from); return MEMERY_ERROR_UNSUPPORTED; }
#ifdef FORGETFUL
    (void)store; return MEMERY_OK;   /* the careless author's bug: OK, and nothing renamed */
#endif
#ifdef DROPPING
    store->remove(store, "strength"); return MEMERY_OK;   /* removed, and "amount" never set */
#endif
    memery_value strength;
    if (store->get(store, "strength", &strength)) {
        memery_value amount = strength;
        amount.number = strength.number * 100;
        store->set(store, "amount", &amount);
        store->remove(store, "strength");
    }
    return MEMERY_OK;
}

static const memery_migrate_extension migrate_extension = { sizeof(memery_migrate_extension), migrate };

static uint32_t count(void) { return 1; }
static const memery_filter *at(uint32_t i) { return i == 0 ? &filter : 0; }
static const void *extension(const char *id) {
#if VERSION == 2 && !defined(NO_MIGRATE)
    for (const char *a = id, *b = MEMERY_EXT_MIGRATE; ; a++, b++) { if (*a != *b) return 0; if (!*a) return &migrate_extension; }
#else
    (void)id; (void)migrate_extension; return 0;
#endif
}

static const memery_filter_entry entry = {
    sizeof(memery_filter_entry), MEMERY_FILTER_ABI_MAJOR, MEMERY_FILTER_ABI_MINOR,
    "org.example.versioned", "Versioned", "1.0", 0, 0, count, at, extension,
};

MEMERY_EXPORT const memery_filter_entry *memery_plugin_entry(void) { return &entry; }
