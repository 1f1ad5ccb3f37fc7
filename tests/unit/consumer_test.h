/* SPDX-License-Identifier: MIT */
/*
 * consumer_test.h: helpers shared by the consumer's unit tests.
 *
 * A test builds records the way an engine would -- a data area and the
 * dt_recdesc_t of each value in it (dt_tbuf_t) -- and captures what the
 * consumer prints in a memory stream (dt_cap_t), to compare with the
 * exact bytes DTrace prints.  dt_tsym_ops is a fake symbol table: kernel
 * symbols "vmlinux`do_thing" at 0xffffffff81000000 (0x100 bytes) and
 * "ext4`ext4_read" at 0xffffffffc0000000, an object-only module "nosym"
 * at 0xffffffffc1000000, and a user symbol "libc.so.6`malloc" at
 * 0x7f0000001000 in any process, in libc.so.6 loaded at 0x7f0000000000.
 */
#ifndef CONSUMER_TEST_H
#define CONSUMER_TEST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dt_impl.h"
#include "common/dt_program.h"
#include "common/consumer/dt_consumer.h"
#include "common/consumer/dt_printf.h"
#include "tests/unit/unit.h"

typedef struct dt_tbuf {
	unsigned char tb_data[8192];
	uint32_t tb_off;
	dt_recdesc_t tb_recs[32];
	uint32_t tb_nrecs;
} dt_tbuf_t;

static inline void
tb_reset(dt_tbuf_t *b)
{
	memset(b, 0, sizeof(*b));
}

static inline dt_recdesc_t *
tb_add(dt_tbuf_t *b, dt_rectype_t type, uint32_t size, const void *p,
    uint32_t align)
{
	dt_recdesc_t *rd = &b->tb_recs[b->tb_nrecs++];

	b->tb_off = (b->tb_off + align - 1) & ~(align - 1);
	rd->rd_type = type;
	rd->rd_size = size;
	rd->rd_offset = b->tb_off;
	rd->rd_align = align;
	memcpy(b->tb_data + b->tb_off, p, size);
	b->tb_off += size;
	return rd;
}

static inline dt_recdesc_t *
tb_int(dt_tbuf_t *b, dt_rectype_t type, uint32_t size, uint64_t v)
{
	uint8_t u8 = (uint8_t) v;
	uint16_t u16 = (uint16_t) v;
	uint32_t u32 = (uint32_t) v;

	switch (size) {
	case 1:
		return tb_add(b, type, 1, &u8, 1);
	case 2:
		return tb_add(b, type, 2, &u16, 2);
	case 4:
		return tb_add(b, type, 4, &u32, 4);
	default:
		return tb_add(b, type, 8, &v, 8);
	}
}

static inline dt_recdesc_t *
tb_str(dt_tbuf_t *b, const char *s, uint32_t size)
{
	char tmp[1024];

	memset(tmp, 0, sizeof(tmp));
	memcpy(tmp, s, strlen(s) < size ? strlen(s) : size);
	return tb_add(b, DT_REC_STRING, size, tmp, 1);
}

static inline dt_recdesc_t *
tb_dbl(dt_tbuf_t *b, double d)
{
	return tb_add(b, DT_REC_BYTES, 8, &d, 8);
}

/* A memory stream to capture output. */
typedef struct dt_cap {
	FILE *c_fp;
	char *c_buf;
	size_t c_len;
} dt_cap_t;

static inline FILE *
cap_open(dt_cap_t *c)
{
	if (c->c_fp != NULL) {
		fclose(c->c_fp);
		free(c->c_buf);
	}
	c->c_buf = NULL;
	c->c_len = 0;
	c->c_fp = open_memstream(&c->c_buf, &c->c_len);
	return c->c_fp;
}

/* Close and return what was written (valid until the next cap_open). */
static inline const char *
cap_str(dt_cap_t *c)
{
	fflush(c->c_fp);
	return c->c_buf;
}

static inline void
cap_close(dt_cap_t *c)
{
	if (c->c_fp != NULL)
		fclose(c->c_fp);
	free(c->c_buf);
	c->c_fp = NULL;
	c->c_buf = NULL;
}

static inline int
tsym_k(void *arg, uint64_t addr, dt_syminfo_t *sip)
{
	(void) arg;
	if (addr >= 0xffffffff81000000ULL && addr < 0xffffffff81000100ULL) {
		sip->si_object = "vmlinux";
		sip->si_name = "do_thing";
		sip->si_value = 0xffffffff81000000ULL;
		return 0;
	}
	if (addr >= 0xffffffffc0000000ULL && addr < 0xffffffffc0000100ULL) {
		sip->si_object = "ext4";
		sip->si_name = "ext4_read";
		sip->si_value = 0xffffffffc0000000ULL;
		return 0;
	}
	if (addr >= 0xffffffffc1000000ULL && addr < 0xffffffffc1001000ULL) {
		sip->si_object = "nosym";
		sip->si_name = NULL;
		return 0;
	}
	return -1;
}

static inline int
tsym_u(void *arg, uint64_t pid, uint64_t addr, dt_syminfo_t *sip)
{
	(void) arg;
	(void) pid;
	if (addr >= 0x7f0000001000ULL && addr < 0x7f0000001100ULL) {
		sip->si_object = "libc.so.6";
		sip->si_name = "malloc";
		sip->si_value = 0x7f0000001000ULL;
		sip->si_base = 0x7f0000000000ULL;
		return 0;
	}
	if (addr >= 0x7f0000000000ULL && addr < 0x7f0000001000ULL) {
		sip->si_object = "libc.so.6";
		sip->si_name = NULL;
		sip->si_base = 0x7f0000000000ULL;
		return 0;
	}
	return -1;
}

static const dt_symops_t dt_tsym_ops = {tsym_k, tsym_u, NULL, NULL, NULL};

static inline dtrace_hdl_t *
t_open(void)
{
	int err;
	dtrace_hdl_t *dtp = dtrace_open(DTRACE_VERSION, DTRACE_O_NODEV, &err);

	if (dtp == NULL) {
		printf("dtrace_open failed: %d\n", err);
		exit(1);
	}
	return dtp;
}

/* Compare, printing both sides with visible newlines on a mismatch. */
#define CHECK_OUT(got, want)                                                   \
	do {                                                                   \
		const char *g_ = (got), *w_ = (want);                          \
		unit_checks++;                                                 \
		if (g_ == NULL || strcmp(g_, w_) != 0) {                       \
			unit_failures++;                                       \
			printf("%s:%d: output differs\n--- want\n%s\n"         \
			       "--- got\n%s\n---\n",                           \
			    __FILE__, __LINE__, w_, g_ ? g_ : "(null)");       \
		}                                                              \
	} while (0)

#endif /* CONSUMER_TEST_H */
