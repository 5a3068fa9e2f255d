/* e2fold-mkfs.c: e2fold-mkfs's entry point; the program is mkfs_main() (run.c). */
#include "config.h"

#include "mkfs.h"

int main(int argc, char **argv)
{
	return mkfs_main(argc, argv);
}
