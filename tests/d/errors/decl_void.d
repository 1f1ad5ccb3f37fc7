/*
 * A void variable.
 * @options: -e
 */
void x;
