/* Deliberately broken plugins for the loader's checks; BROKEN selects which. */
#include <stdio.h>
#include "memery_filter.h"

static memery_status process(const memery_filter *f, const memery_host *h, const memery_image *in,
                             const memery_image *out, const memery_value *v, char *m, size_t n) {
    (void)f; (void)h; (void)in; (void)out; (void)v; (void)m; (void)n;
    return MEMERY_OK;
}

#if BROKEN == 3
static const memery_filter filter = { sizeof(memery_filter), "not a reverse dns id", "Bad", 0, 1, 0,
    MEMERY_PIXEL_FORMAT_BIT(MEMERY_PIXEL_RGBA8), 0, 0, process };
#elif BROKEN == 4
static const memery_param params[] = {
    { sizeof(memery_param), "amount", "Amount", 0, MEMERY_PARAM_NUMBER, MEMERY_UNIT_NONE, 0, 1, { .number = 7 }, 0, 0 },
};
static const memery_filter filter = { sizeof(memery_filter), "org.example.bad-default", "Bad", 0, 1, 0,
    MEMERY_PIXEL_FORMAT_BIT(MEMERY_PIXEL_RGBA8), 1, params, process };
#elif BROKEN == 5
static memery_status failing(const memery_filter *f, const memery_host *h, const memery_image *in,
                             const memery_image *out, const memery_value *v, char *m, size_t n) {
    (void)f; (void)h; (void)in; (void)out; (void)v;
    snprintf(m, n, "the moon is in the wrong phase");
    return MEMERY_ERROR_FAILED;
}
#include <stdio.h>
static const memery_filter filter = { sizeof(memery_filter), "org.example.failing", "Failing", 0, 1, 0,
    MEMERY_PIXEL_FORMAT_BIT(MEMERY_PIXEL_RGBA8), 0, 0, failing };
#elif BROKEN >= 6 && BROKEN <= 9
#include <stdlib.h>
static memery_status misbehave(const memery_filter *f, const memery_host *h, const memery_image *in,
                               const memery_image *out, const memery_value *v, char *m, size_t n) {
    (void)f; (void)h; (void)out; (void)v; (void)m; (void)n;
#if BROKEN == 6
    volatile uint8_t *nowhere = 0; nowhere[in->width] = 1;            /* crash: SIGSEGV */
#elif BROKEN == 7
    for (volatile unsigned long i = 0;; i++) {}                        /* hang */
#elif BROKEN == 8
    abort();                                                           /* abort: SIGABRT */
#endif
    return (memery_status)99;                                          /* garbage status */
}
#define STRING2(x) #x
#define STRING(x) STRING2(x)
static const memery_filter filter = { sizeof(memery_filter), "org.example.bad" STRING(BROKEN), "Bad", 0, 1, 0,
    MEMERY_PIXEL_FORMAT_BIT(MEMERY_PIXEL_RGBA8), 0, 0, misbehave };
#elif BROKEN == 11 || BROKEN == 12
static unsigned calls;
static memery_status sloppy(const memery_filter *f, const memery_host *h, const memery_image *in,
                            const memery_image *out, const memery_value *v, char *m, size_t n) {
    (void)f; (void)h; (void)v; (void)m; (void)n;
    calls++;
    for (uint32_t y = 0; y < in->height; y++)
        for (uint32_t x = 0; x < in->width + (BROKEN == 11 ? 2 : 0); x++)   /* 11: two pixels too many per row */
            for (int c = 0; c < 4; c++) {
                size_t i = y * in->stride + x * 4 + c;
                if (i < in->height * in->stride) out->pixels[i] = (uint8_t)(BROKEN == 12 ? calls : in->pixels[i]);  /* 12: not deterministic */
            }
    return MEMERY_OK;
}
static const memery_filter filter = { sizeof(memery_filter), "org.example.sloppy", "Sloppy", 0, 1, MEMERY_FILTER_DETERMINISTIC,
    MEMERY_PIXEL_FORMAT_BIT(MEMERY_PIXEL_RGBA8), 0, 0, sloppy };
#elif BROKEN == 13
#include <string.h>
/* Not broken: chatty. Logs a line at each level (one of them two lines long) and copies its input. */
static memery_status chatty(const memery_filter *f, const memery_host *h, const memery_image *in,
                            const memery_image *out, const memery_value *v, char *m, size_t n) {
    (void)f; (void)v; (void)m; (void)n;
    char line[100];
    snprintf(line, sizeof line, "starting on %ux%u", in->width, in->height);
    h->log(h, MEMERY_LOG_DEBUG, line);
    h->log(h, MEMERY_LOG_INFO, "halfway there");
    h->log(h, MEMERY_LOG_WARNING, "3 rows looked odd\nand were left alone");
    h->log(h, MEMERY_LOG_ERROR, "not really an error");
    for (uint32_t y = 0; y < in->height; y++)   /* rows only: the padding is the host's */
        memcpy(out->pixels + y * out->stride, in->pixels + y * in->stride, (size_t)in->width * 4);
    return MEMERY_OK;
}
static const memery_filter filter = { sizeof(memery_filter), "org.example.chatty", "Chatty", 0, 1, MEMERY_FILTER_DETERMINISTIC,
    MEMERY_PIXEL_FORMAT_BIT(MEMERY_PIXEL_RGBA8), 0, 0, chatty };
#elif BROKEN == 14 || BROKEN == 15
/* 14: writes one row past the end of its output (the overrun that used to pass on small
   pictures). 15: writes into its input, which the ABI gives as const. */
static memery_status overrun(const memery_filter *f, const memery_host *h, const memery_image *in,
                             const memery_image *out, const memery_value *v, char *m, size_t n) {
    (void)f; (void)h; (void)v; (void)m; (void)n;
    for (uint32_t y = 0; y < in->height; y++)
        for (uint32_t x = 0; x < in->width * 4; x++) out->pixels[y * out->stride + x] = in->pixels[y * in->stride + x];
#if BROKEN == 14
    for (uint32_t x = 0; x < in->width * 4; x++) out->pixels[in->height * out->stride + x] = 0;
#else
    ((uint8_t *)in->pixels)[0] = 0;
#endif
    return MEMERY_OK;
}
static const memery_filter filter = { sizeof(memery_filter), BROKEN == 14 ? "org.example.overrun" : "org.example.scribbler", "Overrun", 0, 1, 0,
    MEMERY_PIXEL_FORMAT_BIT(MEMERY_PIXEL_RGBA8), 0, 0, overrun };
#elif BROKEN == 16
/* Reports progress on every row but pays no attention to the answer. */
static memery_status deaf(const memery_filter *f, const memery_host *h, const memery_image *in,
                          const memery_image *out, const memery_value *v, char *m, size_t n) {
    (void)f; (void)v; (void)m; (void)n;
    for (uint32_t y = 0; y < in->height; y++) {
        for (uint32_t x = 0; x < in->width * 4; x++) out->pixels[y * out->stride + x] = in->pixels[y * in->stride + x];
        (void)h->progress(h, (double)(y + 1) / in->height);
    }
    return MEMERY_OK;
}
static const memery_filter filter = { sizeof(memery_filter), "org.example.deaf", "Deaf", 0, 1, MEMERY_FILTER_DETERMINISTIC,
    MEMERY_PIXEL_FORMAT_BIT(MEMERY_PIXEL_RGBA8), 0, 0, deaf };
#elif BROKEN == 17
#include <string.h>
/* Not broken: two angles, one declared in degrees (ABI 1.1), one declared as a plain number
   that the units extension calls degrees (the way that also loads in a 1.0 host). */
static const memery_param angles[] = {
    { sizeof(memery_param), "turn", "Turn", 0, MEMERY_PARAM_NUMBER, MEMERY_UNIT_DEGREES, -180, 180, { .number = 0 }, 0, 0 },
    { sizeof(memery_param), "hue", "Hue", 0, MEMERY_PARAM_NUMBER, MEMERY_UNIT_NONE, 0, 360, { .number = 90 }, 0, 0 },
    { sizeof(memery_param), "gain", "Gain", 0, MEMERY_PARAM_NUMBER, MEMERY_UNIT_NONE, 0, 2, { .number = 1 }, 0, 0 },
};
static memery_status copy(const memery_filter *f, const memery_host *h, const memery_image *in,
                          const memery_image *out, const memery_value *v, char *m, size_t n) {
    (void)f; (void)h; (void)v; (void)m; (void)n;
    for (uint32_t y = 0; y < in->height; y++) memcpy(out->pixels + y * out->stride, in->pixels + y * in->stride, (size_t)in->width * 4);
    return MEMERY_OK;
}
static const memery_filter filter = { sizeof(memery_filter), "org.example.angles", "Angles", 0, 1, MEMERY_FILTER_DETERMINISTIC,
    MEMERY_PIXEL_FORMAT_BIT(MEMERY_PIXEL_RGBA8), 3, angles, copy };
static uint32_t unit_of(const char *filter_id, const char *param_id) {
    (void)filter_id;
    return strcmp(param_id, "hue") == 0 ? MEMERY_UNIT_DEGREES : MEMERY_UNIT_NONE;
}
static const memery_units_extension units = { sizeof(memery_units_extension), unit_of };
static const void *extension(const char *id) { return strcmp(id, MEMERY_EXT_UNITS) == 0 ? &units : 0; }
#define EXTENSION extension
#elif BROKEN == 18
#include <string.h>
/* Not broken: copies its rows on the host's thread pool (or in a plain loop without one) and
   logs what it was lent. */
typedef struct { const memery_image *in, *out; uint32_t workers; uint32_t highest; uint32_t ran; } rows_job;
static void copy_row(void *context, uint32_t y, uint32_t worker) {
    rows_job *job = context;
    memcpy(job->out->pixels + y * job->out->stride, job->in->pixels + y * job->in->stride, (size_t)job->in->width * 4);
    __atomic_fetch_add(&job->ran, 1, __ATOMIC_RELAXED);
    uint32_t seen = __atomic_load_n(&job->highest, __ATOMIC_RELAXED);
    while (worker > seen && !__atomic_compare_exchange_n(&job->highest, &seen, worker, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
}
static memery_status pooled(const memery_filter *f, const memery_host *h, const memery_image *in,
                            const memery_image *out, const memery_value *v, char *m, size_t n) {
    (void)f; (void)v; (void)m; (void)n;
    const memery_thread_pool *pool = MEMERY_HOST_HAS(h, extension) ? h->extension(h, MEMERY_HOST_EXT_THREAD_POOL) : 0;
    rows_job job = { in, out, pool ? pool->workers(h) : 1, 0, 0 };
    int lent = pool && pool->run(h, in->height, copy_row, &job);
    if (!lent) for (uint32_t y = 0; y < in->height; y++) copy_row(&job, y, 0);
    char line[120];
    snprintf(line, sizeof line, "%s: %u workers, %u of %u rows, highest worker %u", lent ? "pool" : "no pool", job.workers, job.ran, in->height, job.highest);
    h->log(h, MEMERY_LOG_WARNING, line);
    return MEMERY_OK;
}
static const memery_filter filter = { sizeof(memery_filter), "org.example.pooled", "Pooled", 0, 1, MEMERY_FILTER_DETERMINISTIC,
    MEMERY_PIXEL_FORMAT_BIT(MEMERY_PIXEL_RGBA8), 0, 0, pooled };
#elif BROKEN == 19
/* Copies its input, but while the file named by $MEMERY_TEST_HOLD exists it waits, asking
   progress() every 20 ms: FILE.pid says it is waiting, FILE.stopped that it was told to stop. */
#include <stdlib.h>
#include <unistd.h>
/* Written aside and renamed, so that a test never reads the file half written. */
static void note(const char *suffix, long value) {
    char path[4096], aside[4200];
    snprintf(path, sizeof path, "%s%s", getenv("MEMERY_TEST_HOLD"), suffix);
    snprintf(aside, sizeof aside, "%s.writing", path);
    FILE *file = fopen(aside, "w");
    if (file) { fprintf(file, "%ld\n", value); fclose(file); rename(aside, path); }
}
static memery_status holder(const memery_filter *f, const memery_host *h, const memery_image *in,
                            const memery_image *out, const memery_value *v, char *m, size_t n) {
    (void)f; (void)v; (void)m; (void)n;
    const char *hold = getenv("MEMERY_TEST_HOLD");
    if (hold && access(hold, F_OK) == 0) {
        note(".pid", (long)getpid());
        while (access(hold, F_OK) == 0) {
            if (!h->progress(h, 0.5)) { note(".stopped", 1); return MEMERY_ERROR_CANCELLED; }
            usleep(20000);
        }
    }
    for (uint32_t y = 0; y < in->height; y++)
        for (uint32_t x = 0; x < in->width * 4; x++) out->pixels[y * out->stride + x] = in->pixels[y * in->stride + x];
    return MEMERY_OK;
}
static const memery_filter filter = { sizeof(memery_filter), "org.example.holder", "Holder", 0, 1, MEMERY_FILTER_DETERMINISTIC,
    MEMERY_PIXEL_FORMAT_BIT(MEMERY_PIXEL_RGBA8), 0, 0, holder };
#else
static const memery_filter filter = { sizeof(memery_filter), "org.example.fine", "Fine", 0, 1, 0,
    MEMERY_PIXEL_FORMAT_BIT(MEMERY_PIXEL_RGBA8), 0, 0, process };
#endif

static uint32_t count(void) { return 1; }
static const memery_filter *at(uint32_t i) { return i == 0 ? &filter : 0; }

static const memery_filter_entry entry = {
    sizeof(memery_filter_entry),
#if BROKEN == 2
    2, 0,   /* built for an ABI major this host does not have */
#else
    MEMERY_FILTER_ABI_MAJOR, MEMERY_FILTER_ABI_MINOR,
#endif
#ifndef EXTENSION
#define EXTENSION 0
#endif
    "org.example.broken", "Broken", "1.0", 0, 0, count, at, EXTENSION,
};

#if BROKEN == 1
MEMERY_EXPORT const memery_filter_entry *some_other_name(void) { return &entry; }  /* no entry symbol */
#elif BROKEN == 10
MEMERY_EXPORT const memery_filter_entry *memery_plugin_entry(void) { volatile int *p = 0; *p = 1; return &entry; }  /* crashes at load */
#else
MEMERY_EXPORT const memery_filter_entry *memery_plugin_entry(void) { return &entry; }
#endif
