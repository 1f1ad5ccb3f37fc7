/*
 * A probe declared twice in a provider.
 * @options: -e
 */
provider p {
	probe a(int);
	probe a(int);
};
/* SPDX-License-Identifier: MIT */
