/*
 * types.h - the short fixed-width integer names every layer uses.
 *
 * They live here, in the lowest layer, so that code needing only the
 * integer types does not have to include the perf.data format headers.
 */
#ifndef PROF_UTIL_TYPES_H
#define PROF_UTIL_TYPES_H

#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#endif
