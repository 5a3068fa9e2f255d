# Benchmarks: run by hand (`make bench`), never by `make check`.
