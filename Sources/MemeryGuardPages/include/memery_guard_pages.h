/* Pixel buffers a third-party filter receives (in the helper process and in `plugin check`),
   fenced by pages it may not touch, so that running past either end faults on every size, and
   a fault handler that says which buffer was overrun and by how much before the helper dies. */
#ifndef MEMERY_GUARD_PAGES_H
#define MEMERY_GUARD_PAGES_H

#include <stddef.h>
#include <stdint.h>

typedef struct memery_guarded {
    uint8_t *pixels;        /* `size` bytes, ending flush against the guard page after them */
    size_t size;
    void *mapping;          /* guard page, slack, pixels, guard page */
    size_t mapping_size;
    size_t slack;           /* bytes between the leading guard page and `pixels`, filled with a canary */
} memery_guarded;

/* 0 on success. The pixels are zeroed, readable and writable. */
int memery_guarded_alloc(memery_guarded *buffer, size_t size);
void memery_guarded_free(memery_guarded *buffer);
/* Makes the pixels read-only (an input): a write into them faults too. 0 on success. */
int memery_guarded_seal(memery_guarded *buffer);
/* 1 when the canary in the slack before the pixels is as written (nothing wrote just before them). */
int memery_guarded_slack_intact(const memery_guarded *buffer);

/* Watches a buffer for the fault handler: `label` (for example "its output", kept, not
   copied) names it in the message, and `stride` and `rows` place a fault in a row. At most
   four buffers are watched; slot 0 to 3. */
void memery_guard_watch(int slot, const memery_guarded *buffer, const char *label, size_t stride, size_t rows);
/* Stops watching a buffer (before it is freed). */
void memery_guard_unwatch(const memery_guarded *buffer);
/* Installs the SIGSEGV and SIGBUS handler. On a fault in or beside a watched buffer it writes
   one line to standard error, MEMERY_GUARD_MARKER then for example "went past the end of its
   output, to byte 1 after it (3 rows of 40 bytes)", and the process then dies of the signal as it would
   have. Any other fault dies as before, without a line. */
void memery_guard_install(void);

#define MEMERY_GUARD_MARKER "\001memery-guard\001"

#endif
