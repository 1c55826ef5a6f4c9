# Popcorn for Linux 6.1: top-level build.
#
#   make          build the guest kernel (bzImage) with our patches and code
#   make test     build what is stale, boot the QEMU test suite on each
#                 transport of TRANSPORTS (default: tcp rdma shm)
#   make run      the demo: boot 2 nodes and show each node's view
#   make test-debug  the security, migration, DSM and stress scenarios (and
#                 the RDMA transport's membership, loss and migration) on a second kernel
#                 with lockdep, KASAN, atomic-sleep and list checks (build/obj-debug)
#   make check    make test, then make test-debug, one closing line (.ci/run)
#   make bench    benchmarks: raw transport vs popcorn ping, page faults,
#                 migrations; a table per transport, build/bench/results.csv
#                 and build/bench/chart.png; then the cost when unused, against
#                 the same kernel built without CONFIG_POPCORN (build/obj-nopcn)
#   make soak     boot the 3-node cluster N times (default 100), count failures
#   make check-series  build after every patch of patches/ (slow)
#   make clean    remove build output (the kernel tree stays unpacked)
#   make distclean remove the whole build directory
#
# Everything is built under build/, which git ignores.

REPO    := $(CURDIR)
BUILD   := $(REPO)/build
KDIR    := $(BUILD)/linux
KOBJ    := $(BUILD)/obj
BZIMAGE := $(KOBJ)/arch/x86/boot/bzImage
# make test-debug: the same tree, its own objects and config.
DOBJ    := $(BUILD)/obj-debug
DBZIMAGE := $(DOBJ)/arch/x86/boot/bzImage
# make bench: the same tree without Popcorn, for the cost when unused.
NOBJ    := $(BUILD)/obj-nopcn
NBZIMAGE := $(NOBJ)/arch/x86/boot/bzImage
TOOLS   := $(BUILD)/tools
INITRD  := $(BUILD)/initramfs.cpio
JOBS    ?= $(shell nproc)
# The transports make test and make bench run on, one after the other:
# every scenario that is not about one transport runs once on each.
TRANSPORTS ?= tcp rdma shm

export CCACHE_DIR ?= $(HOME)/.cache/ccache
# Paths below the checkout are hashed relative to it, so that another
# clone of the repository (CI) hits the same cache entries.
export CCACHE_BASEDIR := $(REPO)

KMAKE_ANY = $(MAKE) -C $(KDIR) ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" \
	KBUILD_BUILD_USER=popcorn KBUILD_BUILD_HOST=build -j$(JOBS)
KMAKE = $(KMAKE_ANY) O=$(KOBJ)

.PHONY: all kernel kernel-debug kernel-nopcn deps tree tree-debug tree-nopcn tools initramfs test \
	test-debug check bench soak run \
	check-series clean distclean

all: kernel

deps:
	@$(REPO)/scripts/install-deps.sh

tree: deps
	@$(REPO)/scripts/prepare-tree.sh $(REPO) $(KDIR) $(KOBJ)

kernel: tree
	@+$(KMAKE) -s bzImage
	@echo "  KERNEL  $(BZIMAGE)"

tree-debug: tree
	@$(REPO)/scripts/prepare-tree.sh $(REPO) $(KDIR) $(DOBJ) $(REPO)/configs/debug.config

kernel-debug: tree-debug
	@+$(KMAKE_ANY) O=$(DOBJ) -s bzImage
	@echo "  KERNEL  $(DBZIMAGE)"

tree-nopcn: tree
	@$(REPO)/scripts/prepare-tree.sh $(REPO) $(KDIR) $(NOBJ) $(REPO)/configs/nopopcorn.config

kernel-nopcn: tree-nopcn
	@+$(KMAKE_ANY) O=$(NOBJ) -s bzImage
	@echo "  KERNEL  $(NBZIMAGE)"

tools: deps
	@+$(MAKE) -s -C $(REPO)/tools/popcorn OUT=$(TOOLS)

initramfs: tools
	@$(REPO)/vm-test/mkinitramfs.sh $(TOOLS) $(INITRD)

test: kernel initramfs
	@TOOLS_DIR=$(TOOLS) TRANSPORTS="$(TRANSPORTS)" $(REPO)/vm-test/suite.sh $(BZIMAGE) $(INITRD)

# Shortened loops: KASAN and lockdep make TCG guests several times slower.
test-debug: kernel-debug initramfs
	@TOOLS_DIR=$(TOOLS) VMDIR=$(BUILD)/vm-debug VM_MEM=512M PCN_EXTRA_CMDLINE=kasan_multi_shot NODE_TIMEOUT=600 \
		TRANSPORTS="tcp rdma shm" SCENARIOS="tcp-3nodes tcp-auth tcp-unpriv tcp-lost tcp-fuzz tcp-limits tcp-worker tcp-migrate tcp-unmodified tcp-dsm tcp-stress rdma-3nodes rdma-migrate shm-segment shm-migrate" MIGRATE_ROUNDS=100 MIGRATE_BIG_MIB=2 DSM_ITERS=200 \
		STRESS_SECONDS=10 MT_ROUNDS=10 FUZZ_COUNT=2500 KILL_ROUNDS=25 $(REPO)/vm-test/suite.sh $(DBZIMAGE) $(INITRD)

check:
	+@MAKE="$(MAKE)" $(REPO)/scripts/check.sh $(REPO) $(BUILD)

bench: kernel kernel-nopcn initramfs
	@TRANSPORTS="$(TRANSPORTS) $(if $(filter rdma,$(TRANSPORTS)),rdma-copy)" $(REPO)/vm-test/bench.sh $(BZIMAGE) $(INITRD) $(BUILD)/bench $(NBZIMAGE)

N ?= 100
soak: kernel initramfs
	@N=$(N) $(REPO)/vm-test/soak.sh $(BZIMAGE) $(INITRD)

run: kernel initramfs
	@$(REPO)/vm-test/demo.sh $(BZIMAGE) $(INITRD)

check-series: deps
	@$(REPO)/scripts/check-series.sh $(REPO) $(BUILD)

clean:
	rm -rf $(TOOLS) $(INITRD) $(BUILD)/initramfs $(BUILD)/vm
	-[ -d $(KOBJ) ] && $(KMAKE) -s clean

distclean:
	rm -rf $(BUILD)
