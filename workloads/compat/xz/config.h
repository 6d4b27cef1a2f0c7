/* config.h for liblzma + the xz command-line tool, built single-threaded for
 * wasm32-wasi.  Starts from lzma-sys's config.h (the library's coders, checks
 * and match finders) and adds what xz's configure script would find. */

#define HAVE_STDINT_H 1
#define HAVE_STDBOOL_H 1
#define HAVE_STRING_H 1
#define HAVE_INTTYPES_H 1
#define HAVE_LIMITS_H 1
#define HAVE_STRINGS_H 1
#define HAVE__BOOL 1
#define SIZEOF_SIZE_T __SIZEOF_SIZE_T__

/* Encoders and decoders for every filter. */
#define HAVE_ENCODERS 1
#define HAVE_DECODERS 1
#define HAVE_ENCODER_LZMA1 1
#define HAVE_ENCODER_LZMA2 1
#define HAVE_ENCODER_DELTA 1
#define HAVE_ENCODER_X86 1
#define HAVE_ENCODER_POWERPC 1
#define HAVE_ENCODER_IA64 1
#define HAVE_ENCODER_ARM 1
#define HAVE_ENCODER_ARMTHUMB 1
#define HAVE_ENCODER_SPARC 1
#define HAVE_DECODER_LZMA1 1
#define HAVE_DECODER_LZMA2 1
#define HAVE_DECODER_DELTA 1
#define HAVE_DECODER_X86 1
#define HAVE_DECODER_POWERPC 1
#define HAVE_DECODER_IA64 1
#define HAVE_DECODER_ARM 1
#define HAVE_DECODER_ARMTHUMB 1
#define HAVE_DECODER_SPARC 1
#define HAVE_ENCODER_LZ 1
#define HAVE_DECODER_LZ 1

#define HAVE_CHECK_CRC32 1
#define HAVE_CHECK_CRC64 1
#define HAVE_CHECK_SHA256 1

#define HAVE_MF_HC3 1
#define HAVE_MF_HC4 1
#define HAVE_MF_BT2 1
#define HAVE_MF_BT3 1
#define HAVE_MF_BT4 1

/* No MYTHREAD_POSIX: single-threaded build (stream_encoder_mt.c, outqueue.c
 * and hardware_cputhreads.c are left out). */

/* The xz tool. */
#define PACKAGE "xz"
#define PACKAGE_NAME "XZ Utils"
#define PACKAGE_BUGREPORT "lasse.collin@tukaani.org"
#define PACKAGE_URL "https://tukaani.org/xz/"
#define ASSUME_RAM 128
#define HAVE_FUTIMENS 1
#define HAVE_STRUCT_STAT_ST_ATIM_TV_NSEC 1
#define HAVE_MBRTOWC 1
#define HAVE_WCWIDTH 1
#define HAVE_CLOCK_GETTIME 1
#define HAVE_DECL_CLOCK_MONOTONIC 1
