#define _GNU_SOURCE
#include <stdint.h>
#include <sys/mman.h>

/* An anonymous file in memory, closed on exec (Swift's Glibc module does not export
   memfd_create, which needs _GNU_SOURCE). */
static inline int memery_memory_file(const char *name) { return memfd_create(name, MFD_CLOEXEC); }

/* A word two processes share: read with acquire, written with release ordering. */
static inline uint64_t memery_load_acquire(const uint64_t *word) { return __atomic_load_n(word, __ATOMIC_ACQUIRE); }
static inline void memery_store_release(uint64_t *word, uint64_t value) { __atomic_store_n(word, value, __ATOMIC_RELEASE); }

