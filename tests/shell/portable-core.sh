#!/bin/bash
# SPDX-License-Identifier: MIT
# portable-core.sh: common/, the portable core, keeps to its seam -- it
# names no OS, processor or OS engine, and includes no header of one OS
# nor of a backend.  What it needs of the system it asks of an OS backend
# through common/dt_os.h and common/engine/dt_engine.h; the --with-os=none
# build proves it builds that way, this keeps it so in every build.
set -u

core=${top_srcdir:?}/common
[ -d "$core" ] || { echo "no $core"; exit 1; }
status=0

report() {
	echo "$1:"
	sed 's/^/  /' <<<"$2"
	status=1
}

# An OS's or a processor's predefined macros: the backend names them.
found=$(grep -rnE '__linux|__x86_64__|__aarch64__|__i386__|__FreeBSD__|__sun\b|__illumos__' "$core")
[ -z "$found" ] || report "OS or processor macros in common/" "$found"

# Headers only one OS has, and the libraries of the Linux backend.
hdrs='linux/|asm/|asm-generic/|bpf/|sys/ptrace\.h|sys/prctl\.h|sys/syscall\.h'
hdrs="$hdrs|sys/epoll\\.h|sys/inotify\\.h|sys/eventfd\\.h|sys/timerfd\\.h"
hdrs="$hdrs|sys/signalfd\\.h|sys/sysinfo\\.h|sys/auxv\\.h|sys/user\\.h"
hdrs="$hdrs|gelf\\.h|libelf\\.h|elf\\.h|dwarf\\.h|libbpf|sys/sdt\\.h"
found=$(grep -rnE "^[[:space:]]*#[[:space:]]*include[[:space:]]*<($hdrs)" "$core")
[ -z "$found" ] || report "OS-only headers included in common/" "$found"

# Nothing of a backend or of an ISA: they sit behind the interfaces.
found=$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"(os|isa)/' "$core")
[ -z "$found" ] || report "backend headers included in common/" "$found"

# Engines are chosen by kind (kernel, user process), never by name.
found=$(grep -rnE 'DT_ENGINE_F_(BPF|PTRACE)|DT_ENGINE_(BPF|PTRACE)\b' "$core")
[ -z "$found" ] || report "OS engines named in common/" "$found"

# The checks must be able to fail: a planted line is found.
probe=$(mktemp)
trap 'rm -f "$probe"' EXIT
printf '#if defined(__x86_64__)\n#include <linux/bpf.h>\n#endif\n' >"$probe"
if ! grep -qE '__x86_64__' "$probe" ||
    ! grep -qE "^[[:space:]]*#[[:space:]]*include[[:space:]]*<($hdrs)" "$probe"; then
	echo "the patterns miss a planted x86 block and <linux/bpf.h>"
	status=1
fi
exit $status
