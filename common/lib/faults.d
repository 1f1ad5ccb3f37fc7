/* SPDX-License-Identifier: MIT */
/*
 * faults.d: the names of the fault kinds the ERROR probe reports in its
 * arg4 (and dtrace(1) in its "error on enabled probe" lines), as DTrace
 * defines them for D programs.  The values are the engines' DIF_FLT_*
 * (common/dif/dif_interp.h).
 */
inline int DTRACEFLT_UNKNOWN = 0;	/* unknown fault */
inline int DTRACEFLT_BADADDR = 1;	/* invalid address */
inline int DTRACEFLT_BADALIGN = 2;	/* invalid alignment */
inline int DTRACEFLT_ILLOP = 3;		/* illegal operation */
inline int DTRACEFLT_DIVZERO = 4;	/* divide-by-zero */
inline int DTRACEFLT_NOSCRATCH = 5;	/* out of scratch space */
inline int DTRACEFLT_KPRIV = 6;		/* invalid kernel access */
inline int DTRACEFLT_UPRIV = 7;		/* invalid user access */
inline int DTRACEFLT_TUPOFLOW = 8;	/* tuple stack overflow */
inline int DTRACEFLT_BADSTACK = 9;	/* bad stack */
inline int DTRACEFLT_LIBRARY = 1000;	/* library-level fault */
