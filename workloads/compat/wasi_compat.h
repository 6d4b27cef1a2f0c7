/* Force-included (-include) into every workload translation unit.
 *
 * Debian's wasi-libc (git 2022-05-10) leaves out a handful of POSIX calls that
 * real command-line programs use only for file metadata or process plumbing.
 * They are declared here and defined as harmless stubs in wasi_stubs.c, so the
 * unmodified upstream sources compile.  None of them is reached on the
 * stdin -> stdout paths the workloads exercise, except where noted. */
#ifndef WPP_WASI_COMPAT_H
#define WPP_WASI_COMPAT_H
#ifdef __wasi__
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif
int chmod(const char *path, mode_t mode);
int fchmod(int fd, mode_t mode);
int chown(const char *path, uid_t owner, gid_t group);
int fchown(int fd, uid_t owner, gid_t group);
int lchown(const char *path, uid_t owner, gid_t group);
uid_t getuid(void);
uid_t geteuid(void);
gid_t getgid(void);
gid_t getegid(void);
mode_t umask(mode_t mask);
int dup(int fd);
int dup2(int fd, int fd2);
int getpagesize(void);
#ifdef __cplusplus
}
#endif

#endif /* __wasi__ */
#endif /* WPP_WASI_COMPAT_H */
