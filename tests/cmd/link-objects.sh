# SPDX-License-Identifier: MIT
# -G writes an ELF object defining the probes' semaphores; its operands are
# the program's objects, and one that does not exist is an error.
# @requires: os:linux
cat >prov.d <<'D'
provider web {
	probe done();
};
D
"$DTRACE" -G -s prov.d -o web.o prov.d
echo "exit $?"
od -A n -t x1 -N 4 web.o
"$DTRACE" -G -s prov.d -o no.o missing.o
echo "exit $?"
[ -e no.o ] || echo "no.o not written"
