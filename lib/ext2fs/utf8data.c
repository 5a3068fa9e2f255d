/* utf8data.c: the one definition of the generated tables. */
#define UTF8DATA_DEFINE_TABLES
#include "utf8data.h"
