/* SPDX-License-Identifier: MIT
 * A comment that never ends.
 * @options: -e
 */
BEGIN { }
/* no end
