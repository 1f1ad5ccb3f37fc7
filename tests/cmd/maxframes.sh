# maxframes caps the frames of every stack, stack()'s default and an
# explicit stack(n) alike: a system call's kernel stack has at least three
# frames (the syscall entry and the dispatcher), so capped at 2 it has 2.
for prog in 'syscall:::entry{stack(); exit(0)}' \
    'syscall:::entry{stack(10); exit(0)}'; do
	"$DTRACE" -x maxframes=2 -qn "$prog" | grep -c .
done
