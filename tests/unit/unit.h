/* SPDX-License-Identifier: MIT */
/*
 * unit.h: the few macros every C unit test uses.
 *
 * A unit test is a program: it runs its checks, prints one line per failed
 * check (file, line, what was expected and what it got) and exits 0 when
 * all passed, 1 when any failed, or 77 after printing a reason when it
 * cannot run here (the runner reports that as a skip).
 */
#ifndef UNIT_H
#define UNIT_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int unit_failures;
static int unit_checks;

#define CHECK(cond)                                                          \
	do {                                                                 \
		unit_checks++;                                               \
		if (!(cond)) {                                               \
			unit_failures++;                                     \
			printf("%s:%d: check failed: %s\n", __FILE__,        \
			    __LINE__, #cond);                                \
		}                                                            \
	} while (0)

#define CHECK_INT(got, want)                                                 \
	do {                                                                 \
		long long g_ = (long long) (got), w_ = (long long) (want);   \
		unit_checks++;                                               \
		if (g_ != w_) {                                              \
			unit_failures++;                                     \
			printf("%s:%d: %s: got %lld, want %lld\n", __FILE__, \
			    __LINE__, #got, g_, w_);                         \
		}                                                            \
	} while (0)

#define CHECK_STR(got, want)                                                 \
	do {                                                                 \
		const char *g_ = (got), *w_ = (want);                        \
		unit_checks++;                                               \
		if (g_ == NULL || strcmp(g_, w_) != 0) {                     \
			unit_failures++;                                     \
			printf("%s:%d: %s: got \"%s\", want \"%s\"\n",       \
			    __FILE__, __LINE__, #got, g_ ? g_ : "(null)",    \
			    w_);                                             \
		}                                                            \
	} while (0)

#define SKIP(reason)                                                         \
	do {                                                                 \
		printf("%s\n", reason);                                      \
		exit(77);                                                    \
	} while (0)

/*
 * A compile error's message without the part of the clause it names
 * ("in action list: ", "in predicate: "), which a program from a string
 * carries: for tests of the message itself.
 */
static inline const char *
unit_noregion(const char *msg)
{
	static const char *const regions[] = { "in action list: ",
		"in predicate: " };

	for (size_t i = 0; i < sizeof (regions) / sizeof (regions[0]); i++) {
		if (strncmp(msg, regions[i], strlen(regions[i])) == 0)
			return msg + strlen(regions[i]);
	}
	return msg;
}

static inline int
unit_done(void)
{
	printf("%d checks, %d failed\n", unit_checks, unit_failures);
	return unit_failures ? 1 : 0;
}

#endif /* UNIT_H */
