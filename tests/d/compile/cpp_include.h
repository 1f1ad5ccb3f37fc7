/* Included by cpp_include.d. */
#define INCLUDED 7
