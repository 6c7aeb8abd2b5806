#define _GNU_SOURCE
#include <sys/mman.h>

/* An anonymous file in memory, closed on exec (Swift's Glibc module does not export
   memfd_create, which needs _GNU_SOURCE). */
static inline int memery_memory_file(const char *name) { return memfd_create(name, MFD_CLOEXEC); }
