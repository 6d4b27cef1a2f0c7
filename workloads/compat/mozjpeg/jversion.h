/* jversion.h for mozjpeg, as mozjpeg-sys 2.2.3's build.rs writes it. */
#define JVERSION "2.2.3"
#define JCOPYRIGHT "Copyright (C)  The libjpeg-turbo Project, Mozilla, and many others"
#define JCOPYRIGHT_SHORT JCOPYRIGHT
