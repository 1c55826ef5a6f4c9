# Popcorn for Linux 6.1: top-level build.
#
#   make          build the guest kernel (bzImage) with our patches and code
#   make test     build what is stale, boot the QEMU test suite
#   make run      the demo: boot 2 nodes and show each node's view
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
TOOLS   := $(BUILD)/tools
INITRD  := $(BUILD)/initramfs.cpio.gz
JOBS    ?= $(shell nproc)

export CCACHE_DIR ?= $(HOME)/.cache/ccache
# Paths below the checkout are hashed relative to it, so that another
# clone of the repository (CI) hits the same cache entries.
export CCACHE_BASEDIR := $(REPO)

KMAKE = $(MAKE) -C $(KDIR) O=$(KOBJ) ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" \
	KBUILD_BUILD_USER=popcorn KBUILD_BUILD_HOST=build -j$(JOBS)

.PHONY: all kernel deps tree tools initramfs test run check-series clean distclean

all: kernel

deps:
	@$(REPO)/scripts/install-deps.sh

tree: deps
	@$(REPO)/scripts/prepare-tree.sh $(REPO) $(KDIR) $(KOBJ)

kernel: tree
	@+$(KMAKE) -s bzImage
	@echo "  KERNEL  $(BZIMAGE)"

tools: deps
	@+$(MAKE) -s -C $(REPO)/tools/popcorn OUT=$(TOOLS)

initramfs: tools
	@$(REPO)/vm-test/mkinitramfs.sh $(TOOLS) $(INITRD)

test: kernel initramfs
	@$(REPO)/vm-test/suite.sh $(BZIMAGE) $(INITRD)

run: kernel initramfs
	@$(REPO)/vm-test/demo.sh $(BZIMAGE) $(INITRD)

check-series: deps
	@$(REPO)/scripts/check-series.sh $(REPO) $(BUILD)

clean:
	rm -rf $(TOOLS) $(INITRD) $(BUILD)/initramfs $(BUILD)/vm
	-[ -d $(KOBJ) ] && $(KMAKE) -s clean

distclean:
	rm -rf $(BUILD)
