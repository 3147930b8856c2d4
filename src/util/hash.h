/*
 * hash.h - the integer hash prof's open-addressing tables share.
 *
 * hash_u64() is a 64-bit finalizer (murmur3's fmix64): every input bit
 * affects every output bit, so keys that differ only in their low or high
 * bits (pointers, addresses, small ids) spread over the table.
 */
#ifndef PROF_UTIL_HASH_H
#define PROF_UTIL_HASH_H

#include <stdint.h>

static inline uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

#endif
