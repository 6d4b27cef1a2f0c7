/* jconfig.h for mozjpeg, as mozjpeg-sys 2.2.3's build.rs writes it (JPEG 6.2
 * ABI, arithmetic coding on), plus the image formats cjpeg/djpeg handle. */
#define JPEG_LIB_VERSION 62
#define LIBJPEG_TURBO_VERSION 0
#define BITS_IN_JSAMPLE 8
#define STDC_HEADERS 1
#define NO_GETENV 1
#define NO_PUTENV 1
#define HAVE_STDLIB_H 1
#define HAVE_UNSIGNED_CHAR 1
#define HAVE_UNSIGNED_SHORT 1
#define MEM_SRCDST_SUPPORTED 1
#define C_ARITH_CODING_SUPPORTED 1
#define D_ARITH_CODING_SUPPORTED 1
