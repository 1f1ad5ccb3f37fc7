/*
 * aggsortkey, aggsortrev and the other switches of printa() take DTrace's
 * words for on and off: "false" turns key order off again.
 * @options: -q
 */
BEGIN
{
	@[3] = sum(1);
	@[1] = sum(3);
	@[2] = sum(2);
	setopt("aggsortkey");
	printa(@);
	setopt("aggsortkey", "false");
	printa(@);
	setopt("aggsortrev", "yes");
	printa(@);
	setopt("aggsortrev", "off");
	setopt("aggsortkey", "on");
	printa(@);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
