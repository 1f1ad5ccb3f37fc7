/*
 * Comments everywhere.
 * @options: -e
 */
/* before */ BEGIN /* between */ /* and */
/ 1 /* in predicate */ /
{ /* in body */ trace(1); /* end */ }
/* SPDX-License-Identifier: MIT */
