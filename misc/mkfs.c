/* e2fold-mkfs: placeholder until its issue lands; says so instead of pretending. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "version.h"

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "-V")) {
		printf("%s\n", e2fold_version_banner("e2fold-mkfs"));
		return 0;
	}
	fprintf(stderr, "e2fold-mkfs: not implemented yet\n");
	return 8;
}
