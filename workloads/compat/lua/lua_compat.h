/* Force-included (-include) into every Lua source file for wasm32-wasi.
 *
 * 1. No setjmp/longjmp: Lua raises errors with LUAI_THROW and catches them
 *    with LUAI_TRY (ldo.c).  Here a raised error prints its message and ends
 *    the program with exit status 1, and "try" just runs the body.  So any
 *    Lua error (including one inside pcall) ends the run: the workload
 *    scripts must not raise errors.
 * 2. Determinism: the string-hash seed normally mixes in time(NULL), which
 *    makes table traversal order (pairs/next) vary from run to run; a fixed
 *    seed makes every run identical.  lua-src's WASI patch makes table.sort
 *    pick pivots for badly partitioned arrays with arc4random(); a constant
 *    makes the work done the same on every run.  (math.random's time-based
 *    seed is replaced by the driver, which calls math.randomseed(42).) */
#ifndef WPP_LUA_COMPAT_H
#define WPP_LUA_COMPAT_H

#include <stdio.h>
#include <stdlib.h>

struct lua_State;
void wpp_lua_throw(struct lua_State *L, int status);

#define LUAI_THROW(L, c)    wpp_lua_throw(L, (c)->status)
#define LUAI_TRY(L, c, a)   { a }
#define luai_jmpbuf         int

#define luai_makeseed(L)    ((unsigned int)0x2545F491u)

/* After <stdlib.h> (included above), so its declaration is left alone. */
#define arc4random()        ((unsigned int)0x9E3779B9u)

#endif
