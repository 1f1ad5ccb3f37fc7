/*
 * END fires at the first status check after exit(), and status is checked
 * every statusrate: with a rate of 3 seconds, an exit() two seconds in
 * (after the first check, one switchrate in) waits for the check at four.
 * @options: -q
 */
#pragma D option statusrate=3sec

tick-100ms
/n++ == 20/
{
	ts = timestamp;
	exit(0);
}

END
{
	printf("%s\n", timestamp - ts > 1000000000 ? "waited" : "too soon");
}
