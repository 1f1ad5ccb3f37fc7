/*
 * String subroutines.
 * @options: -e
 */
BEGIN
{
	a = strlen(execname);
	b = strjoin("a", "b");
	c = substr("abc", 1);
	d = substr("abc", 1, 1);
	e = index("abc", "b");
	f = rindex("abc", "b", 2);
	g = strchr("abc", 'b');
	h = strrchr("abc", 'b');
	i = strstr("abc", "bc");
	j = strtok("a b", " ");
	k = toupper("a");
	l = tolower("A");
	m = lltostr(42);
	n = strtoll("42");
	o = basename("/a/b");
	p = dirname("/a/b");
	q = cleanpath("/a/../b");
	r = json("{}", "a");
}
/* SPDX-License-Identifier: MIT */
