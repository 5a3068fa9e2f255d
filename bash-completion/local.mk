# Bash completion: one file for every tool, installed as "e2fold" and
# linked under each tool's name, the file bash-completion loads when that
# command is first completed. A new tool adds its name here and its
# function in bash-completion/e2fold.
bashcompletiondir = $(BASH_COMPLETION_DIR)
dist_bashcompletion_DATA = bash-completion/e2fold
COMPLETED_TOOLS = e2fold-mkfs e2fold-fsck e2fold-debugfs e2fold-tune e2fold-utf8
if FUSE
COMPLETED_TOOLS += e2fold-fuse
endif

install-data-hook: install-completion-links
install-completion-links:
	$(AM_V_at)for t in $(COMPLETED_TOOLS); do \
		rm -f "$(DESTDIR)$(bashcompletiondir)/$$t" && \
		$(LN_S) e2fold "$(DESTDIR)$(bashcompletiondir)/$$t" || exit 1; \
	done
uninstall-hook: uninstall-completion-links
uninstall-completion-links:
	$(AM_V_at)for t in $(COMPLETED_TOOLS); do \
		rm -f "$(DESTDIR)$(bashcompletiondir)/$$t"; \
	done
.PHONY: install-completion-links uninstall-completion-links

