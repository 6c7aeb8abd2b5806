#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtins.h"

memery_status builtin_map_pixels(const memery_host *host, const memery_image *input, const memery_image *output,
                                 const memery_value *values, builtin_color_fn fn) {
    for (uint32_t y = 0; y < input->height; y++) {
        for (uint32_t x = 0; x < input->width; x++) {
            const uint8_t *in = pixel_at(input, x, y);
            uint8_t *out = pixel_at(output, x, y);
            fn(in, out, values);
            out[3] = in[3];
        }
        if ((y & 255) == 255 && host && host->progress && !host->progress(host, (double)y / input->height))
            return MEMERY_ERROR_CANCELLED;
    }
    return MEMERY_OK;
}

/* One box-blur pass along a line of n samples (4 channels of floats), radius r. */
static void box_line(const float *src, float *dst, size_t n, size_t step, int r) {
    if (r <= 0) {
        for (size_t i = 0; i < n; i++) memcpy(dst + i * step, src + i * step, 4 * sizeof(float));
        return;
    }
    double sum[4] = {0, 0, 0, 0};
    const double scale = 1.0 / (2 * r + 1);
    /* Edges are extended: the first and last samples repeat. */
    for (int k = -r; k <= r; k++) {
        size_t i = k < 0 ? 0 : ((size_t)k >= n ? n - 1 : (size_t)k);
        for (int c = 0; c < 4; c++) sum[c] += src[i * step + c];
    }
    for (size_t i = 0; i < n; i++) {
        for (int c = 0; c < 4; c++) dst[i * step + c] = (float)(sum[c] * scale);
        size_t out = (i < (size_t)r) ? 0 : i - r;
        size_t in = (i + r + 1 >= n) ? n - 1 : i + r + 1;
        for (int c = 0; c < 4; c++) sum[c] += src[in * step + c] - src[out * step + c];
    }
}

/* One box-blur pass down every column at once: a running sum per column, moved one row at
   a time, so memory is read row after row (a column at a time would miss the cache). */
static void box_columns(const float *src, float *dst, uint32_t w, uint32_t h, int r, double *sums) {
    const size_t row = (size_t)w * 4;
    if (r <= 0) {
        memcpy(dst, src, row * h * sizeof(float));
        return;
    }
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

memery_status builtin_blur(const memery_host *host, const memery_image *input, const memery_image *output,
                           double radius, char *message, size_t message_size) {
    const uint32_t w = input->width, h = input->height;
    const size_t count = (size_t)w * h * 4;
    float *a = malloc(count * sizeof(float)), *b = malloc(count * sizeof(float));
    if (!a || !b) {
        free(a); free(b);
        snprintf(message, message_size, "no memory for a %ux%u blur", w, h);
        return MEMERY_ERROR_OUT_OF_MEMORY;
    }
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            const uint8_t *p = pixel_at(input, x, y);
            float *q = a + ((size_t)y * w + x) * 4;
            float alpha = p[3] / 255.0f;
            q[0] = p[0] * alpha; q[1] = p[1] * alpha; q[2] = p[2] * alpha; q[3] = p[3];
        }
    /* Three boxes of radius r have variance 3((2r+1)^2 - 1)/12: matched to a gaussian of
       sigma = radius / 2, so the blur reaches about `radius` pixels. */
    double sigma = radius / 2.0;
    int box = (int)lround((sqrt(4.0 * sigma * sigma + 1.0) - 1.0) / 2.0);
    double *sums = calloc((size_t)w * 4, sizeof(double));
    if (!sums) {
        free(a); free(b);
        snprintf(message, message_size, "no memory for a %ux%u blur", w, h);
        return MEMERY_ERROR_OUT_OF_MEMORY;
    }
    for (int pass = 0; pass < 3; pass++) {
        for (uint32_t y = 0; y < h; y++) box_line(a + (size_t)y * w * 4, b + (size_t)y * w * 4, w, 4, box);
        box_columns(b, a, w, h, box, sums);
        if (host && host->progress && !host->progress(host, (pass + 1) / 3.0)) {
            free(a); free(b); free(sums);
            return MEMERY_ERROR_CANCELLED;
        }
    }
    free(sums);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            const float *q = a + ((size_t)y * w + x) * 4;
            uint8_t *p = pixel_at(output, x, y);
            float alpha = q[3];
            if (alpha < 0.5f) { p[0] = p[1] = p[2] = p[3] = 0; continue; }
            float un = 255.0f / alpha;
            p[0] = clamp_byte(q[0] * un); p[1] = clamp_byte(q[1] * un); p[2] = clamp_byte(q[2] * un);
            p[3] = clamp_byte(alpha);
        }
    free(a); free(b);
    return MEMERY_OK;
}
