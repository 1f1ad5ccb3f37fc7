/*
 * An enumerator defined twice.
 * @options: -e
 */
enum e { A, A };
