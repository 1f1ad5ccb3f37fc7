# SPDX-License-Identifier: MIT
# bufresize=auto (the default): a principal buffer larger than the BPF
# engine can make is lowered, dtrace says so as DTrace does, and tracing
# goes on.  The engine's ring buffer stops at 1g; where the kernel cannot
# allocate that much (a machine with little memory, such as a 2 GB
# guest), it is halved until the kernel can.  So the size dtrace names
# depends on the machine: what is checked is that it is a power of two
# of at most 1g, written in DTrace's units.
# @requires: os:linux root
"$DTRACE" -x engine=bpf -q -b 64g -n 'BEGIN { printf("traced\n"); exit(0); }' \
    2>err
echo "status $?"
awk '/^dtrace: buffer size lowered to [0-9]+[kmg]$/ {
	u = substr($NF, length($NF))
	b = substr($NF, 1, length($NF) - 1) * (u == "k" ? 2^10 : u == "m" ? 2^20 : 2^30)
	p = 1
	while (p < b)
		p *= 2
	if (p == b && b <= 2^30) {
		print "dtrace: buffer size lowered to a power of two <= 1g"
		next
	}
}
{ print }' err
rm -f err
