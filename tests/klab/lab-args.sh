# SPDX-License-Identifier: MIT
# lab-args.sh: sourced by the kernel-lab scripts that run a guest part on
# each KERNEL_DIR with the dtrace built here (run-fbt.sh, run-kvars.sh,
# run-cost.sh); not a script itself.  lab_args "$@" takes "-d DTRACE"
# and the kernel directories, and sets root (the source tree), dtrace
# (absolute: build/cmd/dtrace, else build-check/cmd/dtrace, or -d's),
# klab (klab-run: $KLAB_RUN, on PATH, or ../shared/kernel-lab beside the
# tree) and kernels (the directories, absolute); on a bad call it says
# why and exits 2.  LAB_USAGE is the usage line's options; LAB_OPTS
# "r:" also takes -r ROUNDS (run-cost.sh), into rounds.
lab_args() {
	root=$(cd "$(dirname "$0")/../.." && pwd)
	dtrace=
	while getopts "d:${LAB_OPTS:-}" opt; do
		case $opt in
		d) dtrace=$OPTARG ;;
		r) rounds=$OPTARG ;;
		*) echo "usage: $0 ${LAB_USAGE:-[-d DTRACE]} KERNEL_DIR..." >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	if [ $# -lt 1 ]; then
		echo "usage: $0 ${LAB_USAGE:-[-d DTRACE]} KERNEL_DIR..." >&2
		exit 2
	fi
	kernels=()
	for k in "$@"; do
		[ -d "$k" ] || { echo "$0: $k: no such directory" >&2; exit 2; }
		kernels+=("$(cd "$k" && pwd)")
	done
	if [ -z "$dtrace" ]; then
		for d in "$root/build/cmd/dtrace" "$root/build-check/cmd/dtrace"; do
			[ -x "$d" ] && { dtrace=$d; break; }
		done
	fi
	[ -n "$dtrace" ] && [ -x "$dtrace" ] || {
		echo "$0: no dtrace built (./quickstart, or -d DTRACE)" >&2
		exit 2
	}
	dtrace=$(cd "$(dirname "$dtrace")" && pwd)/$(basename "$dtrace")
	klab=${KLAB_RUN:-$(command -v klab-run || echo "$root/../shared/kernel-lab/klab-run")}
	[ -x "$klab" ] || { echo "$0: klab-run not found (set KLAB_RUN)" >&2; exit 2; }
}
