#!/bin/bash
# SPDX-License-Identifier: MIT
# list-syscall-args.sh: dtrace -lv of syscall probes -- DTrace's stability
# for the syscall provider and the argument types of each tracepoint's
# format file (entry: the call's arguments; return: the long it returns),
# selected with -n and with -f.  Probe IDs depend on the kernel's list of
# system calls, so the ID column is not compared.
set -u

[ "$(id -u)" -eq 0 ] || { echo "needs root to read the tracepoint formats"; exit 77; }
"$DTRACE" -l -n syscall::read:entry >/dev/null 2>&1 ||
	{ echo "no syscall provider here (no tracefs syscalls events)"; exit 77; }

attrs='
	Probe Description Attributes
		Identifier Names: Private
		Data Semantics:   Private
		Dependency Class: Unknown

	Argument Attributes
		Identifier Names: Private
		Data Semantics:   Private
		Dependency Class: ISA

	Argument Types'
want=$(cat <<EOF2
   ID   PROVIDER            MODULE                          FUNCTION NAME
   ID    syscall           vmlinux                              read entry
$attrs
		args[0]: unsigned int
		args[1]: char *
		args[2]: size_t

   ID    syscall           vmlinux                              read return
$attrs
		args[0]: long

   ID    syscall           vmlinux                            openat entry
$attrs
		args[0]: int
		args[1]: const char *
		args[2]: int
		args[3]: umode_t

   ID    syscall           vmlinux                            openat return
$attrs
		args[0]: long

EOF2
)
got=$("$DTRACE" -lv -f syscall::read -n syscall::openat:entry \
    -n syscall::openat:return 2>&1 | sed -e 's/^ *[0-9][0-9]* /   ID /')
if [ "$got" != "$want" ]; then
	diff <(echo "$want") <(echo "$got")
	exit 1
fi
echo "listed the syscall probes' attributes and argument types"
