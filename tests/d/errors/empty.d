/* SPDX-License-Identifier: MIT
 * A script with nothing in it.
 * @options: -e
 */
