/*
 * A provider name ending in a digit.
 * @options: -e
 */
provider p1 {
	probe a();
};
/* SPDX-License-Identifier: MIT */
