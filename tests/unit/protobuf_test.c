/* SPDX-License-Identifier: MIT */
/*
 * protobuf_test.c: the protobuf writer of pprof profiles
 * (common/consumer/dt_protobuf.c).
 *
 * Each encoding is checked byte for byte against the examples of the
 * Protocol Buffers encoding guide (150 as a varint is 96 01; field 1 of
 * 150 is 08 96 01; field 2 "testing" is 12 07 74 65 73 74 69 6e 67; a
 * message of that in field 3 is 1a 03 08 96 01; packed 3, 270, 86942 in
 * field 4 is 22 06 03 8e 02 9e a7 05) and the rules the guide states
 * (seven bits a byte, lowest first; a negative int64 is ten bytes).
 * Then one message of every kind of field is decoded by protoc
 * --decode_raw, an implementation not ours, when it is installed
 * (Debian: protobuf-compiler), and must read as written.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/consumer/dt_protobuf.h"
#include "tests/unit/unit.h"

/* pb holds exactly the n bytes of want. */
static int
same(const dt_pbuf_t *pb, const unsigned char *want, size_t n)
{
	if (pb->pb_err || pb->pb_len != n ||
	    memcmp(pb->pb_data, want, n) != 0) {
		printf("  got:");
		for (size_t i = 0; i < pb->pb_len; i++)
			printf(" %02x", pb->pb_data[i]);
		printf("\n  want:");
		for (size_t i = 0; i < n; i++)
			printf(" %02x", want[i]);
		printf("\n");
		return 0;
	}
	return 1;
}

#define CHECK_BYTES(pb, ...)                                                   \
	do {                                                                   \
		static const unsigned char w_[] = {__VA_ARGS__};               \
		CHECK(same((pb), w_, sizeof(w_)));                             \
	} while (0)

static void
test_varints(void)
{
	dt_pbuf_t pb;

	dt_pb_init(&pb);
	dt_pb_varint(&pb, 0);
	CHECK_BYTES(&pb, 0x00);
	dt_pb_reset(&pb);
	dt_pb_varint(&pb, 1);
	CHECK_BYTES(&pb, 0x01);
	dt_pb_reset(&pb);
	dt_pb_varint(&pb, 127);
	CHECK_BYTES(&pb, 0x7f);
	dt_pb_reset(&pb);
	dt_pb_varint(&pb, 128);
	CHECK_BYTES(&pb, 0x80, 0x01);
	dt_pb_reset(&pb);
	dt_pb_varint(&pb, 150);
	CHECK_BYTES(&pb, 0x96, 0x01);
	dt_pb_reset(&pb);
	dt_pb_varint(&pb, 300);
	CHECK_BYTES(&pb, 0xac, 0x02);
	dt_pb_reset(&pb);
	dt_pb_varint(&pb, UINT64_MAX);
	CHECK_BYTES(
	    &pb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01);
	/* An int64 of -1 is its two's complement: ten bytes. */
	dt_pb_reset(&pb);
	dt_pb_int(&pb, 1, -1);
	CHECK_BYTES(&pb, 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0x01);
	dt_pb_free(&pb);
}

static void
test_fields(void)
{
	static const uint64_t packed[] = {3, 270, 86942};
	dt_pbuf_t pb, sub;

	dt_pb_init(&pb);
	dt_pb_init(&sub);
	dt_pb_uint(&pb, 1, 150);
	CHECK_BYTES(&pb, 0x08, 0x96, 0x01);
	dt_pb_reset(&pb);
	dt_pb_string(&pb, 2, "testing");
	CHECK_BYTES(&pb, 0x12, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g');
	dt_pb_reset(&pb);
	dt_pb_uint(&sub, 1, 150);
	dt_pb_message(&pb, 3, &sub);
	CHECK_BYTES(&pb, 0x1a, 0x03, 0x08, 0x96, 0x01);
	dt_pb_reset(&pb);
	dt_pb_packed(&pb, 4, packed, 3);
	CHECK_BYTES(&pb, 0x22, 0x06, 0x03, 0x8e, 0x02, 0x9e, 0xa7, 0x05);
	/* Field 16 needs a tag of two bytes; an empty string is a length. */
	dt_pb_reset(&pb);
	dt_pb_uint(&pb, 16, 1);
	dt_pb_string(&pb, 6, "");
	CHECK_BYTES(&pb, 0x80, 0x01, 0x01, 0x32, 0x00);
	/* What proto3 takes for absent is not written; nor an empty packed. */
	dt_pb_reset(&pb);
	dt_pb_uint_opt(&pb, 1, 0);
	dt_pb_int_opt(&pb, 2, 0);
	dt_pb_packed(&pb, 3, packed, 0);
	CHECK_INT(pb.pb_len, 0);
	dt_pb_int_opt(&pb, 2, -2);
	CHECK_BYTES(&pb, 0x10, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0x01);
	dt_pb_free(&pb);
	dt_pb_free(&sub);
}

/* A buffer that grows past its first allocation keeps every byte. */
static void
test_growth(void)
{
	dt_pbuf_t pb;
	int ok = 1;

	dt_pb_init(&pb);
	for (uint64_t i = 0; i < 10000; i++)
		dt_pb_uint(&pb, 1, i);
	CHECK(!pb.pb_err);
	/* 128 one-byte values, then two-byte ones: 2 + 3 bytes a field. */
	CHECK_INT(pb.pb_len, 128 * 2 + (10000 - 128) * 3);
	for (uint64_t i = 0, off = 0; i < 10000 && ok; i++) {
		uint64_t v = 0;
		unsigned shift = 0;

		ok = pb.pb_data[off++] == 0x08;
		do {
			v |= (uint64_t) (pb.pb_data[off] & 0x7f) << shift;
			shift += 7;
		} while (pb.pb_data[off++] & 0x80);
		ok = ok && v == i;
	}
	CHECK(ok);
	dt_pb_free(&pb);
}

/* One message of every kind of field, as protoc --decode_raw reads it. */
static void
test_protoc(void)
{
	static const uint64_t packed[] = {1, 300, 0};
	static const char want[] = "1: 150\n"
				   "2: \"testing\"\n"
				   "3 {\n"
				   "  1: 150\n"
				   "  2: \"inner\"\n"
				   "}\n"
				   "4: 18446744073709551615\n"
				   "5: \"\\001\\254\\002\\000\"\n"
				   "6: \"\"\n"
				   "1000: 7\n";
	char path[] = "/tmp/protobuf_test.XXXXXX", cmd[128], got[1024];
	dt_pbuf_t pb, sub;
	size_t n = 0;
	FILE *fp;
	int fd;

	if (system("command -v protoc >/dev/null 2>&1") != 0) {
		printf("note: no protoc (Debian: protobuf-compiler): the "
		       "decoding by another implementation is not checked\n");
		return;
	}
	dt_pb_init(&pb);
	dt_pb_init(&sub);
	dt_pb_uint(&pb, 1, 150);
	dt_pb_string(&pb, 2, "testing");
	dt_pb_uint(&sub, 1, 150);
	dt_pb_string(&sub, 2, "inner");
	dt_pb_message(&pb, 3, &sub);
	dt_pb_int(&pb, 4, -1);
	dt_pb_packed(&pb, 5, packed, 3);
	dt_pb_string(&pb, 6, "");
	dt_pb_uint(&pb, 1000, 7);
	CHECK(!pb.pb_err);
	if ((fd = mkstemp(path)) < 0) {
		CHECK(fd >= 0);
		return;
	}
	CHECK_INT(write(fd, pb.pb_data, pb.pb_len), (long long) pb.pb_len);
	(void) close(fd);
	(void) snprintf(cmd, sizeof(cmd), "protoc --decode_raw < %s", path);
	if ((fp = popen(cmd, "r")) != NULL) {
		n = fread(got, 1, sizeof(got) - 1, fp);
		CHECK_INT(pclose(fp), 0);
	}
	got[n] = '\0';
	CHECK_STR(got, want);
	(void) unlink(path);
	dt_pb_free(&pb);
	dt_pb_free(&sub);
}

int
main(void)
{
	test_varints();
	test_fields();
	test_growth();
	test_protoc();
	return unit_done();
}
