/*
 * The compiler's hidden clause-locals (an if's condition, a translator's
 * input) are numbered after every clause's own this-> variables, not
 * only the first clause's: here they would have overwritten this->a.
 * @options: -q
 */
BEGIN
{
	x = 1;
}

BEGIN
{
	this->a = 5;
	this->b = 6;
	if (x) {
		printf("%d %d\n", this->a, this->b);
	} else {
		printf("no\n");
	}
	printf("%d %d\n", this->a, this->b);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
