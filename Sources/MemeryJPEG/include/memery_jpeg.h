#ifndef MEMERY_JPEG_H
#define MEMERY_JPEG_H
#include <stddef.h>
#include <stdint.h>

/* Encodes Cairo ARGB32 pixels (native-endian words, premultiplied alpha) as a baseline JPEG
   at `quality` with libjpeg-turbo, reading the rows in place: pixels that are not opaque are
   flattened onto white. On success returns 0 and sets *out (free it with free()) and *size;
   on failure returns -1 and writes libjpeg's message into `message`. libjpeg reports errors
   by longjmp, which Swift cannot catch: hence this C. */
int memery_jpeg_encode(const uint8_t *pixels, int width, int height, int stride, int quality,
                       unsigned char **out, unsigned long *size, char *message, size_t message_size);

#endif

#ifndef MEMERY_JPEG_DECODE_H
#define MEMERY_JPEG_DECODE_H
/* The size of a JPEG that `memery_jpeg_decode` can take: 8-bit YCbCr or greyscale. Returns 0
   and sets *width and *height; else returns -1 (another decoder is to be used). */
int memery_jpeg_size(const uint8_t *data, size_t size, int *width, int *height);

/* Decodes such a JPEG straight into Cairo ARGB32 rows (opaque, so premultiplied is straight)
   of `width` x `height` at `pixels`, `stride` bytes apart. Returns 0; -1 on any error or
   warning from libjpeg (a damaged file), leaving the pixels undefined: another decoder is to
   be used then, which says what is wrong in its own words. */
int memery_jpeg_decode(const uint8_t *data, size_t size, uint8_t *pixels, int width, int height, int stride);
#endif
