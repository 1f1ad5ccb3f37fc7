/* SPDX-License-Identifier: MIT */
/*
 * dt_protobuf.c: Protocol Buffers' wire format, written (see
 * dt_protobuf.h).  Each field is a tag -- (field number << 3) | wire
 * type, as a varint -- then its value: a varint, or a varint length and
 * that many bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "common/consumer/dt_protobuf.h"

void
dt_pb_init(dt_pbuf_t *pb)
{
	memset(pb, 0, sizeof(*pb));
}

void
dt_pb_free(dt_pbuf_t *pb)
{
	free(pb->pb_data);
	dt_pb_init(pb);
}

void
dt_pb_reset(dt_pbuf_t *pb)
{
	pb->pb_len = 0;
}

/* Room for n more bytes; false (and pb_err) when there is none. */
static bool
dt_pb_room(dt_pbuf_t *pb, size_t n)
{
	size_t cap;
	unsigned char *p;

	if (pb->pb_err)
		return false;
	if (pb->pb_cap - pb->pb_len >= n)
		return true;
	cap = pb->pb_cap ? pb->pb_cap : 256;
	while (cap - pb->pb_len < n) {
		if (cap > SIZE_MAX / 2) {
			pb->pb_err = true;
			return false;
		}
		cap *= 2;
	}
	if ((p = realloc(pb->pb_data, cap)) == NULL) {
		pb->pb_err = true;
		return false;
	}
	pb->pb_data = p;
	pb->pb_cap = cap;
	return true;
}

void
dt_pb_bytes(dt_pbuf_t *pb, const void *p, size_t n)
{
	if (n == 0 || !dt_pb_room(pb, n))
		return;
	memcpy(pb->pb_data + pb->pb_len, p, n);
	pb->pb_len += n;
}

void
dt_pb_varint(dt_pbuf_t *pb, uint64_t v)
{
	unsigned char b[10];
	size_t n = 0;

	do {
		b[n] = v & 0x7f;
		v >>= 7;
		if (v != 0)
			b[n] |= 0x80;
		n++;
	} while (v != 0);
	dt_pb_bytes(pb, b, n);
}

void
dt_pb_tag(dt_pbuf_t *pb, uint32_t field, unsigned wiretype)
{
	dt_pb_varint(pb, ((uint64_t) field << 3) | (wiretype & 7));
}

void
dt_pb_uint(dt_pbuf_t *pb, uint32_t field, uint64_t v)
{
	dt_pb_tag(pb, field, DT_PB_VARINT);
	dt_pb_varint(pb, v);
}

void
dt_pb_int(dt_pbuf_t *pb, uint32_t field, int64_t v)
{
	dt_pb_uint(pb, field, (uint64_t) v);
}

void
dt_pb_uint_opt(dt_pbuf_t *pb, uint32_t field, uint64_t v)
{
	if (v != 0)
		dt_pb_uint(pb, field, v);
}

void
dt_pb_int_opt(dt_pbuf_t *pb, uint32_t field, int64_t v)
{
	if (v != 0)
		dt_pb_int(pb, field, v);
}

void
dt_pb_lenfield(dt_pbuf_t *pb, uint32_t field, const void *p, size_t n)
{
	dt_pb_tag(pb, field, DT_PB_LEN);
	dt_pb_varint(pb, n);
	dt_pb_bytes(pb, p, n);
}

void
dt_pb_string(dt_pbuf_t *pb, uint32_t field, const char *s)
{
	dt_pb_lenfield(pb, field, s, strlen(s));
}

void
dt_pb_message(dt_pbuf_t *pb, uint32_t field, const dt_pbuf_t *sub)
{
	if (sub->pb_err) {
		pb->pb_err = true;
		return;
	}
	dt_pb_lenfield(pb, field, sub->pb_data, sub->pb_len);
}

/* The bytes of v as a varint. */
static size_t
dt_pb_varint_len(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

void
dt_pb_packed(dt_pbuf_t *pb, uint32_t field, const uint64_t *v, size_t n)
{
	size_t len = 0;

	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++)
		len += dt_pb_varint_len(v[i]);
	dt_pb_tag(pb, field, DT_PB_LEN);
	dt_pb_varint(pb, len);
	for (size_t i = 0; i < n; i++)
		dt_pb_varint(pb, v[i]);
}
