/* SPDX-License-Identifier: MIT */
/*
 * dt_demangle.h: readable names for mangled C++ (Itanium ABI) and Rust
 * (legacy and v0) symbols, wherever a user symbol is printed or a pid
 * probe is named.
 *
 * The demangler is libiberty's (cplus_demangle() with DMGL_AUTO, the one
 * c++filt and GDB use): one C entry point that knows C++ and both Rust
 * manglings, linked statically, so libdtrace needs no C++ runtime.
 */
#ifndef DT_DEMANGLE_H
#define DT_DEMANGLE_H

#include <stdbool.h>

/*
 * The demangled form of name, or NULL when name is not a C++ or Rust
 * mangled name (or one the demangler refuses).  The answer is kept for
 * the life of the program, so asking twice costs a hash lookup, and the
 * string may be held by anyone.  Thread-safe.
 */
extern const char *dt_demangle(const char *name);

/* Whether name starts like a C++ or Rust mangled name (_Z..., _R...). */
extern bool dt_demangle_mangled(const char *name);

#endif /* DT_DEMANGLE_H */
