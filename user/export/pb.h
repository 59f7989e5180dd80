/* SPDX-License-Identifier: MIT */
/*
 * A protocol-buffers writer, the wire format only (varint, 64-bit, length
 * delimited): fields are appended to one growing buffer; a nested message
 * is begun and ended, its length written in four bytes as a redundant
 * varint (as Perfetto's own protozero does), so nothing is copied twice.
 * An error (no memory, a message over 256 MiB) sticks: lat_pb_done says.
 */
#ifndef LATCTL_PB_H
#define LATCTL_PB_H

#include <stddef.h>
#include <stdint.h>

#define LAT_PB_DEPTH 16

struct lat_pb {
	uint8_t *buf;
	size_t len, cap;
	size_t open[LAT_PB_DEPTH]; /* where each open message's length goes */
	int depth;
	int err; /* 0, or the first -errno */
};

void lat_pb_init(struct lat_pb *b);
void lat_pb_free(struct lat_pb *b);
/* 0, or the first error (-ENOMEM, -EOVERFLOW, -EINVAL: unbalanced). */
int lat_pb_done(const struct lat_pb *b);

/* Wire type 0: uint32/64, int32/64 (negative: ten bytes), bool, enum. */
void lat_pb_uint(struct lat_pb *b, uint32_t field, uint64_t v);
void lat_pb_int(struct lat_pb *b, uint32_t field, int64_t v);
/* Wire type 1: double. */
void lat_pb_double(struct lat_pb *b, uint32_t field, double v);
/* Wire type 2: a string (without its NUL), or a nested message. */
void lat_pb_string(struct lat_pb *b, uint32_t field, const char *s);
void lat_pb_begin(struct lat_pb *b, uint32_t field);
void lat_pb_end(struct lat_pb *b);

#endif /* LATCTL_PB_H */
