/* The built-in filters: what each file defines, and the helpers they share. */
#ifndef MEMERY_BUILTINS_H
#define MEMERY_BUILTINS_H

#include "memery_filter.h"

extern const memery_filter builtin_grayscale;
extern const memery_filter builtin_sepia;
extern const memery_filter builtin_invert;
extern const memery_filter builtin_brightness_contrast;
extern const memery_filter builtin_saturation;
extern const memery_filter builtin_gaussian_blur;
extern const memery_filter builtin_sharpen;
extern const memery_filter builtin_pixelate;
extern const memery_filter builtin_vignette;
extern const memery_filter builtin_deep_fry;

/* All built-ins take straight-alpha RGBA. */
#define BUILTIN_FORMATS MEMERY_PIXEL_FORMAT_BIT(MEMERY_PIXEL_RGBA8)

/* A number parameter. */
#define NUMBER_PARAM(ID, NAME, DESCRIPTION, UNIT, MIN, MAX, DEFAULT) \
    { sizeof(memery_param), ID, NAME, DESCRIPTION, MEMERY_PARAM_NUMBER, UNIT, MIN, MAX, { .number = DEFAULT }, 0, 0 }

static inline uint8_t clamp_byte(double v) {
    return v <= 0 ? 0 : v >= 255 ? 255 : (uint8_t)(v + 0.5);
}

static inline uint8_t *pixel_at(const memery_image *image, uint32_t x, uint32_t y) {
    return image->pixels + (size_t)y * image->stride + (size_t)x * 4;
}

/* Runs fn(context, index, worker) for every index below count on the host's thread pool
   (MEMERY_HOST_EXT_THREAD_POOL), worker numbers below `workers`; without a pool, in a plain
   loop on the calling thread. The built-ins start no threads of their own. Progress is
   reported between rounds of tasks; when the host cancels, no new round starts. */
typedef void (*builtin_task_fn)(void *context, uint32_t index, uint32_t worker);
memery_status builtin_parallel_for(const memery_host *host, uint32_t count, uint32_t workers, builtin_task_fn fn, void *context);

/* How many workers to size per-worker scratch for: the host pool's, never more than the
   tasks, at most BUILTIN_MAX_WORKERS; 1 without a pool. */
#define BUILTIN_MAX_WORKERS 64
uint32_t builtin_worker_count(const memery_host *host, uint32_t tasks);

/* Per-pixel colour filters: `fn` sets out's colour from in's; alpha is copied. */
typedef void (*builtin_color_fn)(const uint8_t *in, uint8_t *out, const memery_value *values);

typedef struct {
    const memery_image *input, *output;
    const memery_value *values;
} builtin_map_job;

enum { BUILTIN_BAND_ROWS = 64 };

/* One band of rows. Always inlined, so that each filter's copy calls its own `fn`
   directly, and that call is inlined in turn: no call per pixel. */
static inline __attribute__((always_inline)) void builtin_map_band(const builtin_map_job *job, uint32_t band, builtin_color_fn fn) {
    uint32_t end = (band + 1) * BUILTIN_BAND_ROWS < job->input->height ? (band + 1) * BUILTIN_BAND_ROWS : job->input->height;
    for (uint32_t y = band * BUILTIN_BAND_ROWS; y < end; y++) {
        const uint8_t *in = pixel_at(job->input, 0, y);
        uint8_t *out = pixel_at(job->output, 0, y);
        for (uint32_t x = 0; x < job->input->width; x++, in += 4, out += 4) {
            fn(in, out, job->values);
            out[3] = in[3];
        }
    }
}

/* Runs `band` over every band of rows of the picture, on all cores. */
memery_status builtin_map_pixels(const memery_host *host, const memery_image *input, const memery_image *output,
                                 const memery_value *values, builtin_task_fn band);

/* Defines the process() function NAME of a per-pixel filter from its pixel function. */
#define BUILTIN_PIXEL_FILTER(NAME, PIXEL)                                                                        \
    static void NAME##_band(void *job, uint32_t band, uint32_t worker) {                                         \
        (void)worker;                                                                                            \
        builtin_map_band(job, band, PIXEL);                                                                      \
    }                                                                                                            \
    static memery_status NAME(const memery_filter *f, const memery_host *host, const memery_image *in,           \
                              const memery_image *out, const memery_value *v, char *m, size_t n) {               \
        (void)f; (void)m; (void)n;                                                                               \
        return builtin_map_pixels(host, in, out, v, NAME##_band);                                                \
    }

/* A gaussian-like blur of input into output by three box blurs (constant time per pixel
   whatever the radius), on premultiplied colour so transparent edges do not darken. */
memery_status builtin_blur(const memery_host *host, const memery_image *input, const memery_image *output,
                           double radius, char *message, size_t message_size);

#endif
