/*
 * If and else with and without blocks.
 * @options: -e
 */
BEGIN
{
	if (arg0 > 1) {
		trace(1);
	} else if (arg0 == 0) {
		trace(2);
	} else {
		trace(3);
	}
	if (arg1)
		trace(4);
	if (arg2) { x = 1; } else y = 2;
}
/* SPDX-License-Identifier: MIT */
