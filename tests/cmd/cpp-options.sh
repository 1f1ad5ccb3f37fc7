# SPDX-License-Identifier: MIT
# -x define, undef and incdir are the preprocessor's -D, -U and -I; -X t
# keeps __STDC__ defined (ISO C with K&R extensions), -X s does not; the
# preprocessor named by -x cpppath sees its own name as argv[0], and its
# failure is DTrace's error without a line; the D library files are not
# preprocessed.
dir=$(mktemp -d)
cd "$dir" || exit 1
mkdir inc
echo '#define GREETING "hello"' > inc/g.h
cat > p.d <<'D'
#include "g.h"
#ifdef GONE
#error GONE should be undefined
#endif
#ifdef __STDC__
#define STDC "stdc"
#else
#define STDC "no stdc"
#endif
PROBE { printf("%s %s\n", GREETING, STDC); exit(0); }
D
"$DTRACE" -q -C -x define=PROBE=BEGIN -x incdir=inc -D GONE -x undef=GONE -s p.d
"$DTRACE" -q -C -X t -x define=PROBE=BEGIN -x incdir=inc -s p.d
"$DTRACE" -q -C -X s -x define=PROBE=BEGIN -x incdir=inc -s p.d
"$DTRACE" -x cpppath=/bin/cat -C -s p.d 2>&1 | sed -n '/^cat: /s/ .*//p;/^dtrace/p'
echo "status ${PIPESTATUS[0]}"
cd / && rm -rf "$dir"
