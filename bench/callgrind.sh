#!/bin/sh
# Instructions per input byte, counted by callgrind: unlike times on a
# shared VM, the same on every run. One pass over each corpus per
# operation, after a warm-up pass, counted inside bench_run() only (the
# benchmark binary's --callgrind mode dumps one profile per cell).
#
# usage: callgrind.sh BENCH-BINARY [IMPLS]
#   IMPLS  comma list as for --impl (default e2fold,kernel)
# environment:
#   BENCH_CALLGRIND_NAMES  names per corpus (default 1024)
#   BENCH_CALLGRIND_KEEP   a directory to keep the profiles in, for
#                          callgrind_annotate
# A compare reads two names; its bytes are those of both.
set -eu
bench=$1
impls=${2:-e2fold,kernel}
names=${BENCH_CALLGRIND_NAMES:-1024}

if ! command -v valgrind >/dev/null 2>&1; then
	echo "callgrind.sh: valgrind not found (Debian package valgrind)" >&2
	exit 1
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM

if ! valgrind --tool=callgrind --instr-atstart=no --compress-strings=no \
	--callgrind-out-file="$dir/cg.out" \
	"$bench" --callgrind="$impls" --names="$names" \
	>"$dir/cells" 2>"$dir/log"; then
	cat "$dir/log" >&2
	echo "callgrind.sh: the benchmark failed under valgrind" >&2
	exit 1
fi
if [ ! -s "$dir/cells" ]; then
	cat "$dir/log" >&2
	echo "callgrind.sh: no cell was counted" >&2
	exit 1
fi

# Each dump: "desc: Trigger: Client Request: LABEL" and "totals: IR".
for f in "$dir"/cg.out.*; do
	awk '/^desc: Trigger: Client Request: / { label = $5 }
	     /^(totals|summary): / { ir = $2 }
	     END { if (label != "") print "ir", label, ir }' "$f"
done >"$dir/ir"
if [ -n "${BENCH_CALLGRIND_KEEP:-}" ]; then
	mkdir -p "$BENCH_CALLGRIND_KEEP"
	cp "$dir"/cg.out.* "$dir/cells" "$BENCH_CALLGRIND_KEEP"/
fi

echo
echo "instructions per input byte (callgrind Ir, one pass over $names names per corpus)"
awk -v impls="$impls" '
	$1 == "cell" { names[$2] = $4; bytes[$2] = $6; order[n++] = $2 }
	$1 == "ir" { ir[$2] = $3 }
	END {
		ni = split(impls, im, ",")
		printf "%-15s %-22s", "corpus", "operation"
		for (i = 1; i <= ni; i++)
			printf " %10s %9s", im[i] " Ir/B", "Ir/name"
		if (ni > 1)
			printf " %8s", im[2] "/" im[1]
		printf "\n"
		for (k = 0; k < n; k++) {
			split(order[k], p, "/")
			key = p[2] "/" p[3]
			if (key in seen)
				continue
			seen[key] = 1
			printf "%-15s %-22s", p[2], p[3]
			for (i = 1; i <= ni; i++) {
				l = im[i] "/" key
				if (l in ir && bytes[l] > 0) {
					v[i] = ir[l] / bytes[l]
					printf " %10.1f %9.0f", v[i], ir[l] / names[l]
				} else {
					v[i] = 0
					printf " %10s %9s", "-", "-"
				}
			}
			if (ni > 1 && v[1] > 0)
				printf " %7.1fx", v[2] / v[1]
			printf "\n"
		}
	}' "$dir/cells" "$dir/ir"
