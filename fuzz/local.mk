# Fuzz harnesses (clang/libFuzzer).
