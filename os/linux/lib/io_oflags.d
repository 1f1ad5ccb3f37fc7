/* SPDX-License-Identifier: MIT */
/*
 * io_oflags.d: the open(2) flags whose numbers differ between Linux's
 * architectures, for io.d (fi_oflags): the generic numbers, which x86
 * and most others use.  arm64's are in io_oflags_arm64.d; one of the two
 * files is loaded, chosen by the kernel's own types (dt_lib.c): arm64's
 * registers (struct pt_regs) have an orig_x0, no other's do.
 */
#pragma D depends_on module vmlinux
#pragma D depends_on member !pt_regs.orig_x0

inline int O_DIRECT = 0x4000;
inline int O_LARGEFILE = 0x8000;
inline int O_DIRECTORY = 0x10000;
inline int O_NOFOLLOW = 0x20000;
