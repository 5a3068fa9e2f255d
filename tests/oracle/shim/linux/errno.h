/* glibc includes <linux/errno.h> itself: hand it the real one. */
#include <asm/errno.h>
