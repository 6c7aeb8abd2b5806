/* Deep fry: the meme classic. Oversaturated, over-contrasted, noisy, and crunched the way
   a picture saved as a bad JPEG ten times over looks: colour smeared over 8x8 blocks and
   brightness cut to few levels. Deterministic: the noise comes from the seed. */
#include <math.h>
#include "builtins.h"

static const memery_param deep_fry_params[] = {
    NUMBER_PARAM("amount", "Amount", "How fried", MEMERY_UNIT_NONE, 0, 1, 0.7),
    { sizeof(memery_param), "seed", "Speckle pattern", "A pattern number: another number scatters the speckles anew", MEMERY_PARAM_INTEGER, MEMERY_UNIT_NONE,
      0, 2147483647.0, { .integer = 42 }, 0, 0 },
};

static uint32_t hash(uint32_t x) {
    x ^= x >> 16; x *= 0x7feb352d; x ^= x >> 15; x *= 0x846ca68b; x ^= x >> 16;
    return x;
}

static memery_status deep_fry(const memery_filter *f, const memery_host *host, const memery_image *in,
                              const memery_image *out, const memery_value *v, char *m, size_t n) {
    (void)f; (void)host; (void)m; (void)n;
    const double amount = v[0].number;
    const uint32_t seed = (uint32_t)v[1].integer;
    const double saturation = 1 + 2.5 * amount, contrast = 1 + 1.5 * amount, noise = 40 * amount;
    const double levels = 255 / (2 + 30 * (1 - amount));  /* luma step of the crunch */
    for (uint32_t by = 0; by < in->height; by += 8)
        for (uint32_t bx = 0; bx < in->width; bx += 8) {
            uint32_t ey = by + 8 < in->height ? by + 8 : in->height, ex = bx + 8 < in->width ? bx + 8 : in->width;
            /* The block's average chroma: the smear of heavy chroma subsampling. */
            double cb = 0, cr = 0, count = 0;
            for (uint32_t y = by; y < ey; y++)
                for (uint32_t x = bx; x < ex; x++) {
                    const uint8_t *p = pixel_at(in, x, y);
                    double Y = 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
                    cb += (p[2] - Y) * 0.564; cr += (p[0] - Y) * 0.713; count += 1;
                }
            cb /= count; cr /= count;
            for (uint32_t y = by; y < ey; y++)
                for (uint32_t x = bx; x < ex; x++) {
                    const uint8_t *p = pixel_at(in, x, y);
                    uint8_t *q = pixel_at(out, x, y);
                    double Y = 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
                    Y = (Y - 127.5) * contrast + 127.5;
                    Y += ((double)(hash(seed ^ (y * 0x9E3779B1u) ^ x) & 0xffff) / 65535.0 - 0.5) * 2 * noise;
                    Y = round(Y / levels) * levels;
                    double b = cb * saturation, r = cr * saturation;
                    double R = Y + 1.403 * r, B = Y + 1.773 * b, G = Y - 0.344 * b - 0.714 * r;
                    /* Fried pictures run hot: a push towards orange. */
                    q[0] = clamp_byte(R + 20 * amount); q[1] = clamp_byte(G + 5 * amount); q[2] = clamp_byte(B - 25 * amount);
                    q[3] = p[3];
                }
        }
    return MEMERY_OK;
}

const memery_filter builtin_deep_fry = {
    sizeof(memery_filter), "org.memery.deep-fry", "Deep fry", "Saturation, contrast, noise and JPEG-style crunch",
    1, MEMERY_FILTER_DETERMINISTIC, BUILTIN_FORMATS, 2, deep_fry_params, deep_fry,
};
