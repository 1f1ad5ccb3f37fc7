/*
 * Raw tracepoint arguments of qualified types resolve: args[0] of
 * sock:inet_sock_set_state is a const struct sock *, args[1] a const int.
 * @options: -e
 * @requires: root btf os:linux
 */
rawtp:sock::inet_sock_set_state
/args[1] != args[2]/
{
	trace(args[0]->__sk_common.skc_num);
	this->sk = args[0];
	this->state = args[2];
}
/* SPDX-License-Identifier: MIT */
