/* CRC32C: see include/memery_crc32c.h. No Debian package ships a C library for it (Google's
   crc32c is not packaged), and it is this short. */
#include "memery_crc32c.h"
#include <string.h>

/* The reflected Castagnoli polynomial. */
#define POLY 0x82F63B78u

static uint32_t table[8][256];
static int table_ready;

static void make_table(void) {
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t crc = n;
        for (int k = 0; k < 8; k++) crc = (crc & 1) ? (crc >> 1) ^ POLY : crc >> 1;
        table[0][n] = crc;
    }
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t crc = table[0][n];
        for (int k = 1; k < 8; k++) {
            crc = table[0][crc & 0xff] ^ (crc >> 8);
            table[k][n] = crc;
        }
    }
    __atomic_store_n(&table_ready, 1, __ATOMIC_RELEASE);
}

/* Slicing by 8: eight table look-ups per 8 bytes. Making the table twice in two threads at
   once writes the same values, so no lock is needed. */
uint32_t memery_crc32c_portable(uint32_t crc, const void *data, size_t length) {
    if (!__atomic_load_n(&table_ready, __ATOMIC_ACQUIRE)) make_table();
    const unsigned char *p = data;
    crc = ~crc;
    while (length >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        word = __builtin_bswap64(word);
#endif
        word ^= crc;
        crc = table[7][word & 0xff] ^ table[6][(word >> 8) & 0xff] ^ table[5][(word >> 16) & 0xff] ^
              table[4][(word >> 24) & 0xff] ^ table[3][(word >> 32) & 0xff] ^ table[2][(word >> 40) & 0xff] ^
              table[1][(word >> 48) & 0xff] ^ table[0][word >> 56];
        p += 8;
        length -= 8;
    }
    while (length--) crc = table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
    return ~crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2")))
static uint32_t hardware(uint32_t crc, const void *data, size_t length) {
    const unsigned char *p = data;
    uint64_t c = ~crc;
    while (length >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        c = __builtin_ia32_crc32di(c, word);
        p += 8;
        length -= 8;
    }
    uint32_t c32 = (uint32_t)c;
    while (length--) c32 = __builtin_ia32_crc32qi(c32, *p++);
    return ~c32;
}

static int has_hardware(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.2") ? 1 : 0;
}
#elif defined(__aarch64__)
#include <sys/auxv.h>
__attribute__((target("crc")))
static uint32_t hardware(uint32_t crc, const void *data, size_t length) {
    const unsigned char *p = data;
    uint32_t c = ~crc;
    while (length >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        c = __builtin_arm_crc32cd(c, word);
        p += 8;
        length -= 8;
    }
    while (length--) c = __builtin_arm_crc32cb(c, *p++);
    return ~c;
}

static int has_hardware(void) { return (getauxval(AT_HWCAP) & (1 << 7)) != 0; /* HWCAP_CRC32 */ }
#else
static uint32_t hardware(uint32_t crc, const void *data, size_t length) { return memery_crc32c_portable(crc, data, length); }
static int has_hardware(void) { return 0; }
#endif

/* -1: not looked at yet. */
static int hardware_present = -1;

int memery_crc32c_uses_hardware(void) {
    int present = __atomic_load_n(&hardware_present, __ATOMIC_RELAXED);
    if (present < 0) {
        present = has_hardware();
        __atomic_store_n(&hardware_present, present, __ATOMIC_RELAXED);
    }
    return present;
}

uint32_t memery_crc32c(uint32_t crc, const void *data, size_t length) {
    return memery_crc32c_uses_hardware() ? hardware(crc, data, length) : memery_crc32c_portable(crc, data, length);
}
