# Lines that name versions, dates or machine details.
/^e2fold-[a-z0-9]* [0-9][0-9.]* (/d
/^e2fsck [0-9][0-9.]* (/d
/^mke2fs [0-9][0-9.]* (/d
/^debugfs [0-9][0-9.]* (/d
s/[0-9a-f]\{8\}-[0-9a-f]\{4\}-[0-9a-f]\{4\}-[0-9a-f]\{4\}-[0-9a-f]\{12\}/<UUID>/g
# e2fold-fsck names the system e2fsck it runs; its version is not ours.
s/^Running e2fsck [0-9][0-9.]* ([^)]*)/Running e2fsck VERSION/
