/* Filters that look at a pixel's neighbours. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "builtins.h"

/* Gaussian blur, constant time per pixel at any radius. */
static const memery_param blur_params[] = {
    NUMBER_PARAM("radius", "Radius", "How far the blur reaches", MEMERY_UNIT_PIXELS, 0, 500, 5),
};
static memery_status gaussian_blur(const memery_filter *f, const memery_host *host, const memery_image *in,
                                   const memery_image *out, const memery_value *v, char *m, size_t n) {
    (void)f;
    return builtin_blur(host, in, out, v[0].number, m, n);
}
const memery_filter builtin_gaussian_blur = {
    sizeof(memery_filter), "org.memery.gaussian-blur", "Gaussian blur", "Soft focus; fast at any radius",
    1, MEMERY_FILTER_DETERMINISTIC, BUILTIN_FORMATS, 1, blur_params, gaussian_blur,
};

/* Sharpen: an unsharp mask, the picture plus amount times its difference from a blur. */
static const memery_param sharpen_params[] = {
    NUMBER_PARAM("amount", "Amount", "How strongly edges are lifted", MEMERY_UNIT_NONE, 0, 5, 1),
    NUMBER_PARAM("radius", "Radius", "The size of the detail that is sharpened", MEMERY_UNIT_PIXELS, 0.5, 100, 2),
};
static memery_status sharpen(const memery_filter *f, const memery_host *host, const memery_image *in,
                             const memery_image *out, const memery_value *v, char *m, size_t n) {
    (void)f;
    memery_status status = builtin_blur(host, in, out, v[1].number, m, n);
    if (status != MEMERY_OK) return status;
    double amount = v[0].number;
    for (uint32_t y = 0; y < in->height; y++)
        for (uint32_t x = 0; x < in->width; x++) {
            const uint8_t *p = pixel_at(in, x, y);
            uint8_t *q = pixel_at(out, x, y);
            for (int c = 0; c < 3; c++) q[c] = clamp_byte(p[c] + amount * (p[c] - q[c]));
            q[3] = p[3];
        }
    return MEMERY_OK;
}
const memery_filter builtin_sharpen = {
    sizeof(memery_filter), "org.memery.sharpen", "Sharpen", "Unsharp mask",
    1, MEMERY_FILTER_DETERMINISTIC, BUILTIN_FORMATS, 2, sharpen_params, sharpen,
};

/* Pixelate: each block of size x size pixels becomes its average colour. */
static const memery_param pixelate_params[] = {
    NUMBER_PARAM("size", "Block size", "The side of each block", MEMERY_UNIT_PIXELS, 1, 1024, 10),
};
static memery_status pixelate(const memery_filter *f, const memery_host *host, const memery_image *in,
                              const memery_image *out, const memery_value *v, char *m, size_t n) {
    (void)f; (void)host; (void)m; (void)n;
    uint32_t size = (uint32_t)fmax(1, lround(v[0].number));
    for (uint32_t by = 0; by < in->height; by += size)
        for (uint32_t bx = 0; bx < in->width; bx += size) {
            uint32_t ey = by + size < in->height ? by + size : in->height;
            uint32_t ex = bx + size < in->width ? bx + size : in->width;
            double sum[4] = {0, 0, 0, 0};
            for (uint32_t y = by; y < ey; y++)
                for (uint32_t x = bx; x < ex; x++) {
                    const uint8_t *p = pixel_at(in, x, y);
                    double a = p[3];
                    sum[0] += p[0] * a; sum[1] += p[1] * a; sum[2] += p[2] * a; sum[3] += a;
                }
            double count = (double)(ey - by) * (ex - bx);
            uint8_t avg[4] = {0, 0, 0, clamp_byte(sum[3] / count)};
            if (sum[3] > 0) for (int c = 0; c < 3; c++) avg[c] = clamp_byte(sum[c] / sum[3]);
            for (uint32_t y = by; y < ey; y++)
                for (uint32_t x = bx; x < ex; x++) memcpy(pixel_at(out, x, y), avg, 4);
        }
    return MEMERY_OK;
}
const memery_filter builtin_pixelate = {
    sizeof(memery_filter), "org.memery.pixelate", "Pixelate", "Big square pixels",
    1, MEMERY_FILTER_DETERMINISTIC, BUILTIN_FORMATS, 1, pixelate_params, pixelate,
};

/* Vignette: darkens towards the corners. */
static const memery_param vignette_params[] = {
    NUMBER_PARAM("strength", "Strength", "How dark the corners become", MEMERY_UNIT_NONE, 0, 1, 0.5),
    NUMBER_PARAM("radius", "Radius", "Where the darkening starts, from the centre", MEMERY_UNIT_FRACTION, 0.1, 1.5, 0.6),
};
static memery_status vignette(const memery_filter *f, const memery_host *host, const memery_image *in,
                              const memery_image *out, const memery_value *v, char *m, size_t n) {
    (void)f; (void)host; (void)m; (void)n;
    double strength = v[0].number;
    double cx = in->width / 2.0, cy = in->height / 2.0;
    double shorter = in->width < in->height ? in->width : in->height;
    double start = v[1].number * shorter / 2, corner = sqrt(cx * cx + cy * cy);
    double span = corner > start ? corner - start : 1;
    for (uint32_t y = 0; y < in->height; y++)
        for (uint32_t x = 0; x < in->width; x++) {
            double d = sqrt((x + 0.5 - cx) * (x + 0.5 - cx) + (y + 0.5 - cy) * (y + 0.5 - cy));
            double t = d <= start ? 0 : (d - start) / span;
            double k = 1 - strength * (t * t * (3 - 2 * t));  /* smoothstep */
            const uint8_t *p = pixel_at(in, x, y);
            uint8_t *q = pixel_at(out, x, y);
            for (int c = 0; c < 3; c++) q[c] = clamp_byte(p[c] * k);
            q[3] = p[3];
        }
    return MEMERY_OK;
}
const memery_filter builtin_vignette = {
    sizeof(memery_filter), "org.memery.vignette", "Vignette", "Darker corners",
    1, MEMERY_FILTER_DETERMINISTIC, BUILTIN_FORMATS, 2, vignette_params, vignette,
};
