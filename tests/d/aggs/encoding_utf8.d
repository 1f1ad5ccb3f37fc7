/*
 * With the utf8 encoding a distribution's bars are Unicode blocks, in
 * eighths; aggpack lines use the rising blocks U+2581 to U+2588.
 * @options: -q -x encoding=utf8
 */
BEGIN
{
	@ = quantize(1);
	@ = quantize(2);
	@ = quantize(2);
	printa(@);
	setopt("aggpack");
	printa(@);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
