#ifndef MEMERY_JPEG_H
#define MEMERY_JPEG_H
#include <stddef.h>
#include <stdint.h>

/* JPEG through libjpeg-turbo, straight from and into Cairo's ARGB32 rows (native-endian
   words, premultiplied alpha). C, because libjpeg reports errors by longjmp, which Swift
   cannot catch. */

/* The size of a JPEG that `memery_jpeg_decode` can take: 8-bit YCbCr or greyscale. Returns 0
   and sets *width and *height; else returns -1 (another decoder is to be used). */
int memery_jpeg_size(const uint8_t *data, size_t size, int *width, int *height);

/* Decodes such a JPEG into rows (opaque, so premultiplied is straight) of `width` x `height`
   at `pixels`, `stride` bytes apart. Returns 0; -1 on any error or warning from libjpeg (a
   damaged file), leaving the pixels undefined: another decoder is to be used then, which says
   what is wrong in its own words. `progress`, when not NULL: the count of rows decoded so far
   is stored there (release order) every few rows, in its low 32 bits, for a reader in
   another process. */
int memery_jpeg_decode(const uint8_t *data, size_t size, uint8_t *pixels, int width, int height, int stride,
                       uint64_t *progress);

/* A baseline JPEG at `quality`, written a band of rows at a time, read in place; pixels that
   are not opaque are flattened onto white. Each call returns 0, or -1 with libjpeg's message
   in `message`; after a failure only `memery_jpeg_writer_free` may be called, which may be
   called at any time. */
typedef struct memery_jpeg_writer memery_jpeg_writer;
memery_jpeg_writer *memery_jpeg_writer_new(int width, int height, int quality, char *message, size_t message_size);
int memery_jpeg_writer_rows(memery_jpeg_writer *writer, const uint8_t *pixels, int stride, int rows,
                            char *message, size_t message_size);
/* After the last row: sets *out (owned by the writer) and *size. */
int memery_jpeg_writer_finish(memery_jpeg_writer *writer, unsigned char **out, unsigned long *size,
                              char *message, size_t message_size);
void memery_jpeg_writer_free(memery_jpeg_writer *writer);

#endif
