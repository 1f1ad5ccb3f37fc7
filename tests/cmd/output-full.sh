# SPDX-License-Identifier: MIT
# Output that cannot be written (a full disk: /dev/full) ends dtrace with
# one line naming the file and the system's error, whatever was writing:
# the aggregations printed at the end (more than stdio buffers), printa()
# while tracing, printf() records, JSON and folded stacks; through -o and
# on standard output; a listing (-l) too.  Not "Error reading file for program compilation",
# nor "processing aborted: Success".
end='tick-1ms { @a[i++] = count(); } tick-1ms /i == 500/ { exit(0); }'
printa='tick-1ms { @a[i++] = count(); } tick-1ms /i == 500/ { printa(@a); exit(0); }'
printf='tick-1ms { printf("%d ..................................................\n", i++); } tick-1ms /i == 500/ { exit(0); }'
for prog in "$end" "$printa" "$printf"; do
	"$DTRACE" -x engine=interp -q -o /dev/full -n "$prog"
	echo "status $?"
	"$DTRACE" -x engine=interp -q -n "$prog" >/dev/full
	echo "status $?"
done
for fmt in json folded; do
	"$DTRACE" -x engine=interp -q -x oformat=$fmt -n "$end" >/dev/full
	echo "status $?"
done
"$DTRACE" -l >/dev/full
echo "status $?"
