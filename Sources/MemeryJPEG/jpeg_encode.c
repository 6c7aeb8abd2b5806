#include "memery_jpeg.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the rows are read as B, G, R, A bytes: Cairo's words on a little-endian machine"
#endif

struct failure {
    struct jpeg_error_mgr manager;
    jmp_buf back;
};

static void give_up(j_common_ptr info) {
    longjmp(((struct failure *)info->err)->back, 1);
}

static int row_is_opaque(const uint32_t *row, int width) {
    for (int x = 0; x < width; x++)
        if ((row[x] >> 24) != 0xff) return 0;
    return 1;
}

int memery_jpeg_encode(const uint8_t *pixels, int width, int height, int stride, int quality,
                       unsigned char **out, unsigned long *size, char *message, size_t message_size) {
    struct jpeg_compress_struct info;
    struct failure failure;
    /* Volatile: read after a longjmp. */
    unsigned char *volatile flattened = NULL;
    *out = NULL;
    *size = 0;
    info.err = jpeg_std_error(&failure.manager);
    failure.manager.error_exit = give_up;
    if (setjmp(failure.back)) {
        (*info.err->format_message)((j_common_ptr)&info, message);
        message[message_size - 1] = 0;
        jpeg_destroy_compress(&info);
        free(flattened);
        free(*out);
        *out = NULL;
        return -1;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, out, size);
    info.image_width = (JDIMENSION)width;
    info.image_height = (JDIMENSION)height;
    /* Cairo's words in memory on a little-endian machine: B, G, R, A. */
    info.input_components = 4;
    info.in_color_space = JCS_EXT_BGRX;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    jpeg_start_compress(&info, TRUE);
    flattened = malloc((size_t)width * 4);
    if (!flattened) {
        snprintf(message, message_size, "out of memory");
        jpeg_destroy_compress(&info);
        free(*out);
        *out = NULL;
        return -1;
    }
    while (info.next_scanline < info.image_height) {
        const uint32_t *row = (const uint32_t *)(pixels + (size_t)info.next_scanline * (size_t)stride);
        JSAMPROW line = (JSAMPROW)row;
        if (!row_is_opaque(row, width)) {
            /* Premultiplied colour over white: c + 255 - a. */
            for (int x = 0; x < width; x++) {
                uint32_t v = row[x], inverse = 255 - (v >> 24);
                flattened[x * 4 + 0] = (unsigned char)((v & 0xff) + inverse);
                flattened[x * 4 + 1] = (unsigned char)(((v >> 8) & 0xff) + inverse);
                flattened[x * 4 + 2] = (unsigned char)(((v >> 16) & 0xff) + inverse);
                flattened[x * 4 + 3] = 0xff;
            }
            line = flattened;
        }
        jpeg_write_scanlines(&info, &line, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    free(flattened);
    return 0;
}
