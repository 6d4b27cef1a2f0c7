/* Lua workload driver: runs the Lua script read from stdin.
 *
 *   lua [ARGS...] < script.lua
 *
 * The script sees ARGS as the global table `arg` (arg[1], arg[2], ...; arg[0]
 * is "stdin") and as `...`.  math.random starts from math.randomseed(42), so
 * scripts that use it are repeatable.  Exit status 0 when the script
 * finishes, 1 on any Lua error (see compat/lua/lua_compat.h: there is no
 * setjmp, so the first error ends the program). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"

/* Called from LUAI_THROW (compat/lua/lua_compat.h) instead of longjmp. */
void wpp_lua_throw(lua_State *L, int status) {
    const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    fflush(stdout);
    fprintf(stderr, "lua: error (status %d): %s\n", status, msg ? msg : "(error object is not a string)");
    exit(1);
}

static char *read_all(FILE *f, size_t *len) {
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    if (!buf) { fprintf(stderr, "lua: out of memory\n"); exit(1); }
    for (;;) {
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            if (!buf) { fprintf(stderr, "lua: out of memory\n"); exit(1); }
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        if (got == 0) break;
        n += got;
    }
    *len = n;
    return buf;
}

int main(int argc, char **argv) {
    size_t len;
    char *src = read_all(stdin, &len);
    lua_State *L = luaL_newstate();
    if (!L) { fprintf(stderr, "lua: cannot create state\n"); return 1; }
    luaL_openlibs(L);
    /* math.random is seeded from the clock at startup: make it repeatable. */
    if (luaL_dostring(L, "math.randomseed(42)") != LUA_OK) {
        fprintf(stderr, "lua: %s\n", lua_tostring(L, -1));
        return 1;
    }

    lua_createtable(L, argc, 1);
    lua_pushstring(L, "stdin");
    lua_rawseti(L, -2, 0);
    for (int i = 1; i < argc; i++) {
        lua_pushstring(L, argv[i]);
        lua_rawseti(L, -2, i);
    }
    lua_setglobal(L, "arg");

    if (luaL_loadbuffer(L, src, len, "=stdin") != LUA_OK) {
        fprintf(stderr, "lua: %s\n", lua_tostring(L, -1));
        return 1;
    }
    free(src);
    for (int i = 1; i < argc; i++) lua_pushstring(L, argv[i]);
    if (lua_pcall(L, argc - 1, 0, 0) != LUA_OK) {
        fprintf(stderr, "lua: %s\n", lua_tostring(L, -1));
        return 1;
    }
    lua_close(L);
    if (fflush(stdout) != 0) return 1;
    return 0;
}
