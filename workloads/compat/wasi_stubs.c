/* Stubs for POSIX calls missing from Debian's wasi-libc; see wasi_compat.h.
 * Metadata calls succeed without doing anything (WASI has no owners or mode
 * bits); the descriptor calls fail with ENOSYS. */
#include <errno.h>
#include <sys/types.h>

int chmod(const char *path, mode_t mode) { (void)path; (void)mode; return 0; }
int fchmod(int fd, mode_t mode) { (void)fd; (void)mode; return 0; }
int chown(const char *path, uid_t o, gid_t g) { (void)path; (void)o; (void)g; return 0; }
int fchown(int fd, uid_t o, gid_t g) { (void)fd; (void)o; (void)g; return 0; }
int lchown(const char *path, uid_t o, gid_t g) { (void)path; (void)o; (void)g; return 0; }
uid_t getuid(void) { return 0; }
uid_t geteuid(void) { return 0; }
gid_t getgid(void) { return 0; }
gid_t getegid(void) { return 0; }
mode_t umask(mode_t mask) { (void)mask; return 022; }
int dup(int fd) { (void)fd; errno = ENOSYS; return -1; }
int dup2(int fd, int fd2) { (void)fd; (void)fd2; errno = ENOSYS; return -1; }
/* The WebAssembly page size (SQLite's unix VFS asks for it). */
int getpagesize(void) { return 65536; }

/* Declared by wasi-libc's <unistd.h> but not defined. WASI has no SIGALRM. */
unsigned alarm(unsigned seconds) { (void)seconds; return 0; }
