/*
 * A translated pointer is no aggregation key.
 * @options: -e -x errtags
 */
BEGIN { @a[curpsinfo] = count(); }
