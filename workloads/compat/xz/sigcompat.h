/* Force-included (-include) into the xz command-line tool's sources.
 *
 * wasi-libc's emulated <signal.h> (-D_WASI_EMULATED_SIGNAL) has signal() and
 * raise() but no struct sigaction, sigaction(), signal sets or sigprocmask();
 * WASI has no asynchronous signals at all.  xz uses them only to clean up on
 * SIGINT/SIGTERM and for the SIGALRM progress timer (armed only when stderr is
 * a terminal), so no-ops are enough.  alarm() is declared by wasi-libc's
 * <unistd.h> but not defined; compat/wasi_stubs.c defines it. */
#ifndef WPP_XZ_SIGCOMPAT_H
#define WPP_XZ_SIGCOMPAT_H
#include <signal.h>
#include <time.h> /* mytime.c expects clock_gettime() and CLOCK_MONOTONIC from it */

#ifndef SIG_BLOCK
#define SIG_BLOCK 0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2

unsigned alarm(unsigned seconds);
#endif
#ifndef SA_RESTART
#define SA_RESTART 0x10000000

unsigned alarm(unsigned seconds);
#endif

struct sigaction {
    void (*sa_handler)(int);
    sigset_t sa_mask;
    int sa_flags;
};

static inline int sigaction(int sig, const struct sigaction *act, struct sigaction *old) {
    (void)sig; (void)act;
    if (old) { old->sa_handler = SIG_DFL; old->sa_mask = 0; old->sa_flags = 0; }
    return 0;
}
static inline int sigemptyset(sigset_t *s) { *s = 0; return 0; }
static inline int sigfillset(sigset_t *s) { *s = (sigset_t)~0; return 0; }
static inline int sigaddset(sigset_t *s, int sig) { (void)sig; *s = 1; return 0; }
static inline int sigprocmask(int how, const sigset_t *set, sigset_t *old) {
    (void)how; (void)set; if (old) *old = 0; return 0;
}

unsigned alarm(unsigned seconds);
#endif
