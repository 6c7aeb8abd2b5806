/* What the JPEG code shares: libjpeg reports an error by calling error_exit, which must not
   return; here it jumps back to the caller's setjmp. */
#ifndef MEMERY_JPEG_FAILURE_H
#define MEMERY_JPEG_FAILURE_H

#include <setjmp.h>
#include <stdio.h>
#include <jpeglib.h>

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "rows are read and written as B, G, R, A bytes: Cairo's words on a little-endian machine"
#endif

struct failure {
    struct jpeg_error_mgr manager;
    jmp_buf back;
};

static void give_up(j_common_ptr info) {
    longjmp(((struct failure *)info->err)->back, 1);
}

/* The error manager to give libjpeg: its errors end at `failure->back`. */
static inline struct jpeg_error_mgr *catching(struct failure *failure) {
    struct jpeg_error_mgr *manager = jpeg_std_error(&failure->manager);
    manager->error_exit = give_up;
    return manager;
}

#endif
