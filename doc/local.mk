# Manual pages.
dist_man_MANS += doc/e2fold-utf8.1 doc/e2fold-fsck.8 doc/e2fold-debugfs.8 doc/e2fold-mkfs.8 doc/e2fold-tune.8 \
	doc/e2fold-fuse.8
# What the code relies on, in the project's words; tests cite its sections.
EXTRA_DIST += doc/encrypted-htree.md doc/kernel-facts.md \
	doc/crash-safety.md doc/fuse.md doc/journal.md
