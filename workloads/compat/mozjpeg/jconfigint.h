/* jconfigint.h for mozjpeg, as mozjpeg-sys 2.2.3's build.rs writes it, with a
 * fixed BUILD string instead of a timestamp (reproducible output). */
#define BUILD "wpp-workloads-mozjpeg-sys"
#ifndef INLINE
#define INLINE inline __attribute__((always_inline))
#endif
#ifndef HIDDEN
#define HIDDEN __attribute__((visibility("hidden")))
#endif
#ifndef THREAD_LOCAL
#define HAVE_THREAD_LOCAL
#define THREAD_LOCAL __thread
#endif
#define SIZEOF_SIZE_T __SIZEOF_SIZE_T__
#ifndef HAVE_BUILTIN_CTZL
#define HAVE_BUILTIN_CTZL 1
#endif
#define FALLTHROUGH
#define PACKAGE_NAME "mozjpeg-sys"
#define VERSION "2.2.3"
