/*
 * A strsize too large for the BPF engine's maps is one clear error line
 * when tracing starts, not a verifier message.
 * @options: -q -x strsize=8000
 * @engines: bpf
 */
BEGIN
{
	trace(execname);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
