# SPDX-License-Identifier: MIT
# D library files from -L directories: their inlines and translators are
# visible to every program; the last -L wins for a file of the same
# name; an error in a library names the file and line.
lib=$(mktemp -d)
lib2=$(mktemp -d)
trap 'rm -rf "$lib" "$lib2"' EXIT
cat >"$lib/answer.d" <<'D'
#pragma D depends_on library base.d
inline int answer = base + 2;
D
cat >"$lib/base.d" <<'D'
inline int base = 40;
D
"$DTRACE" -x syslibdir=/nonexistent -L "$lib" -q -x engine=interp \
    -n 'BEGIN { printf("%d\n", answer); exit(0); }'
echo "exit $?"
cat >"$lib2/base.d" <<'D'
inline int base = 1;
D
"$DTRACE" -x syslibdir=/nonexistent -L "$lib" -L "$lib2" -q -x engine=interp \
    -n 'BEGIN { printf("%d\n", answer); exit(0); }' 2>&1 | sed "s|$lib2|LIB2|"
printf 'inline int oops = ;\n' >"$lib2/bad.d"
"$DTRACE" -x syslibdir=/nonexistent -L "$lib2" -n 'BEGIN { exit(0); }' 2>&1 |
    sed "s|$lib2|LIB2|"
