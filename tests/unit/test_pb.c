// SPDX-License-Identifier: MIT
/* The protocol-buffers writer of `latctl export` against known bytes. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "export/pb.h"

static void expect(const struct lat_pb *b, const uint8_t *want, size_t n)
{
	assert_int_equal(lat_pb_done(b), 0);
	assert_int_equal(b->len, n);
	assert_memory_equal(b->buf, want, n);
}

/* The examples of the protobuf encoding guide: 150 in field 1 is
 * 08 96 01; "testing" in field 2 is 12 07 74 65 73 74 69 6e 67. */
static void scalars(void **state)
{
	static const uint8_t want[] = { 0x08, 0x96, 0x01, 0x12, 0x07, 't',
					'e',  's',  't',  'i',	'n',  'g' };
	struct lat_pb b;

	(void)state;
	lat_pb_init(&b);
	lat_pb_uint(&b, 1, 150);
	lat_pb_string(&b, 2, "testing");
	expect(&b, want, sizeof(want));
	lat_pb_free(&b);
}

/* -1 as int64: ten bytes; 1.0 as double: fixed64 little-endian; a field
 * number over 15 takes a two-byte tag (TracePacket.track_descriptor = 60). */
static void negative_double_and_tags(void **state)
{
	static const uint8_t want[] = {
		0x20, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x29,
		0,    0,    0,	  0,	0,    0,    0xf0, 0x3f, 0xe0, 0x03, 0x07,
	};
	struct lat_pb b;

	(void)state;
	lat_pb_init(&b);
	lat_pb_int(&b, 4, -1);
	lat_pb_double(&b, 5, 1.0);
	lat_pb_uint(&b, 60, 7);
	expect(&b, want, sizeof(want));
	lat_pb_free(&b);
}

/* A nested message's length takes four bytes, a redundant varint that
 * protobuf parsers read as the plain one (3 here). */
static void nested(void **state)
{
	static const uint8_t want[] = { 0x0a, 0x83, 0x80, 0x80, 0x00, 0x08, 0x96, 0x01 };
	struct lat_pb b;

	(void)state;
	lat_pb_init(&b);
	lat_pb_begin(&b, 1);
	lat_pb_uint(&b, 1, 150);
	lat_pb_end(&b);
	expect(&b, want, sizeof(want));
	lat_pb_free(&b);
}

/* An end without a begin, or a begin never ended, is an error that sticks. */
static void unbalanced(void **state)
{
	struct lat_pb b;

	(void)state;
	lat_pb_init(&b);
	lat_pb_begin(&b, 1);
	assert_int_equal(lat_pb_done(&b), -EINVAL);
	lat_pb_end(&b);
	assert_int_equal(lat_pb_done(&b), 0);
	lat_pb_end(&b);
	assert_int_equal(lat_pb_done(&b), -EINVAL);
	lat_pb_uint(&b, 1, 1);
	assert_int_equal(lat_pb_done(&b), -EINVAL);
	lat_pb_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(scalars),
		cmocka_unit_test(negative_double_and_tags),
		cmocka_unit_test(nested),
		cmocka_unit_test(unbalanced),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests_name("pb", tests, NULL, NULL);
}
