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

/* The row as libjpeg reads it: in place when opaque, else flattened onto white into `spare`
   (premultiplied colour over white: c + 255 - a). */
static JSAMPROW scanline(const uint32_t *row, int width, unsigned char *spare) {
    if (row_is_opaque(row, width)) return (JSAMPROW)row;
    for (int x = 0; x < width; x++) {
        uint32_t v = row[x], inverse = 255 - (v >> 24);
        spare[x * 4 + 0] = (unsigned char)((v & 0xff) + inverse);
        spare[x * 4 + 1] = (unsigned char)(((v >> 8) & 0xff) + inverse);
        spare[x * 4 + 2] = (unsigned char)(((v >> 16) & 0xff) + inverse);
        spare[x * 4 + 3] = 0xff;
    }
    return spare;
}

static void start(struct jpeg_compress_struct *info, int width, int height, int quality,
                  unsigned char **out, unsigned long *size) {
    jpeg_create_compress(info);
    jpeg_mem_dest(info, out, size);
    info->image_width = (JDIMENSION)width;
    info->image_height = (JDIMENSION)height;
    /* Cairo's words in memory on a little-endian machine: B, G, R, A. */
    info->input_components = 4;
    info->in_color_space = JCS_EXT_BGRX;
    jpeg_set_defaults(info);
    jpeg_set_quality(info, quality, TRUE);
    jpeg_start_compress(info, TRUE);
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
    start(&info, width, height, quality, out, size);
    flattened = malloc((size_t)width * 4);
    if (!flattened) {
        snprintf(message, message_size, "out of memory");
        jpeg_destroy_compress(&info);
        free(*out);
        *out = NULL;
        return -1;
    }
    while (info.next_scanline < info.image_height) {
        JSAMPROW line = scanline((const uint32_t *)(pixels + (size_t)info.next_scanline * (size_t)stride), width, flattened);
        jpeg_write_scanlines(&info, &line, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    free(flattened);
    return 0;
}

struct memery_jpeg_writer {
    struct jpeg_compress_struct info;
    struct failure failure;
    unsigned char *out;
    unsigned long size;
    unsigned char *spare;
    int width;
};

/* Runs `body` with libjpeg's errors caught: 0, or -1 with the message. */
#define GUARDED(writer, message, message_size, body)                                      \
    do {                                                                                  \
        if (setjmp((writer)->failure.back)) {                                             \
            (*(writer)->info.err->format_message)((j_common_ptr)&(writer)->info, message); \
            message[message_size - 1] = 0;                                                \
            return -1;                                                                    \
        }                                                                                 \
        body;                                                                             \
        return 0;                                                                         \
    } while (0)

static int open_writer(memery_jpeg_writer *writer, int height, int quality, char *message, size_t message_size) {
    GUARDED(writer, message, message_size, start(&writer->info, writer->width, height, quality, &writer->out, &writer->size));
}

memery_jpeg_writer *memery_jpeg_writer_new(int width, int height, int quality, char *message, size_t message_size) {
    memery_jpeg_writer *writer = calloc(1, sizeof *writer);
    unsigned char *spare = malloc((size_t)width * 4);
    if (!writer || !spare) {
        free(writer);
        free(spare);
        snprintf(message, message_size, "out of memory");
        return NULL;
    }
    writer->spare = spare;
    writer->width = width;
    writer->info.err = jpeg_std_error(&writer->failure.manager);
    writer->failure.manager.error_exit = give_up;
    if (open_writer(writer, height, quality, message, message_size) != 0) {
        memery_jpeg_writer_free(writer);
        return NULL;
    }
    return writer;
}

int memery_jpeg_writer_rows(memery_jpeg_writer *writer, const uint8_t *pixels, int stride, int rows,
                            char *message, size_t message_size) {
    GUARDED(writer, message, message_size, {
        for (int y = 0; y < rows; y++) {
            JSAMPROW line = scanline((const uint32_t *)(pixels + (size_t)y * (size_t)stride), writer->width, writer->spare);
            jpeg_write_scanlines(&writer->info, &line, 1);
        }
    });
}

int memery_jpeg_writer_finish(memery_jpeg_writer *writer, unsigned char **out, unsigned long *size,
                              char *message, size_t message_size) {
    GUARDED(writer, message, message_size, {
        jpeg_finish_compress(&writer->info);
        *out = writer->out;
        *size = writer->size;
    });
}

void memery_jpeg_writer_free(memery_jpeg_writer *writer) {
    if (!writer) return;
    jpeg_destroy_compress(&writer->info);
    free(writer->out);
    free(writer->spare);
    free(writer);
}
