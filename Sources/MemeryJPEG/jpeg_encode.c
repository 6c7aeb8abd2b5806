#include "memery_jpeg.h"
#include "failure.h"

#include <stdlib.h>
#include <jerror.h>

/* The compressed bytes, in a buffer this file owns and doubles as it fills (libjpeg's own
   memory destination frees the buffers it outgrows but reports the last one only when the
   picture is finished, so a writer given up part-way could not free what it holds). */
struct growing_destination {
    struct jpeg_destination_mgr manager;
    unsigned char *buffer;
    size_t size;
};

static void init_destination(j_compress_ptr info) { (void)info; }
static void term_destination(j_compress_ptr info) { (void)info; }

static boolean empty_output_buffer(j_compress_ptr info) {
    struct growing_destination *destination = (struct growing_destination *)info->dest;
    size_t size = destination->size * 2;
    unsigned char *grown = realloc(destination->buffer, size);
    if (!grown) ERREXIT1(info, JERR_OUT_OF_MEMORY, 0);
    /* The whole buffer was full: it is all kept. */
    destination->manager.next_output_byte = grown + destination->size;
    destination->manager.free_in_buffer = size - destination->size;
    destination->buffer = grown;
    destination->size = size;
    return TRUE;
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

struct memery_jpeg_writer {
    struct jpeg_compress_struct info;
    struct failure failure;
    struct growing_destination destination;
    unsigned char *spare;
    int width;
    int created;
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

static int start(memery_jpeg_writer *writer, int height, int quality, char *message, size_t message_size) {
    GUARDED(writer, message, message_size, {
        jpeg_create_compress(&writer->info);
        writer->created = 1;
        writer->info.dest = &writer->destination.manager;
        writer->info.image_width = (JDIMENSION)writer->width;
        writer->info.image_height = (JDIMENSION)height;
        /* Cairo's words in memory on a little-endian machine: B, G, R, A. */
        writer->info.input_components = 4;
        writer->info.in_color_space = JCS_EXT_BGRX;
        jpeg_set_defaults(&writer->info);
        jpeg_set_quality(&writer->info, quality, TRUE);
        jpeg_start_compress(&writer->info, TRUE);
    });
}

memery_jpeg_writer *memery_jpeg_writer_new(int width, int height, int quality, char *message, size_t message_size) {
    memery_jpeg_writer *writer = calloc(1, sizeof *writer);
    if (writer) {
        writer->spare = malloc((size_t)width * 4);
        writer->destination.size = 1 << 16;
        writer->destination.buffer = malloc(writer->destination.size);
    }
    if (!writer || !writer->spare || !writer->destination.buffer) {
        memery_jpeg_writer_free(writer);
        snprintf(message, message_size, "out of memory");
        return NULL;
    }
    writer->width = width;
    writer->destination.manager.init_destination = init_destination;
    writer->destination.manager.empty_output_buffer = empty_output_buffer;
    writer->destination.manager.term_destination = term_destination;
    writer->destination.manager.next_output_byte = writer->destination.buffer;
    writer->destination.manager.free_in_buffer = writer->destination.size;
    writer->info.err = catching(&writer->failure);
    if (start(writer, height, quality, message, message_size) != 0) {
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
        *out = writer->destination.buffer;
        *size = (unsigned long)(writer->destination.size - writer->destination.manager.free_in_buffer);
    });
}

void memery_jpeg_writer_free(memery_jpeg_writer *writer) {
    if (!writer) return;
    if (writer->created) jpeg_destroy_compress(&writer->info);
    free(writer->destination.buffer);
    free(writer->spare);
    free(writer);
}
