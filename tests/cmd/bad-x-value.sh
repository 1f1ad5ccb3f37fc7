# A boolean option takes no value; an enum option only its words.
"$DTRACE" -x quiet=yes -n BEGIN
echo "status $?"
"$DTRACE" -x bufpolicy=circle -n BEGIN
