/* CRC32C (Castagnoli), the checksum of every event record from store format 3 (as LevelDB,
   RocksDB and Kafka check theirs): computed by the processor's own instruction where it has
   one (SSE 4.2 on x86-64, the CRC extension on 64-bit ARM), else from a table. Plain C types
   only: this header includes no system header. */
#ifndef MEMERY_CRC32C_H
#define MEMERY_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/* The CRC32C of `length` bytes at `data`, continuing `crc` (0 to start): the standard one,
   with its initial and final inversions, so that memery_crc32c(0, "123456789", 9) is
   0xE3069283. */
uint32_t memery_crc32c(uint32_t crc, const void *data, size_t length);

/* The same from the table alone, whatever the processor has (for the tests). */
uint32_t memery_crc32c_portable(uint32_t crc, const void *data, size_t length);

/* 1 when memery_crc32c uses the processor's instruction. */
int memery_crc32c_uses_hardware(void);

#endif
