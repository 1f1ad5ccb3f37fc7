/* SPDX-License-Identifier: MIT */
/*
 * io_oflags_arm64.d: io_oflags.d for arm64 kernels, whose open(2) flags
 * O_DIRECTORY, O_NOFOLLOW, O_DIRECT and O_LARGEFILE have numbers of
 * their own.
 */
#pragma D depends_on module vmlinux
#pragma D depends_on member pt_regs.orig_x0

inline int O_DIRECTORY = 0x4000;
inline int O_NOFOLLOW = 0x8000;
inline int O_DIRECT = 0x10000;
inline int O_LARGEFILE = 0x20000;
