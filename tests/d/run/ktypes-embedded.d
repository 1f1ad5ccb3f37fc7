/*
 * Kernel structs held by value inside others are whole types: struct
 * tcp_sock begins with a struct inet_connection_sock (which begins with
 * a struct sock), so its own members come after it and "." reaches into
 * it; bit-fields of typedef'd types (u8 sk_gso_disabled : 1) are members
 * too.  The layout must agree with the kernel's own pointers.
 * @requires: btf
 * @engines: bpf
 * @options: -q
 */
BEGIN
{
	this->tp = (struct tcp_sock *)0;
	printf("%d %d\n",
	    (uintptr_t)&this->tp->snd_nxt > sizeof (struct inet_connection_sock),
	    (uintptr_t)&this->tp->inet_conn.icsk_inet.sk ==
	    (uintptr_t)this->tp);
	printf("%d\n", curthread->se.load.weight > 0);
	this->sk = (struct sock *)&curthread->se;	/* any readable memory */
	printf("%d\n", this->sk->sk_gso_disabled <= 1);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
