/* Filters that change each pixel's colour on its own. */
#include <math.h>
#include "builtins.h"

static double luma(const uint8_t *p) { return 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]; }

static const memery_param amount_param[] = {
    NUMBER_PARAM("amount", "Amount", "0 leaves the picture as it is, 1 applies the filter fully", MEMERY_UNIT_NONE, 0, 1, 1),
};

/* Grayscale: Rec. 709 luma, mixed with the original by amount. */
static void grayscale_pixel(const uint8_t *in, uint8_t *out, const memery_value *v) {
    double a = v[0].number, y = luma(in);
    for (int c = 0; c < 3; c++) out[c] = clamp_byte(in[c] + (y - in[c]) * a);
}
BUILTIN_PIXEL_FILTER(grayscale, grayscale_pixel)
const memery_filter builtin_grayscale = {
    sizeof(memery_filter), "org.memery.grayscale", "Grayscale", "Shades of grey by luminance",
    1, MEMERY_FILTER_DETERMINISTIC, BUILTIN_FORMATS, 1, amount_param, grayscale,
};

/* Sepia: the classic warm brown tone. */
static void sepia_pixel(const uint8_t *in, uint8_t *out, const memery_value *v) {
    double a = v[0].number, r = in[0], g = in[1], b = in[2];
    double s[3] = {0.393 * r + 0.769 * g + 0.189 * b, 0.349 * r + 0.686 * g + 0.168 * b, 0.272 * r + 0.534 * g + 0.131 * b};
    for (int c = 0; c < 3; c++) out[c] = clamp_byte(in[c] + (s[c] - in[c]) * a);
}
BUILTIN_PIXEL_FILTER(sepia, sepia_pixel)
const memery_filter builtin_sepia = {
    sizeof(memery_filter), "org.memery.sepia", "Sepia", "An old photograph's brown tone",
    1, MEMERY_FILTER_DETERMINISTIC, BUILTIN_FORMATS, 1, amount_param, sepia,
};

/* Invert: the negative. */
static void invert_pixel(const uint8_t *in, uint8_t *out, const memery_value *v) {
    (void)v;
    for (int c = 0; c < 3; c++) out[c] = (uint8_t)(255 - in[c]);
}
BUILTIN_PIXEL_FILTER(invert, invert_pixel)
const memery_filter builtin_invert = {
    sizeof(memery_filter), "org.memery.invert", "Invert", "The negative of the picture",
    1, MEMERY_FILTER_DETERMINISTIC, BUILTIN_FORMATS, 0, 0, invert,
};

/* Brightness and contrast: contrast pivots around mid-grey. */
static const memery_param brightness_contrast_params[] = {
    NUMBER_PARAM("brightness", "Brightness", "-1 black, 0 unchanged, 1 white", MEMERY_UNIT_NONE, -1, 1, 0),
    NUMBER_PARAM("contrast", "Contrast", "-1 flat grey, 0 unchanged, 1 twice the contrast", MEMERY_UNIT_NONE, -1, 1, 0),
};
static void brightness_contrast_pixel(const uint8_t *in, uint8_t *out, const memery_value *v) {
    double brightness = v[0].number * 255, factor = v[1].number + 1;
    for (int c = 0; c < 3; c++) out[c] = clamp_byte((in[c] - 127.5) * factor + 127.5 + brightness);
}
BUILTIN_PIXEL_FILTER(brightness_contrast, brightness_contrast_pixel)
const memery_filter builtin_brightness_contrast = {
    sizeof(memery_filter), "org.memery.brightness-contrast", "Brightness and contrast", 0,
    1, MEMERY_FILTER_DETERMINISTIC, BUILTIN_FORMATS, 2, brightness_contrast_params, brightness_contrast,
};

/* Saturation: away from or towards each pixel's grey. */
static const memery_param saturation_params[] = {
    NUMBER_PARAM("saturation", "Saturation", "0 grey, 1 unchanged, 3 three times as vivid", MEMERY_UNIT_NONE, 0, 3, 1),
};
static void saturation_pixel(const uint8_t *in, uint8_t *out, const memery_value *v) {
    double s = v[0].number, y = luma(in);
    for (int c = 0; c < 3; c++) out[c] = clamp_byte(y + (in[c] - y) * s);
}
BUILTIN_PIXEL_FILTER(saturation, saturation_pixel)
const memery_filter builtin_saturation = {
    sizeof(memery_filter), "org.memery.saturation", "Saturation", 0,
    1, MEMERY_FILTER_DETERMINISTIC, BUILTIN_FORMATS, 1, saturation_params, saturation,
};
