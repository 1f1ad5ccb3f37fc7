# SPDX-License-Identifier: MIT
# -h writes the probe and is-enabled macros of every provider the scripts
# define, in the order defined, as <sys/sdt.h> sites with semaphores; the
# header is named by -o, or after the script.
# @requires: os:linux
cat >prov.d <<'D'
provider web {
	probe request__start(int, char *);
	probe done();
};
provider db {
	probe query(string, uint64_t);
};
D
"$DTRACE" -h -s prov.d -o out.h
echo "exit $?"
cat out.h
"$DTRACE" -h -s prov.d
echo "exit $?"
head -n 6 prov.h
