#!/bin/bash
# licence.sh: every source file of the project says its licence on an
# SPDX line (SPDX-License-Identifier: MIT; LICENSE has the text): C and
# headers, the grammar, D (library, tests, examples), shell and Python
# scripts, the build files, the documentation.  Expected outputs and
# other data need none.  Run from a git checkout (the files git tracks);
# from a tarball it skips.
set -u
cd "$top_srcdir" || exit 1
[ -d .git ] || [ -f .git ] || { echo "not a git checkout: no list of tracked files"; exit 77; }
command -v git >/dev/null || { echo "needs git"; exit 77; }
[ -f LICENSE ] || { echo "FAIL: no LICENSE file"; exit 1; }

missing=0
while IFS= read -r f; do
	[ -f "$f" ] && [ ! -L "$f" ] || continue
	case $f in
	*.c | *.h | *.y | *.l | *.s | *.S | *.d | *.sh | *.mk | *.am | *.ac | \
	    *.py | *.md | quickstart | .ci/run | debian/rules) ;;
	*)
		head -c 2 "$f" | grep -q '^#!' || continue
		;;
	esac
	if ! grep -q 'SPDX-License-Identifier: MIT' "$f"; then
		echo "no SPDX line: $f"
		missing=$((missing + 1))
	fi
done < <(git ls-files)
if [ "$missing" -gt 0 ]; then
	echo "FAIL: $missing files without an SPDX line"
	exit 1
fi
echo "every source file has its SPDX line"
