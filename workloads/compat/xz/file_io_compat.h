/* Force-included (-include) into xz's src/xz/file_io.c only.
 *
 * xz uses the self-pipe trick: io_init() creates a pipe, makes both ends
 * non-blocking, and io_wait() polls the pipe's read end together with the
 * file being read or written, so that a signal handler can wake it up.
 * wasi-libc has no pipe() (and WASI has no signals to wake anything), so the
 * "pipe" here is two invalid descriptors (-1): fcntl() on them succeeds
 * without doing anything, write() to one fails with EBADF (which xz ignores),
 * and wasi-libc's poll() skips negative descriptors, so io_wait() polls just
 * the one real file. */
#ifndef WPP_XZ_FILE_IO_COMPAT_H
#define WPP_XZ_FILE_IO_COMPAT_H
#include <fcntl.h>
#include <stdarg.h>
#include <unistd.h>

static inline int wpp_xz_pipe(int fds[2]) {
    fds[0] = -1;
    fds[1] = -1;
    return 0;
}

static inline int wpp_xz_fcntl(int fd, int cmd, ...) {
    va_list ap;
    va_start(ap, cmd);
    int arg = (cmd == F_SETFL || cmd == F_SETFD) ? va_arg(ap, int) : 0;
    va_end(ap);
    if (fd < 0)
        return 0;
    if (cmd == F_SETFL || cmd == F_SETFD)
        return fcntl(fd, cmd, arg);
    return fcntl(fd, cmd);
}

#define pipe wpp_xz_pipe
#define fcntl wpp_xz_fcntl
#endif
