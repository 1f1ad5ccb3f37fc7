/*
 * A D string is an array of char: s[i] and *s read its characters,
 * whatever kind of variable holds it.
 * @options: -q
 */
BEGIN
{
	s = "ABCDEFG";
	self->t = "xyz";
	this->l = "QR";
	a[1] = "ab";
	printf("%c %c %c %c %c\n", s[1], *s, self->t[2], *(this->l + 1),
	    a[1][1]);
	printf("%d\n", s[7]);
	printf("%d\n", execname[0] == 'd');
	exit(0);
}
/* SPDX-License-Identifier: MIT */
