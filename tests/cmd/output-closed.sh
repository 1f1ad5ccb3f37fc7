# SPDX-License-Identifier: MIT
# A reader that has gone away (dtrace | head) ends dtrace as it ends a
# filter: quietly, killed by SIGPIPE (status 141), as DTrace is, once
# tracing is undone; whatever was writing: printf() records, printa()
# while tracing, the aggregations at the end, JSON; with a -c command
# too.  Never "processing aborted: Success".
# At the end, more than a pipe holds (64 KB), so that head has gone.
end='tick-1ms { i++; @a[i, "a key as long as a long file name is"] = count();
    @b[i, "and another of about the same length"] = count(); }
    tick-1ms /i == 600/ { exit(0); }'
printa='tick-1ms { @a[i++] = count(); } tick-10ms { printa(@a); }'
printf='tick-1ms { printf("%d ..................................................\n", i++); }'
# stderr stays ours (fd 3); stdout goes to a head that reads one line.
run() {
	"$DTRACE" -x engine=interp -q "$@" 2>&3 | head -n 1 >/dev/null
	echo "status ${PIPESTATUS[0]}"
}
{
	run -n "$end"
	run -n "$printa"
	run -n "$printf"
	run -x oformat=json -n "$printf"
	run -n "$printf" -c "sleep 30"
} 3>&1
