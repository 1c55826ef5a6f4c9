cmd_kernel/popcorn/built-in.a := rm -f kernel/popcorn/built-in.a;  printf "kernel/popcorn/%s " config.o nodes.o syscalls.o config_test.o | xargs ar cDPrST kernel/popcorn/built-in.a
