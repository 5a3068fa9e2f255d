/*
 * tmpdir.h: scratch directories where the user's TMPDIR says, as other
 * tools make them (else /tmp), so that a test suite or a user can keep
 * what a killed run leaves out of /tmp.
 */
#ifndef E2FOLD_TMPDIR_H
#define E2FOLD_TMPDIR_H

#include <stddef.h>

/*
 * A new directory, private to the user, named STEM.XXXXXX under $TMPDIR
 * (else /tmp), its path in buf. Returns 0 or an errno (ENAMETOOLONG when
 * buf cannot hold it).
 */
int e2fold_make_temp_dir(char *buf, size_t size, const char *stem);

#endif /* E2FOLD_TMPDIR_H */
