/*
 * END fires at the first status check after exit(), and status is checked
 * every statusrate: with a rate of 5 seconds, an exit() two seconds in
 * (after the first check, at the start or one switchrate in) waits for
 * the check at five or six -- three seconds or more, where a drain at the
 * next switchrate would take at most one.
 * @options: -q
 */
#pragma D option statusrate=5sec

tick-100ms
/n++ == 20/
{
	ts = timestamp;
	exit(0);
}

END
{
	printf("%s\n", timestamp - ts > 2000000000 ? "waited" : "too soon");
}
/* SPDX-License-Identifier: MIT */
