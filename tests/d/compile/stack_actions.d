/*
 * Stack(), ustack() and jstack() with sizes.
 * @options: -e
 */
BEGIN { stack(); stack(5); ustack(); ustack(10); ustack(10, 100); jstack(); jstack(3, 64); }
/* SPDX-License-Identifier: MIT */
