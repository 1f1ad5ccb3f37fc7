/* SPDX-License-Identifier: MIT */
/*
 * dt_protobuf.h: a writer of Protocol Buffers' wire format, the little of
 * it a profile needs (dt_pprof.c): varints, 64-bit integers as varints
 * (int64, uint64, bool), length-delimited fields (strings, bytes, nested
 * messages) and packed repeated varints.
 *
 * A message is written into a dt_pbuf_t, a growing byte buffer.  A
 * nested message is written into a buffer of its own and then added as a
 * length-delimited field of its parent, since its length comes first.
 * A failed allocation sets pb_err and every later call does nothing, so
 * that a writer checks once, at the end.
 */
#ifndef DT_PROTOBUF_H
#define DT_PROTOBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct dt_pbuf {
	unsigned char *pb_data;
	size_t pb_len;
	size_t pb_cap;
	bool pb_err; /* out of memory: the buffer is incomplete */
} dt_pbuf_t;

/* The wire types of a field's tag. */
#define DT_PB_VARINT 0
#define DT_PB_LEN    2

extern void dt_pb_init(dt_pbuf_t *pb);
extern void dt_pb_free(dt_pbuf_t *pb);
/* Empty the buffer, keeping its memory, for the next message. */
extern void dt_pb_reset(dt_pbuf_t *pb);

/* Raw bytes and a bare varint (7 bits a byte, the lowest first). */
extern void dt_pb_bytes(dt_pbuf_t *pb, const void *p, size_t n);
extern void dt_pb_varint(dt_pbuf_t *pb, uint64_t v);
/* A field's tag: its number and wire type. */
extern void dt_pb_tag(dt_pbuf_t *pb, uint32_t field, unsigned wiretype);

/*
 * Fields.  An int64 is written as the uint64 of its two's complement
 * (a negative one takes ten bytes), as protobuf's int64 is.  The _opt
 * forms write nothing for 0, proto3's default, which a reader takes
 * for a field it does not find.
 */
extern void dt_pb_uint(dt_pbuf_t *pb, uint32_t field, uint64_t v);
extern void dt_pb_int(dt_pbuf_t *pb, uint32_t field, int64_t v);
extern void dt_pb_uint_opt(dt_pbuf_t *pb, uint32_t field, uint64_t v);
extern void dt_pb_int_opt(dt_pbuf_t *pb, uint32_t field, int64_t v);
/* A length-delimited field: a string, bytes, or a message's bytes. */
extern void dt_pb_lenfield(
    dt_pbuf_t *pb, uint32_t field, const void *p, size_t n);
extern void dt_pb_string(dt_pbuf_t *pb, uint32_t field, const char *s);
/* A nested message, written in sub, as field of pb. */
extern void dt_pb_message(dt_pbuf_t *pb, uint32_t field, const dt_pbuf_t *sub);
/*
 * A packed repeated uint64 (or, with their two's complement, int64):
 * one length-delimited field of the varints; nothing when n is 0.
 */
extern void dt_pb_packed(
    dt_pbuf_t *pb, uint32_t field, const uint64_t *v, size_t n);

#endif /* DT_PROTOBUF_H */
