/* SPDX-License-Identifier: MIT
 * A clause body that never ends.
 * @options: -e
 */
BEGIN
{
	trace(1);
