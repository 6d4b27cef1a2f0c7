/* Placeholder <setjmp.h> for Lua on wasm32-wasi.
 *
 * Debian's wasi-libc has no setjmp.h (clang 14 cannot lower setjmp/longjmp
 * to WebAssembly), and ldo.c includes it unconditionally.  lua_compat.h
 * replaces Lua's longjmp-based error handling, so nothing from it is used. */
#ifndef WPP_LUA_SETJMP_H
#define WPP_LUA_SETJMP_H
#endif
