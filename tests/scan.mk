# Tests of e2fold-utf8 scan.
# u_scan_rules: which names collide or are refused, output formats, exit
# statuses. u_scan_walk: the walk itself (order, links, permissions,
# depth, mount points, 200,000 names in bounded memory).
TESTS += tests/u_scan_rules.sh tests/u_scan_walk.sh
EXTRA_DIST += tests/u_scan_rules.sh tests/u_scan_walk.sh
