# SPDX-License-Identifier: MIT
# A tick fires on one CPU in interrupt context, so pid and execname are
# those of whatever ran there (the idle task, a kernel thread, another
# process), not dtrace's: a clause on a tick that reads them runs on the
# in-kernel engine.  Without root there is no such engine; say the same.
# @requires: os:linux
if [ "$(id -u)" != 0 ]; then
	printf "another task seen\n\n"
	exit 0
fi
"$DTRACE" -q -n 'tick-10ms /execname != "dtrace" || pid == 0/ {
	printf("another task seen\n"); exit(0); }
    tick-20s { printf("only dtrace seen\n"); exit(1); }'
