/*
 * normalize() of an aggregation no clause has assigned: DTrace's
 * "undefined aggregation", tagged by the action.
 * @options: -e -x errtags
 */
BEGIN { @y = count(); }
END { normalize(@x, 10); }
/* SPDX-License-Identifier: MIT */
