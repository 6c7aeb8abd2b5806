#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "builtins.h"

/* ---- The host's threads ---- */

static const memery_thread_pool *host_pool(const memery_host *host) {
    if (!host || !MEMERY_HOST_HAS(host, extension)) return NULL;
    const memery_thread_pool *pool = host->extension(host, MEMERY_HOST_EXT_THREAD_POOL);
    return pool && pool->struct_size >= sizeof(memery_thread_pool) && pool->run && pool->workers ? pool : NULL;
}

uint32_t builtin_worker_count(const memery_host *host, uint32_t tasks) {
    const memery_thread_pool *pool = host_pool(host);
    uint32_t n = pool ? pool->workers(host) : 1;
    if (n < 1) n = 1;
    if (n > BUILTIN_MAX_WORKERS) n = BUILTIN_MAX_WORKERS;
    return tasks < n ? (tasks ? tasks : 1) : n;
}

typedef struct {
    builtin_task_fn fn;
    void *context;
    uint32_t first;     /* the round's first task */
} round_job;

static void run_round_task(void *context, uint32_t index, uint32_t worker) {
    round_job *round = context;
    round->fn(round->context, round->first + index, worker);
}

memery_status builtin_parallel_for(const memery_host *host, uint32_t count, uint32_t workers, builtin_task_fn fn, void *context) {
    const memery_thread_pool *pool = host_pool(host);
    /* In rounds of a few tasks a worker, reporting progress (and hearing a cancel) between
       them from this thread: tasks may not call the host. The pool numbers its workers below
       the smaller of its size and the round's count, so a pool larger than our scratch gets
       rounds no bigger than it. */
    uint32_t per_round = pool && pool->workers(host) > workers ? workers : workers * 4;
    for (uint32_t first = 0; first < count; first += per_round) {
        uint32_t n = count - first < per_round ? count - first : per_round;
        round_job round = { fn, context, first };
        if (!pool || workers < 2 || !pool->run(host, n, run_round_task, &round))
            for (uint32_t i = 0; i < n; i++) fn(context, first + i, 0);
        if (host && host->progress && !host->progress(host, (double)(first + n) / count)) return MEMERY_ERROR_CANCELLED;
    }
    return MEMERY_OK;
}

/* ---- Per-pixel colour filters, in bands of rows ---- */

memery_status builtin_map_pixels(const memery_host *host, const memery_image *input, const memery_image *output,
                                 const memery_value *values, builtin_task_fn band) {
    builtin_map_job job = { input, output, values };
    uint32_t bands = (input->height + BUILTIN_BAND_ROWS - 1) / BUILTIN_BAND_ROWS;
    return builtin_parallel_for(host, bands, builtin_worker_count(host, bands), band, &job);
}

/* ---- Blur ----
   Three box blurs along rows, then three down columns (the same as alternating them: each
   pass works along one axis, with edges extended). The picture is cut into strips of
   columns, one task each: a strip's rows are blurred with the 3 box radii of margin they
   reach on either side, so every strip gives exactly what the whole picture would, and a
   strip's columns are then blurred in a buffer of the strip's own that stays warm. */

enum { STRIP = 128 };

/* One box pass along n samples of 4 floats, edges extended. */
static void box_line(const float *src, float *dst, size_t n, int r) {
    const double scale = 1.0 / (2 * r + 1);
    double sum[4] = {0, 0, 0, 0};   /* local, so it stays in registers */
    for (int k = -r; k <= r; k++) {
        size_t i = k < 0 ? 0 : ((size_t)k >= n ? n - 1 : (size_t)k);
        for (int c = 0; c < 4; c++) sum[c] += src[i * 4 + c];
    }
    for (size_t i = 0; i < n; i++) {
        for (int c = 0; c < 4; c++) dst[i * 4 + c] = (float)(sum[c] * scale);
        size_t out = (i < (size_t)r) ? 0 : i - r;
        size_t in = (i + r + 1 >= n) ? n - 1 : i + r + 1;
        for (int c = 0; c < 4; c++) sum[c] += src[in * 4 + c] - src[out * 4 + c];
    }
}

/* One box pass down every column of a strip (w samples of 4 floats per row), row after row. */
static void box_columns(const float *src, float *dst, size_t w, uint32_t h, int r, double *sums) {
    const size_t row = w * 4;
    const double scale = 1.0 / (2 * r + 1);
    memset(sums, 0, row * sizeof(double));
    for (int k = -r; k <= r; k++) {
        const float *line = src + (size_t)(k < 0 ? 0 : (k >= (int)h ? h - 1 : (uint32_t)k)) * row;
        for (size_t i = 0; i < row; i++) sums[i] += line[i];
    }
    for (uint32_t y = 0; y < h; y++) {
        float *out = dst + (size_t)y * row;
        for (size_t i = 0; i < row; i++) out[i] = (float)(sums[i] * scale);
        const float *leaving = src + (size_t)(y < (uint32_t)r ? 0 : y - r) * row;
        const float *entering = src + (size_t)(y + r + 1 >= h ? h - 1 : y + r + 1) * row;
        for (size_t i = 0; i < row; i++) sums[i] += entering[i] - leaving[i];
    }
}

typedef struct {
    const memery_image *input, *output;
    int box;
    float *scratch[64];   /* per worker: two strip buffers, then two row buffers */
    double *sums[64];     /* per worker: column sums of a strip */
    size_t row_floats;    /* the longest row segment, in floats */
} blur_job;

static void blur_strip(void *context, uint32_t strip, uint32_t worker) {
    const blur_job *job = context;
    const uint32_t w = job->input->width, h = job->input->height;
    const int r = job->box, reach = 3 * r;
    const uint32_t x0 = strip * STRIP, x1 = x0 + STRIP < w ? x0 + STRIP : w, sw = x1 - x0;
    const uint32_t s0 = x0 > (uint32_t)reach ? x0 - reach : 0, s1 = x1 + reach < w ? x1 + reach : w, n = s1 - s0;
    float *a = job->scratch[worker], *b = a + (size_t)sw * h * 4;
    float *line = b + (size_t)sw * h * 4, *other = line + job->row_floats;
    for (uint32_t y = 0; y < h; y++) {
        if (y + 4 < h)   /* rows of a strip are a picture's row apart: the prefetcher does not follow */
            for (uint32_t x = s0; x < s1; x += 16) __builtin_prefetch(pixel_at(job->input, x, y + 4));
        for (uint32_t x = s0; x < s1; x++) {   /* premultiplied, so clear pixels do not darken their neighbours */
            const uint8_t *p = pixel_at(job->input, x, y);
            float *q = line + (size_t)(x - s0) * 4, alpha = p[3] / 255.0f;
            q[0] = p[0] * alpha; q[1] = p[1] * alpha; q[2] = p[2] * alpha; q[3] = p[3];
        }
        if (r > 0) {
            box_line(line, other, n, r);
            box_line(other, line, n, r);
            box_line(line, other, n, r);
            memcpy(a + (size_t)y * sw * 4, other + (size_t)(x0 - s0) * 4, (size_t)sw * 4 * sizeof(float));
        } else {
            memcpy(a + (size_t)y * sw * 4, line + (size_t)(x0 - s0) * 4, (size_t)sw * 4 * sizeof(float));
        }
    }
    if (r > 0) {
        box_columns(a, b, sw, h, r, job->sums[worker]);
        box_columns(b, a, sw, h, r, job->sums[worker]);
        box_columns(a, b, sw, h, r, job->sums[worker]);
    } else {
        b = a;
    }
    for (uint32_t y = 0; y < h; y++) {
        if (y + 4 < h)
            for (uint32_t x = 0; x < sw; x += 16) __builtin_prefetch(pixel_at(job->output, x0 + x, y + 4), 1);
        for (uint32_t x = 0; x < sw; x++) {
            const float *q = b + ((size_t)y * sw + x) * 4;
            uint8_t *p = pixel_at(job->output, x0 + x, y);
            float alpha = q[3];
            if (alpha < 0.5f) { p[0] = p[1] = p[2] = p[3] = 0; continue; }
            float un = 255.0f / alpha;
            p[0] = clamp_byte(q[0] * un); p[1] = clamp_byte(q[1] * un); p[2] = clamp_byte(q[2] * un);
            p[3] = clamp_byte(alpha);
        }
    }
}

memery_status builtin_blur(const memery_host *host, const memery_image *input, const memery_image *output,
                           double radius, char *message, size_t message_size) {
    const uint32_t w = input->width, h = input->height;
    /* Three boxes of radius r have variance 3((2r+1)^2 - 1)/12: matched to a gaussian of
       sigma = radius / 2, so the blur reaches about `radius` pixels. */
    double sigma = radius / 2.0;
    blur_job job = { input, output, (int)lround((sqrt(4.0 * sigma * sigma + 1.0) - 1.0) / 2.0), {0}, {0}, 0 };
    uint32_t strips = (w + STRIP - 1) / STRIP, workers = builtin_worker_count(host, strips);
    uint32_t widest = w < STRIP ? w : STRIP;
    size_t longest = (size_t)widest + 6 * (size_t)job.box;
    job.row_floats = (longest < w ? longest : w) * 4;
    memery_status status = MEMERY_OK;
    for (uint32_t i = 0; i < workers; i++) {
        job.scratch[i] = malloc(((size_t)widest * h * 4 * 2 + job.row_floats * 2) * sizeof(float));
        job.sums[i] = malloc((size_t)widest * 4 * sizeof(double));
        if (!job.scratch[i] || !job.sums[i]) {
            snprintf(message, message_size, "no memory for a %ux%u blur", w, h);
            status = MEMERY_ERROR_OUT_OF_MEMORY;
        }
    }
    if (status == MEMERY_OK) status = builtin_parallel_for(host, strips, workers, blur_strip, &job);
    for (uint32_t i = 0; i < workers; i++) { free(job.scratch[i]); free(job.sums[i]); }
    return status;
}
