# Manual pages.
dist_man_MANS += doc/e2fold-utf8.1 doc/e2fold-fsck.8 doc/e2fold-debugfs.8 doc/e2fold-mkfs.8 doc/e2fold-tune.8 \
	doc/e2fold-fsck-boot.8
if FUSE
dist_man_MANS += doc/e2fold-fuse.1
else
EXTRA_DIST += doc/e2fold-fuse.1
endif
# What the code relies on, in the project's words; tests cite its sections.
EXTRA_DIST += doc/encrypted-htree.md doc/kernel-facts.md \
	doc/crash-safety.md doc/fuse.md doc/fsck.md doc/robustness.md \
	doc/journal.md
# For users and for the next engineer.
EXTRA_DIST += doc/casefold-programs.md doc/packaging.md doc/architecture.md \
	tests/README.md
