/*
 * A member declared twice.
 * @options: -e
 */
struct s { int a; int a; };
