/*
 * trunc() of an aggregation no clause has assigned: DTrace's
 * "undefined aggregation", tagged by the action.
 * @options: -e -x errtags
 */
BEGIN { @y = count(); }
END { trunc(@x, 1); }
/* SPDX-License-Identifier: MIT */
