#!/bin/bash
# SPDX-License-Identifier: MIT
# bash-completion.sh: cmd/dtrace.bash completes what dtrace(1) takes: its
# options (equal to dtrace.c's getopt string), the -x option names (equal
# to common/dt_options.c's table, so that a new option cannot be
# forgotten), the values of -x options that take one of a set (equal
# to dt_options.c's word lists, with pprof for oformat), probe
# descriptions for -P/-m/-f/-n from `dtrace -l` through a cache that is
# reused -- a field left empty matching any, as in syscall::read:entry,
# and a bare word completing the last field (-f rea) --, D scripts for
# -s.
set -u

: "${top_srcdir:?}"
comp=$top_srcdir/cmd/dtrace.bash
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache
fail=0

# shellcheck source=/dev/null
. "$comp" || { echo "FAIL: $comp does not load"; exit 1; }
complete -p dtrace >/dev/null || { echo "FAIL: no completion for dtrace"; exit 1; }

# complete WORD...: COMPREPLY for the last word, sorted, one a line, as
# bash asks for it: the line so far, words split at colons too.
complete_words() {
	COMP_LINE="$DTRACE $*"
	COMP_POINT=${#COMP_LINE}
	COMP_WORDBREAKS=$' \t\n"\'><=;|&(:'
	COMP_WORDS=("$DTRACE" "$@")
	COMP_CWORD=$#
	COMPREPLY=()
	_dtrace
	printf '%s\n' "${COMPREPLY[@]}" | sort
}

# -x names: the option table's.
grep -oE '^\s*\{ "[a-z]+", DT_OPT_' "$top_srcdir/common/dt_options.c" |
	sed -E 's/.*"([a-z]+)".*/\1/' | sort -u >"$tmp/xwant"
complete_words -x '' >"$tmp/xgot"
diff "$tmp/xwant" "$tmp/xgot" >"$tmp/xdiff" ||
	{ echo "FAIL: -x names differ from dt_options.c (< table, > completion):"; cat "$tmp/xdiff"; fail=1; }
[ "$(complete_words -x oform)" = oformat ] || { echo "FAIL: -x oform"; fail=1; }

# Options: the getopt string's letters, and -32/-64.
optstr=$(sed -n 's/^#define DTRACE_OPTSTR "\(.*\)"$/\1/p' "$top_srcdir/cmd/dtrace.c")
{
	echo -32
	echo -64
	tr -d ':' <<<"$optstr" | sed 's/[36]//g' | fold -w 1 | sed 's/^/-/'
} | sort >"$tmp/owant"
complete_words - >"$tmp/ogot"
diff "$tmp/owant" "$tmp/ogot" >"$tmp/odiff" ||
	{ echo "FAIL: options differ from DTRACE_OPTSTR:"; cat "$tmp/odiff"; fail=1; }

# Probes, from dtrace -l: BEGIN by its whole description (bash puts back
# what follows the last colon), profile's tick-100, providers for -P.
complete_words -n dtrace:::BEG | grep -qx 'BEGIN' ||
	{ echo "FAIL: -n dtrace:::BEG does not give dtrace:::BEGIN"; fail=1; }
complete_words -n profile:::tick-1 | grep -qx 'tick-100' ||
	{ echo "FAIL: -n profile:::tick-1 does not give profile:::tick-100"; fail=1; }
complete_words -P '' | grep -qx profile ||
	{ echo "FAIL: -P does not offer the profile provider"; fail=1; }
[ -s "$XDG_CACHE_HOME/dtrace/probes" ] ||
	{ echo "FAIL: no probe cache in \$XDG_CACHE_HOME/dtrace"; fail=1; }
# A fresh cache is used as it is, without running dtrace again.
echo 'cached:mod:fn:probe' >"$XDG_CACHE_HOME/dtrace/probes"
[ "$(complete_words -n cach)" = cached:mod:fn:probe ] ||
	{ echo "FAIL: the probe cache is not used"; fail=1; }
[ "$(complete_words -m cached:m)" = mod ] ||
	{ echo "FAIL: -m does not give provider:module"; fail=1; }
# An hour old, it is made again.
touch -d '2 hours ago' "$XDG_CACHE_HOME/dtrace/probes"
complete_words -n dtrace:::E | grep -qx 'END' ||
	{ echo "FAIL: a stale probe cache is not remade"; fail=1; }

# Empty fields match any: syscall::<TAB> offers each call's probes though
# their module is vmlinux, as dtrace -n syscall::read:entry matches them.
# (Bash puts back what the word has up to its last colon.)
cat >"$XDG_CACHE_HOME/dtrace/probes" <<'L'
dtrace:::BEGIN
syscall:vmlinux:read:entry
syscall:vmlinux:read:return
syscall:vmlinux:write:entry
pid42:a.out:main:entry
L
expect() {
	local want=$1 got
	shift
	got=$(complete_words "$@" | tr '\n' ' ')
	[ "$got" = "$want" ] ||
		{ echo "FAIL: dtrace $* completes '$got', not '$want'"; fail=1; }
}
expect 'read:entry read:return write:entry ' -n syscall::
expect 'entry return ' -n syscall::read:
expect 'read:entry read:return write:entry ' -n syscall:vmlinux:
expect 'read:entry read:return ' -n syscall::rea
expect 'read write ' -f syscall::
expect 'read ' -f syscall::r
expect 'write ' -f wri
expect 'main ' -f pid42::m
expect 'vmlinux ' -m syscall:
expect 'BEGIN ' -n BEG

# -x name=: the option's values, dt_options.c's words (pprof too for
# oformat), each accepted by dtrace; bash puts back "name=".
for opt in $(sed -nE 's/^\s*\{ "([a-z]+)", DT_OPT_[A-Z]+, DT_OPTK_ENUM, .*/\1/p' \
    "$top_srcdir/common/dt_options.c"); do
	arr=$(sed -nE "s/^\s*\{ \"$opt\", DT_OPT_[A-Z]+, DT_OPTK_ENUM, ([a-z_]+),.*/\1/p" \
	    "$top_srcdir/common/dt_options.c")
	want=$(awk -v a="$arr" '$0 ~ "^static const char \\*const " a "\\[\\]" { on = 1 }
	    on { print } on && /NULL/ { exit }' "$top_srcdir/common/dt_options.c" |
	    grep -oE '"[a-z0-9]+"' | tr -d '"')
	[ -n "$want" ] || { echo "FAIL: no words for -x $opt in dt_options.c"; fail=1; }
	[ "$opt" = oformat ] && want="$want pprof"
	got=$(complete_words -x "$opt=" | tr '\n' ' ')
	sorted=$(printf '%s\n' $want | sort -u | tr '\n' ' ')
	[ "$got" = "$sorted" ] ||
		{ echo "FAIL: -x $opt= completes '$got', not '$sorted'"; fail=1; }
done
expect 'folded ' -x oformat=fo
expect 'json ' -x oformat=j
expect 'folded json pprof text ' -x oformat=
for e in $(complete_words -x engine=); do
	"$DTRACE" -x engine="$e" -e -n 'BEGIN {}' >/dev/null 2>&1 ||
		{ echo "FAIL: -x engine= completes $e, which dtrace refuses"; fail=1; }
done
[ "$(complete_words -x engine= | wc -l)" -ge 3 ] ||
	{ echo "FAIL: -x engine= offers fewer than 3 engines"; fail=1; }

# The same through bash-completion's helpers (_get_comp_words_by_ref,
# __ltrim_colon_completions), which an interactive bash has loaded.
bc=/usr/share/bash-completion/bash_completion
if [ -r "$bc" ]; then
	got=$(DTRACE=$DTRACE bash -c '
	    . "$1" >/dev/null 2>&1; . "$2"
	    declare -F _get_comp_words_by_ref >/dev/null || exit 3
	    c() {
		COMP_LINE="dtrace $*"; COMP_POINT=${#COMP_LINE}
		COMP_WORDBREAKS=$'"'"' \t\n"\x27><=;|&(:'"'"'
		# Words as bash splits them: a run of = or : is a word.
		read -ra COMP_WORDS <<<"$(sed -E "s/([=:]+)/ \\1 /g" <<<"$COMP_LINE")"
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
		_dtrace
		printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "; echo
	    }
	    c -n syscall::; c -f syscall::; c -x oformat=; c -f wri' _ "$bc" "$comp")
	want='read:entry read:return write:entry 
read write 
folded json pprof text 
write '
	[ "$got" = "$want" ] ||
		{ echo "FAIL: with bash-completion loaded:"; echo "$got"; fail=1; }
else
	echo "(bash-completion not installed: its helpers' path not checked)"
fi

# -s: D scripts and directories, nothing else.
mkdir "$tmp/s" "$tmp/s/sub"
touch "$tmp/s/a.d" "$tmp/s/b.txt"
got=$(complete_words -s "$tmp/s/" | tr '\n' ' ')
[ "$got" = "$tmp/s/a.d $tmp/s/sub " ] ||
	{ echo "FAIL: -s completes '$got'"; fail=1; }
exit $fail
