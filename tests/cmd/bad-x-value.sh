# SPDX-License-Identifier: MIT
# A boolean option that is not a consumer switch takes no value (quiet,
# a switch, takes yes or no as DTrace does); an enum option only its words.
"$DTRACE" -x destructive=yes -n BEGIN
echo "status $?"
"$DTRACE" -x bufpolicy=circle -n BEGIN
