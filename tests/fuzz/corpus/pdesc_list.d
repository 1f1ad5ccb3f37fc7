/*
 * A clause with several descriptions.
 * @options: -e
 */
syscall::read:entry,
syscall::write:entry, syscall::open*:entry
{
	trace(probefunc);
}
