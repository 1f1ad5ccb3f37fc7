# SPDX-License-Identifier: MIT
# Once tracing has started, setopt() may change only what the consumer
# reads (quiet, switchrate, aggregation sorting, ...): options that sized
# or shaped the engine's start are refused, as in DTrace.
# @requires: os:linux
for engine in interp bpf; do
	"$DTRACE" -x engine=$engine -q -n 'BEGIN { setopt("bufsize", "1m");
	    setopt("nspec", "4"); setopt("switchrate", "10hz");
	    setopt("aggsortrev"); exit(0); }'
	echo "status $?"
done
