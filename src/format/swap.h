/*
 * swap.h - byte-swapping of perf.data attrs and records written on a
 * machine of the other endianness.
 *
 * Integers are swapped as the width the format gives them (u16, u32 pairs,
 * u64); strings, raw tracepoint payloads, user stack bytes and feature
 * payloads inside HEADER_FEATURE records are left in file order (feature
 * decoders swap those themselves).
 */
#ifndef PROF_FORMAT_SWAP_H
#define PROF_FORMAT_SWAP_H

#include "reader.h"

/* Swaps an attr read from the file into host order, bitfields included. */
void pd_swap_attr(struct pd_attr *attr);

/*
 * Swaps the body of a record whose 8-byte header is already in host order.
 * Returns 0, or -1 when the record is too short for its type.
 */
int pd_swap_record(struct pd_file *f, struct pd_header *hdr);

#endif
