# SPDX-License-Identifier: MIT
# cmd/dtrace.bash: bash completion for dtrace(1), installed as
# $(datadir)/bash-completion/completions/dtrace.
#
#   -<TAB>              dtrace's options
#   -x <TAB>            the -x option names (common/dt_options.c's table;
#                       tests/shell/bash-completion.sh keeps them equal)
#   -x name=<TAB>       the values of an option that takes one of a set
#                       (oformat=text|json|folded|pprof, engine=, ...)
#   -P, -m, -f, -n      providers, provider:module, provider:module:function
#                       and whole probe descriptions, from `dtrace -l`,
#                       cached for an hour in
#                       ${XDG_CACHE_HOME:-~/.cache}/dtrace/probes; a field
#                       left empty matches any (syscall::<TAB> offers
#                       syscall::read:entry, as the description would
#                       match it), and a word without a colon is also
#                       completed as the last field alone (-f rea<TAB>)
#   -s                  D scripts (*.d) and directories
#   -o, -L, -I          file and directory names
#   -c, -p              commands, process IDs

_dtrace_xopts="
	agghist aggpack aggpercpu aggrate aggsize aggsortkey
	aggsortkeypos aggsortpos aggsortrev aggzoom amin argref bpflog
	btfpath bufpolicy bufresize bufsize cleanrate core cpp cpphdrs
	cpppath cpu ctfpath ctypes debug defaultargs define destructive
	droptags dtypes dwarfpath dynvarsize empty encoding engine errtags
	evaltime flowindent followfork grabanon incdir iregs
	jstackframes jstackstrsize kdefs knodefs late lazyload ldpath
	libdir linkmode linktype lockmem maxframes metrics
	metricslabels nodemangle nolibs noresolve nspec oformat pgmax pspec quiet
	rawbytes scratchsize specsize stackframes stackindent
	statusrate stdc strsize switchrate syslibdir temporal tree
	tregs udefs undef unodefs ustackframes verbose version zdefs"

# The values of the -x options that take one of a set: dt_options.c's
# word lists (and the OS's engines), which the completion test compares.
_dtrace_xvalues()
{
	case $1 in
	bufpolicy) echo switch fill ring ;;
	bufresize) echo auto manual ;;
	encoding) echo ascii utf8 ;;
	engine) echo auto bpf interp ptrace ;;
	evaltime) echo exec preinit postinit main ;;
	linkmode) echo kernel static dynamic ;;
	linktype) echo elf dof ;;
	oformat) echo text json folded pprof ;;
	stdc) echo a c s t ;;
	esac
}

_dtrace_opts="-32 -64 -a -A -b -c -C -D -e -f -F -G -h -H -i -I -l -L -m
	-n -o -p -P -q -s -S -U -v -V -w -x -X -Z"

# The descriptions of $2 fields (1: provider ... 4: whole) that complete
# the word $1, from the probe list on stdin.  A field the word leaves
# empty before the one being typed matches any, as it does in a
# description: for "syscall::" the module of every syscall probe is
# left out (syscall::read:entry).  A word without a colon is also
# completed as the last field alone (-f read, -n BEGIN).
_dtrace_probematch()
{
	awk -F: -v cur="$1" -v nf="$2" '
	    BEGIN { n = split(cur, c, ":") }
	    {
		out = ""
		for (i = 1; i <= nf; i++)
			out = out (i > 1 ? ":" : "") (i < n && c[i] == "" ? "" : $i)
		print out
		if (n <= 1 && nf > 1 && $nf != "")
			print $nf
	    }' | sort -u
}

# Every probe as provider:module:function:name, one a line, from the cache
# when it is less than an hour old.  dtrace -l prints fixed columns in
# which the module or function may be empty: a lone third field is the
# module when it ends within the module's column.
_dtrace_probelist()
{
	local dir=${XDG_CACHE_HOME:-$HOME/.cache}/dtrace
	local f=$dir/probes

	if [[ ! -s $f || -n $(find "$f" -mmin +60 2>/dev/null) ]]; then
		mkdir -p "$dir" 2>/dev/null || return
		"${1:-dtrace}" -l 2>/dev/null | awk '
		    NR > 1 {
			mod = ""; fn = ""
			if (NF >= 5) {
				mod = $3; fn = $4
			} else if (NF == 4) {
				end = index(substr($0, 18), $3) + 16 + length($3)
				if (end <= 34)
					mod = $3
				else
					fn = $3
			}
			print $2 ":" mod ":" fn ":" $NF
		    }' >"$f.$$" && [[ -s $f.$$ ]] && mv -f "$f.$$" "$f"
		rm -f "$f.$$"
	fi
	cat "$f" 2>/dev/null
}

_dtrace()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local words fields

	# Probe descriptions hold colons, which bash splits words at: take
	# the words as typed.
	if declare -F _get_comp_words_by_ref >/dev/null; then
		_get_comp_words_by_ref -n =: cur prev
	elif [[ -n ${COMP_LINE-} ]]; then
		local line=${COMP_LINE:0:COMP_POINT}
		cur=${line##*[[:space:]]}
		line=${line%"$cur"}
		line=${line%"${line##*[![:space:]]}"}
		prev=${line##*[[:space:]]}
	fi
	COMPREPLY=()
	case $prev in
	-s)
		if declare -F _filedir >/dev/null; then
			_filedir d
		else
			COMPREPLY=($(compgen -f -X '!*.d' -- "$cur") $(compgen -d -- "$cur"))
		fi
		return
		;;
	-o)
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	-L | -I)
		COMPREPLY=($(compgen -d -- "$cur"))
		return
		;;
	-c)
		COMPREPLY=($(compgen -c -- "$cur"))
		return
		;;
	-p)
		COMPREPLY=($(compgen -W "$(cd /proc 2>/dev/null && echo [0-9]*)" -- "$cur"))
		return
		;;
	-x)
		if [[ $cur == *=* ]]; then
			# Bash replaces only what follows the '=' when '='
			# breaks words (it does by default).
			local opt=${cur%%=*}
			COMPREPLY=($(compgen -W "$(_dtrace_xvalues "$opt")" -- "${cur#*=}"))
			[[ ${COMP_WORDBREAKS-=} == *=* ]] ||
				COMPREPLY=("${COMPREPLY[@]/#/$opt=}")
		else
			COMPREPLY=($(compgen -W "$_dtrace_xopts" -- "$cur"))
		fi
		return
		;;
	-X)
		COMPREPLY=($(compgen -W "a c s t" -- "$cur"))
		return
		;;
	-P) fields=1 ;;
	-m) fields=2 ;;
	-f) fields=3 ;;
	-n) fields=4 ;;
	-b | -D | -U | -i)
		return
		;;
	*)
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "$_dtrace_opts" -- "$cur"))
		else
			COMPREPLY=($(compgen -f -- "$cur"))
		fi
		return
		;;
	esac
	words=$(_dtrace_probelist "${COMP_WORDS[0]}" |
	    _dtrace_probematch "$cur" "$fields")
	COMPREPLY=($(compgen -W "$words" -- "$cur"))
	# Bash replaces only what follows the word's last colon.
	if declare -F __ltrim_colon_completions >/dev/null; then
		__ltrim_colon_completions "$cur"
	elif [[ $cur == *:* && ${COMP_WORDBREAKS-:} == *:* ]]; then
		local pre=${cur%"${cur##*:}"}
		COMPREPLY=("${COMPREPLY[@]#"$pre"}")
	fi
}

complete -F _dtrace dtrace
