/*
 * All integer type spellings.
 * @options: -e
 */
unsigned a;
signed b;
short c;
unsigned short d;
long e;
unsigned long f;
long long g;
unsigned long long h;
signed char i;
unsigned char j;
short int k;
long int l;
long long int m;
long unsigned n;
int long o;
BEGIN { }
/* SPDX-License-Identifier: MIT */
