/* SPDX-License-Identifier: MIT
 * A control line cut off by the end of the file is an error, not a line.
 */
BEGIN { exit(0); }
#pragma D option quiet