/*
 * A provider definition for USDT.
 * @options: -e
 */
provider myapp {
	probe start(int, char *);
	probe query__done(int);
	probe translated(int) : (int);
};
/* SPDX-License-Identifier: MIT */
