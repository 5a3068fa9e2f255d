/*
 * lib/ext2fs/public/unicode.h: the engine's public API, <e2fold/unicode.h>,
 * for the programs built in this tree. This directory holds it alone and
 * is what their include path has of lib/ext2fs (Makefile.am), so that
 * they reach the engine as an installed program would, never its
 * internal headers. The declarations are in lib/ext2fs/unicode.h, the
 * header that is installed.
 */
#include "../unicode.h"
