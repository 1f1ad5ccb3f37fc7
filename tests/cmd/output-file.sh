# SPDX-License-Identifier: MIT
# -o appends the traced data to a file, as DTrace does; a -c command keeps
# dtrace's standard output.
f=$(mktemp)
echo "before" >"$f"
"$DTRACE" -q -o "$f" -c "echo from the command" \
    -n 'BEGIN { printf("traced\n"); @ = count(); }'
rc=$?
echo "--- the file:"
cat "$f"
rm -f "$f"
exit $rc
