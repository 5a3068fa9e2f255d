/* e2fold-fsck.c: e2fold-fsck's entry point; the program is fsck_main() (unix.c). */
#include "config.h"

#include "e2fsck.h"

int main(int argc, char **argv)
{
	return fsck_main(argc, argv);
}
