// SPDX-License-Identifier: MIT
/* The protocol-buffers wire format (see pb.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export/pb.h"

#define LEN_BYTES 4 /* a nested message's length: 28 bits */
#define LEN_MAX ((1U << 28) - 1)

void lat_pb_init(struct lat_pb *b)
{
	memset(b, 0, sizeof(*b));
}

void lat_pb_free(struct lat_pb *b)
{
	free(b->buf);
	lat_pb_init(b);
}

int lat_pb_done(const struct lat_pb *b)
{
	return b->err ? b->err : b->depth ? -EINVAL : 0;
}

static int room(struct lat_pb *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 4096;
	uint8_t *p;

	if (b->err)
		return -1;
	if (b->len + n <= b->cap)
		return 0;
	while (cap < b->len + n)
		cap *= 2;
	p = realloc(b->buf, cap);
	if (!p) {
		b->err = -ENOMEM;
		return -1;
	}
	b->buf = p;
	b->cap = cap;
	return 0;
}

static void put_varint(struct lat_pb *b, uint64_t v)
{
	if (room(b, 10))
		return;
	while (v >= 0x80) {
		b->buf[b->len++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	b->buf[b->len++] = (uint8_t)v;
}

static void put_tag(struct lat_pb *b, uint32_t field, unsigned int wire)
{
	put_varint(b, (uint64_t)field << 3 | wire);
}

void lat_pb_uint(struct lat_pb *b, uint32_t field, uint64_t v)
{
	put_tag(b, field, 0);
	put_varint(b, v);
}

void lat_pb_int(struct lat_pb *b, uint32_t field, int64_t v)
{
	lat_pb_uint(b, field, (uint64_t)v);
}

void lat_pb_double(struct lat_pb *b, uint32_t field, double v)
{
	uint64_t bits;
	int i;

	memcpy(&bits, &v, sizeof(bits));
	put_tag(b, field, 1);
	if (room(b, 8))
		return;
	for (i = 0; i < 8; i++) /* little-endian */
		b->buf[b->len++] = (uint8_t)(bits >> (8 * i));
}

void lat_pb_string(struct lat_pb *b, uint32_t field, const char *s)
{
	size_t n = strlen(s);

	put_tag(b, field, 2);
	put_varint(b, n);
	if (room(b, n))
		return;
	memcpy(b->buf + b->len, s, n);
	b->len += n;
}

void lat_pb_begin(struct lat_pb *b, uint32_t field)
{
	put_tag(b, field, 2);
	if (b->depth == LAT_PB_DEPTH) {
		b->err = b->err ? b->err : -EINVAL;
		return;
	}
	if (room(b, LEN_BYTES))
		return;
	b->open[b->depth++] = b->len;
	b->len += LEN_BYTES;
}

void lat_pb_end(struct lat_pb *b)
{
	size_t at, n;
	int i;

	if (b->err)
		return;
	if (!b->depth) {
		b->err = -EINVAL;
		return;
	}
	at = b->open[--b->depth];
	n = b->len - at - LEN_BYTES;
	if (n > LEN_MAX) {
		b->err = -EOVERFLOW;
		return;
	}
	for (i = 0; i < LEN_BYTES; i++) /* redundant varint: continuation on 0-2 */
		b->buf[at + i] = (uint8_t)((n >> (7 * i)) & 0x7f) | (i < LEN_BYTES - 1 ? 0x80 : 0);
}
