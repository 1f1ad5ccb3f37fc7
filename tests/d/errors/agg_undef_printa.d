/*
 * printa() of an aggregation no clause has assigned: DTrace's
 * "undefined aggregation", tagged by the action.
 * @options: -e -x errtags
 */
BEGIN { @y = count(); }
END { printa("%@d\n", @y, @x); }
/* SPDX-License-Identifier: MIT */
