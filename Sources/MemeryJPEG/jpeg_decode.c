#include "memery_jpeg.h"
#include "failure.h"

#include <string.h>

/* A warning (corrupt data the library worked around) counts as a failure here. */
static void warned(j_common_ptr info, int level) {
    if (level < 0) longjmp(((struct failure *)info->err)->back, 1);
}

/* Errors and warnings both end at `failure->back`. A zeroed `info` is safe to destroy
   before libjpeg has set it up. */
static void strict(struct jpeg_decompress_struct *info, struct failure *failure) {
    memset(info, 0, sizeof *info);
    info->err = catching(failure);
    failure->manager.emit_message = warned;
}

static int open_header(struct jpeg_decompress_struct *info, const uint8_t *data, size_t size) {
    jpeg_create_decompress(info);
    jpeg_mem_src(info, data, (unsigned long)size);
    if (jpeg_read_header(info, TRUE) != JPEG_HEADER_OK) return -1;
    if (info->data_precision != 8) return -1;
    if (info->jpeg_color_space != JCS_YCbCr && info->jpeg_color_space != JCS_GRAYSCALE) return -1;
    return 0;
}

int memery_jpeg_size(const uint8_t *data, size_t size, int *width, int *height) {
    struct jpeg_decompress_struct info;
    struct failure failure;
    strict(&info, &failure);
    if (setjmp(failure.back)) {
        jpeg_destroy_decompress(&info);
        return -1;
    }
    int status = open_header(&info, data, size);
    *width = (int)info.image_width;
    *height = (int)info.image_height;
    jpeg_destroy_decompress(&info);
    return status;
}

int memery_jpeg_decode(const uint8_t *data, size_t size, uint8_t *pixels, int width, int height, int stride,
                       uint64_t *progress) {
    struct jpeg_decompress_struct info;
    struct failure failure;
    strict(&info, &failure);
    if (setjmp(failure.back)) {
        jpeg_destroy_decompress(&info);
        return -1;
    }
    if (open_header(&info, data, size) != 0 || (int)info.image_width != width || (int)info.image_height != height) {
        jpeg_destroy_decompress(&info);
        return -1;
    }
    info.out_color_space = JCS_EXT_BGRA;  /* alpha written as 255 */
    jpeg_start_decompress(&info);
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = pixels + (size_t)info.output_scanline * (size_t)stride;
        jpeg_read_scanlines(&info, &row, 1);
        if (progress && (info.output_scanline % 16 == 0 || info.output_scanline == info.output_height)) {
            uint64_t done = (__atomic_load_n(progress, __ATOMIC_RELAXED) & ~(uint64_t)0xffffffff) | info.output_scanline;
            __atomic_store_n(progress, done, __ATOMIC_RELEASE);
        }
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    return 0;
}
