# fsmatrix: the whole pipeline, from pinned Debian sources to a booted benchmark run.
#
#   make          image: out/vmlinuz, out/initramfs.img, out/MANIFEST, out/fsmatrix
#   make run      the image, booted in qemu on fresh disks with the default plan, then the report
#   make test     unit tests, image checks, boot tests (one line each, then "N passed, N failed")
#   make deps     apt-get installs what the host lacks (as root), else prints the command
#   make bench    the harness measured against fio, tar and a hello-world boot (ratios)
#   make usb      out/fsmatrix-usb.img: a USB stick (BIOS; UEFI with Secure Boot on or off)
#                 holding its plan and results
#                 (FILES="a.tar job.fio" puts those beside the plan)
#   make pxe      out/pxe/: a TFTP root (pxelinux, shim and GRUB, iPXE) for network boot
#   make kernels  out/kernels/NAME/: vmlinuz, initramfs.img and set per kernel of KERNELS="6.1 6.12"
#                 (or any pinned Debian ABI: KERNELS="6.1.0-47 6.1.0-57"; recipes/kernel-recipe)
#   make lava     out/lava/: one LAVA job per shard of a plan (SHARDS=2, LAVA_PLAN, LAVA_DEVICE_TYPE)
#   make fuzz     each parser under libFuzzer for FUZZ_SECONDS (default 600), one at a time
#   make clean    removes out/ and the build tree (keeps downloads in dl/)
#
# Bring your own kernel: make KERNEL=path/to/bzImage MODULES=path/to/lib/modules/VERSION

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DELETE_ON_ERROR:
.SECONDEXPANSION:
MAKEFLAGS += --no-builtin-rules

OUT := out
B := build
DL := dl
JOBS ?= $(shell nproc)
# Packages build side by side (each recipe's own make also uses JOBS): their configure
# scripts are serial, so one package alone leaves a core idle. JOBS=1 builds one at a time.
MAKEFLAGS += -j$(JOBS)
# Every timestamp in the image; the date of the pinned kernel package. Override to taste:
# the same value gives the same bytes.
SOURCE_DATE_EPOCH ?= 1735689600
export SOURCE_DATE_EPOCH

all: image

## ---------------------------------------------------------------- host prerequisites
# One Debian package per tool the build, the runner and the tests call, in three tiers so that
# a first `make run` installs only what building and running the default plan needs:
#   RUN    the build and qemu/run (make, make run, make kernels)
#   MEDIA  boot loaders and firmware for the stick and the network boot (make usb, make pxe)
#   TEST   what only tests, benchmarks and labs use (make test, bench, fuzz, lava): fio on the
#          host, clang for the fuzzers, jq, Chromium, LAVA's dispatcher, labgrid, python3-jsonschema
#          (the KCIDB schema check)
# `make deps` installs all three; every other target checks its tier first and installs what
# is missing.
RUN_PKGS := build-essential musl-tools kmod cpio file bzip2 xz-utils gzip zstd \
	qemu-system-x86 qemu-utils mtools dosfstools fdisk libjansson-dev libsqlite3-dev pkg-config dpkg-dev \
	squashfs-tools
RUN_TOOLS := musl-gcc gcc depmod cpio file bzip2 xz gzip zstd qemu-system-x86_64 qemu-img \
	mcopy mkfs.vfat sfdisk pkg-config dpkg-deb dpkg-source mksquashfs unsquashfs
MEDIA_PKGS := ovmf ipxe-qemu syslinux syslinux-common pxelinux
MEDIA_TOOLS := syslinux
TEST_PKGS := jq tidy chromium clang libclang-rt-14-dev fio debootstrap lava-dispatcher \
	python3-jinja2 python3-yaml python3-labgrid python3-jsonschema
TEST_TOOLS := jq tidy fio debootstrap clang chromium lava-run
DEPS_PKGS := $(RUN_PKGS) $(MEDIA_PKGS) $(TEST_PKGS)

deps:
	@recipes/host-deps install $(DEPS_PKGS)

$(B)/.deps-ok: Makefile recipes/host-deps
	@mkdir -p $(B)
	@recipes/host-deps check "$(RUN_TOOLS)" $(RUN_PKGS)
	@touch $@
$(B)/.deps-media-ok: Makefile recipes/host-deps | $(B)/.deps-ok
	@recipes/host-deps check "$(MEDIA_TOOLS) $(RUN_TOOLS)" $(MEDIA_PKGS) $(RUN_PKGS)
	@touch $@
$(B)/.deps-test-ok: Makefile recipes/host-deps | $(B)/.deps-media-ok
	@recipes/host-deps check "$(TEST_TOOLS) $(MEDIA_TOOLS) $(RUN_TOOLS)" $(DEPS_PKGS)
	@touch $@

## ---------------------------------------------------------------- recipes (generic rule)
# recipes/<pkg>/recipe holds the version, source, build options and commands; recipes/<pkg>/hash
# the pinned sha256 and where it came from. recipes/step runs one step of one package and
# leaves a stamp, so a step reruns only when its inputs changed.
PKGS := $(notdir $(patsubst %/recipe,%,$(wildcard recipes/*/recipe)))
IMAGE_PKGS := busybox mdadm e2fsprogs xfsprogs btrfs-progs fio lvm2 bcache-tools
STEP = recipes/step

pkg_deps = $(shell sed -n 's/^depends="\(.*\)"/\1/p' recipes/$(1)/recipe)

$(B)/apt/.ready: recipes/apt | $(B)/.deps-ok
	@recipes/apt setup

$(B)/%/.downloaded: recipes/%/hash | $(B)/apt/.ready
	@$(STEP) $* download
$(B)/%/.verified: $(B)/%/.downloaded recipes/%/hash
	@$(STEP) $* verify
$(B)/%/.extracted: $(B)/%/.verified $$(wildcard recipes/$$*/patches/*)
	@$(STEP) $* extract
$(B)/%/.patched: $(B)/%/.extracted
	@$(STEP) $* patch
$(B)/%/.built: $(B)/%/.patched recipes/%/recipe $$(wildcard recipes/$$*/*.config) \
		$$(foreach d,$$(call pkg_deps,$$*),$(B)/$$(d)/.installed)
	@$(STEP) $* build
$(B)/%/.installed: $(B)/%/.built
	@$(STEP) $* install

.PRECIOUS: $(B)/%/.downloaded $(B)/%/.verified $(B)/%/.extracted $(B)/%/.patched \
	$(B)/%/.built $(B)/%/.installed
# Every stamp named as a target: a package's dependency (xfsprogs needs liburcu) would
# otherwise sit in the dependent's implicit chain, where make uses no pattern rule twice
# ("No rule to make target build/xfsprogs/.installed") and skips missing intermediates.
PKG_STAMPS := $(foreach p,$(PKGS),$(foreach s,downloaded verified extracted patched built installed,$(B)/$(p)/.$(s)))
$(PKG_STAMPS):

USERLAND_STAMPS := $(foreach p,$(IMAGE_PKGS),$(B)/$(p)/.installed)
userland: $(USERLAND_STAMPS)

## ---------------------------------------------------------------- kernel and modules
KERNEL ?=
MODULES ?=
ifeq ($(KERNEL),)
KERNEL_IMAGE := $(B)/linux/dest/vmlinuz
KERNEL_DEP := $(B)/linux/.installed
else
KERNEL_IMAGE := $(KERNEL)
KERNEL_DEP := $(KERNEL)
endif
ifeq ($(MODULES),)
MODULES_DIR := $(B)/linux/dest/lib/modules
MODULES_DEP := $(B)/linux/.installed
else
MODULES_DIR := $(MODULES)
MODULES_DEP := $(shell find $(MODULES) -name modules.order 2>/dev/null | head -1)
endif

$(OUT)/vmlinuz: $(KERNEL_DEP)
	@mkdir -p $(OUT)
	@cp $(KERNEL_IMAGE) $@

# The module closure for the image: recipes/linux/modules.list, plus everything those need
# through modules.dep and modules.softdep, with depmod metadata for just that set.
# A kernel brought with MODULES= gets a closure and an image tree of its own, so that both
# builds can sit side by side (tests/image/run.sh compares them).
KMODS := $(B)/modules$(if $(MODULES),-custom)
TREE := $(B)/rootfs$(if $(MODULES),-custom)

# The modules keep Debian's bytes and signatures (MODULES_REWRITE=none), checked by sha256
# against the kernel package: what a kernel under Secure Boot loads. MODULES_REWRITE=qemu,
# for images that only boot in qemu, strips their signatures, BTF, ftrace call sites and
# (unless MODULE_ORC=keep) ORC tables for a faster boot (recipes/linux/closure says why).
# The stamp names the choice, so that another choice builds the closure again.
MODULES_REWRITE ?= none
export MODULES_REWRITE
MODULE_ORC ?= strip
export MODULE_ORC
# The package's own sums, for the pinned kernel; a kernel brought with MODULES= is checked
# against the tree given.
PRISTINE_SUMS := $(if $(MODULES),,$(B)/linux/dest/modules.sha256)
KMODS_DONE := $(KMODS)/.done-rewrite-$(MODULES_REWRITE)-orc-$(MODULE_ORC)

$(KMODS_DONE): $(MODULES_DEP) recipes/linux/modules.list recipes/linux/closure $(B)/ko-nop-fentry
	@KO_NOP_FENTRY=$(B)/ko-nop-fentry PRISTINE_SUMS=$(PRISTINE_SUMS) \
		recipes/linux/closure $(MODULES_DIR) recipes/linux/modules.list $(KMODS)
	@touch $@

## ---------------------------------------------------------------- our C: /init and the host CLI
# One folder per layer, each allowed to include only the layers listed before it:
#   init/lib/      generic helpers (argv, JSON records, the process runner, clocks, files,
#                  sha256, stats, UTF-8)
#   init/core/     the pure rules, tested on the host, in parts (tests/layers/run.sh's table):
#                  a chain model → workload → figures → matrix → parse → command (a plan's
#                  model, the workloads' pure halves, figures and judgements, the matrix and
#                  its time, the plan parser, one cell's exact commands), and two parts that
#                  neither use nor are used by the rest: core/disk/ (the disks, their probes,
#                  state and selection) and core/boot/ (modules, boot menus, trust, resume)
#   init/engines/  the workload engines, a table of operations
#   init/cell/     one cell's lifecycle in /init: its steps, workload, sampler and record,
#                  given a run environment by pid1 (cell/env.h)
#   init/pid1/     /init itself: the boot sequence, the matrix that drives the cells
#   init/report/   the report library (lib and core only)
#   init/cli/      out/fsmatrix's subcommands, one per file
#   init/pack/     what the image build runs on the host: build/ko-nop-fentry
# /init links lib, core, engines, cell and pid1; out/fsmatrix lib, core, engines, report and cli.
CFLAGS_OURS := -std=c11 -Wall -Wextra -Werror -O2 -D_GNU_SOURCE -g0 -Iinit
layer_srcs = $(foreach l,$(1),$(wildcard init/$(l)/*.c init/$(l)/*/*.c))
SHARED_SRCS := $(call layer_srcs,lib core engines)
PID1_SRCS := $(SHARED_SRCS) $(call layer_srcs,cell pid1)
HOST_SRCS := $(SHARED_SRCS) $(call layer_srcs,report cli)
# Expanded when a link runs, not when make starts: on a fresh machine jansson and SQLite
# (fsmatrix history's file) arrive with `make deps`, after the Makefile has been read.
HOST_LIBS = $(shell pkg-config --libs jansson sqlite3) -lm
INIT_HDRS := $(wildcard init/*/*.h init/*/*/*.h)

$(OUT)/init: $(PID1_SRCS) $(INIT_HDRS) | $(B)/.deps-ok
	@mkdir -p $(OUT)
	musl-gcc $(CFLAGS_OURS) -Os -static -s -o $@ $(PID1_SRCS) -lm

# Host objects are compiled once and shared by out/fsmatrix and every unit program.
HOST_OBJS := $(patsubst init/%.c,$(B)/host-obj/%.o,$(HOST_SRCS))
.SECONDARY: $(HOST_OBJS)

$(B)/host-obj/%.o: init/%.c $(INIT_HDRS) | $(B)/.deps-ok
	@mkdir -p $(@D)
	gcc $(CFLAGS_OURS) -c -o $@ $<

# `fsmatrix --version`: git describe of the tree built from (no date, so the same tree gives
# the same bytes), else init/lib/version.h's. $(B)/host-version changes only when the version
# does, so that cli/main.o is rebuilt then and only then.
HOST_VERSION := $(shell git describe --always --dirty 2>/dev/null)
$(B)/host-version: FORCE
	@mkdir -p $(@D)
	@echo '$(HOST_VERSION)' | cmp -s - $@ || echo '$(HOST_VERSION)' > $@
$(B)/host-obj/cli/main.o: $(B)/host-version
$(B)/host-obj/cli/main.o: CFLAGS_OURS += $(if $(HOST_VERSION),-DFSM_VERSION='"$(HOST_VERSION)"')

$(OUT)/fsmatrix: $(HOST_OBJS)
	@mkdir -p $(OUT)
	gcc $(CFLAGS_OURS) -o $@ $(HOST_OBJS) $(HOST_LIBS)

# The module rewrite recipes/linux/closure runs (init/pack/kofentry.h says why).
PACK_SRCS := $(call layer_srcs,pack)
PACK_MAIN := init/pack/nop_fentry.c
$(B)/ko-nop-fentry: $(patsubst init/%.c,$(B)/host-obj/%.o,$(PACK_SRCS)) $(B)/host-obj/lib/file.o
	gcc $(CFLAGS_OURS) -o $@ $^

# A static hello-world /init: the baseline for boot-time measurements.
$(OUT)/hello-init: tests/hello-init.c | $(B)/.deps-ok
	@mkdir -p $(OUT)
	musl-gcc $(CFLAGS_OURS) -Os -static -s -o $@ $<

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(B)/unit/%,$(UNIT_SRCS))
UNIT_LIB_SRCS := $(filter-out init/cli/main.c,$(HOST_SRCS)) $(filter-out $(PACK_MAIN),$(PACK_SRCS))

UNIT_OBJS := $(patsubst init/%.c,$(B)/host-obj/%.o,$(UNIT_LIB_SRCS))

$(B)/unit/%: tests/unit/%.c tests/unit/check.h tests/unit/plan_text.h $(UNIT_OBJS)
	@mkdir -p $(B)/unit
	gcc $(CFLAGS_OURS) $(UNIT_DEFS) -o $@ $< $(UNIT_OBJS) $(HOST_LIBS)

# test_kofentry's module: an object compiled the way the kernel compiles one for ftrace.
FENTRY_FIXTURE := $(B)/unit/fentry_fixture.o
$(FENTRY_FIXTURE): tests/unit/fentry_fixture.c tests/unit/fentry_fixture.h
	@mkdir -p $(@D)
	gcc -std=c11 -O2 -pg -mfentry -mrecord-mcount -fno-pic -fno-pie -mcmodel=kernel -c -o $@ $<
$(B)/unit/test_kofentry $(B)/unit-asan/test_kofentry: $(FENTRY_FIXTURE)
$(B)/unit/test_kofentry $(B)/unit-asan/test_kofentry: UNIT_DEFS := -DKO_FIXTURE='"$(abspath $(FENTRY_FIXTURE))"'

# test_bootmenu edits the stick's menus as media/bootcfg writes them.
$(B)/media/syslinux.cfg $(B)/media/grub.cfg: $(B)/media/%.cfg: media/menu media/bootcfg
	@mkdir -p $(@D)
	@media/bootcfg $* > $@
$(B)/unit/test_bootmenu $(B)/unit-asan/test_bootmenu: $(B)/media/syslinux.cfg $(B)/media/grub.cfg

unit: $(UNIT_BINS)
	@rc=0; for t in $(UNIT_BINS); do $$t || rc=1; done; exit $$rc

## ---------------------------------------------------------------- sanitizers and fuzzing
# The unit programs again under ASan and UBSan (make unit-asan), and libFuzzer harnesses for
# the parsers that read what a user or a serial line hands us (tests/fuzz/fuzz_NAME.c, seeds
# in tests/fuzz/corpus/NAME/). `make fuzz` runs each for FUZZ_SECONDS, one after another, and
# fails on a crash, whose input it keeps as build/fuzz/NAME/crash-*; `make test` runs a short
# smoke of each (tests/fuzz/run.sh). Objects are built once per flavour and shared.
SAN_FLAGS := -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_SECONDS ?= 600
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS := $(patsubst %,$(B)/fuzz/fuzz_%,$(FUZZ_NAMES))
FUZZ_OBJS := $(patsubst init/%.c,$(B)/fuzz/obj/%.o,$(UNIT_LIB_SRCS))
UNIT_ASAN_BINS := $(patsubst tests/unit/%.c,$(B)/unit-asan/%,$(UNIT_SRCS))
UNIT_ASAN_OBJS := $(patsubst init/%.c,$(B)/unit-asan/obj/%.o,$(UNIT_LIB_SRCS))
.SECONDARY: $(FUZZ_OBJS) $(UNIT_ASAN_OBJS)

$(B)/unit-asan/obj/%.o: init/%.c $(INIT_HDRS)
	@mkdir -p $(@D)
	gcc $(CFLAGS_OURS) $(SAN_FLAGS) -c -o $@ $<

$(B)/unit-asan/%: tests/unit/%.c tests/unit/check.h tests/unit/plan_text.h $(UNIT_ASAN_OBJS)
	gcc $(CFLAGS_OURS) $(SAN_FLAGS) $(UNIT_DEFS) -o $@ $< $(UNIT_ASAN_OBJS) $(HOST_LIBS)

unit-asan: $(UNIT_ASAN_BINS)
	@rc=0; for t in $(UNIT_ASAN_BINS); do $$t || rc=1; done; exit $$rc

# Debian's clang 14 carries libFuzzer (package libclang-rt-14-dev).
$(B)/fuzz/obj/%.o: init/%.c $(INIT_HDRS) | $(B)/.deps-test-ok
	@mkdir -p $(@D)
	clang $(CFLAGS_OURS) $(SAN_FLAGS) -O1 -fsanitize=fuzzer-no-link -c -o $@ $<

$(B)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZ_OBJS)
	clang $(CFLAGS_OURS) $(SAN_FLAGS) -O1 -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) $(HOST_LIBS)

fuzz-build: $(FUZZ_BINS)

fuzz: $(FUZZ_BINS)
	@tests/fuzz/run.sh --seconds $(FUZZ_SECONDS) $(FUZZ_NAMES)

## ---------------------------------------------------------------- the image
# rootfs/ is copied as is; binaries and modules are added; every entry gets owner 0:0 and
# mtime SOURCE_DATE_EPOCH, and the archive is written in sorted order and compressed by
# recipes/compress (zstd -19 unless INITRAMFS_COMPRESS=gzip or xz: see there for the
# measured sizes and unpack times), so the same inputs give the same bytes.
ROOTFS_FILES := $(shell find rootfs -type f 2>/dev/null)
INITRAMFS_COMPRESS ?= zstd
export INITRAMFS_COMPRESS
# The modules as a squashfs that /init mounts, so that the kernel does not unpack 18 MB of
# modules at every boot (recipes/pack says what that saves), or MODULES_IMAGE=plain: a tree.
MODULES_IMAGE ?= squashfs
export MODULES_IMAGE
# The choices made last time: a different choice repacks.
$(B)/initramfs-options: FORCE
	@mkdir -p $(B)
	@echo '$(INITRAMFS_COMPRESS) $(MODULES_IMAGE)' | cmp -s - $@ || echo '$(INITRAMFS_COMPRESS) $(MODULES_IMAGE)' > $@

$(OUT)/initramfs.img: $(OUT)/init $(USERLAND_STAMPS) $(KMODS_DONE) $(ROOTFS_FILES) \
		recipes/pack recipes/compress $(B)/initramfs-options recipes/manifest \
		recipes/tool-versions $(wildcard recipes/*/hash)
	@recipes/pack $(TREE) $@ $(OUT)/init $(KMODS) $(foreach p,$(IMAGE_PKGS),$(B)/$(p)/dest)

$(OUT)/MANIFEST: $(OUT)/initramfs.img $(OUT)/vmlinuz $(OUT)/fsmatrix recipes/manifest
	@recipes/manifest all $(OUT) $(KERNEL_IMAGE) > $@.tmp && mv $@.tmp $@

# The size of each part, compressed alone: made once per image (compressing every part at
# zstd -19 takes seconds), shown by every make. recipes/sizes fails past the budget, and then
# no report is kept, so the next make checks again.
$(B)/sizes.txt: $(OUT)/initramfs.img recipes/sizes recipes/compress
	@recipes/sizes $(TREE) $< > $@.tmp || { cat $@.tmp; rm -f $@.tmp; exit 1; }
	@mv $@.tmp $@

image: $(OUT)/vmlinuz $(OUT)/initramfs.img $(OUT)/MANIFEST $(OUT)/fsmatrix $(B)/sizes.txt
	@cat $(B)/sizes.txt

## ---------------------------------------------------------------- kernel sets
# make kernels: out/kernels/NAME/vmlinuz and initramfs.img for each NAME of KERNELS, the
# same /init, programs and modules.list against each kernel. NAME is the kernel's recipe:
# recipes/linux-NAME (6.1 is recipes/linux); each gets its own module closure
# ($(B)/modules-k-NAME) and image tree, checked against the package's own module sums when
# its recipe lists them (dest/modules.sha256, as recipes/linux and kernel-recipe's do). The image's own kernel is copied rather than packed
# again: 6.1, or with KERNEL=/MODULES= the custom kernel under the KERNEL_NAME given
# (`make kernels KERNEL=bzImage MODULES=dir KERNEL_NAME=mine`; without one it is no set).
# A Debian kernel the archive offers as linux-image-NAME-amd64 is a set once
# `recipes/kernel-recipe NAME` has pinned it: recipes/linux-6.1.0-47 ... 6.1.0-57 are, so
# `make kernels KERNELS="6.1.0-47 6.1.0-52 6.1.0-57"` builds those. Each set's facts (package,
# version, the upstream stable release it is built from) go to out/kernels/NAME/set
# (recipes/linux/setinfo; docs/image.md#kernel-sets).
KERNELS ?= 6.1 6.12
KERNEL_NAME ?= $(if $(KERNEL)$(MODULES),,6.1)
kernel_pkg = $(if $(filter 6.1,$(1)),linux,linux-$(1))
KERNEL_SETS := $(sort $(KERNELS) $(KERNEL_NAME))
KERNEL_SET_FILES := $(foreach k,$(KERNEL_SETS),$(foreach f,vmlinuz initramfs.img set,$(OUT)/kernels/$(k)/$(f)))
KERNELS_UNPINNED := $(strip $(foreach k,$(filter-out $(KERNEL_NAME),$(KERNELS)),$(if $(wildcard recipes/$(call kernel_pkg,$(k))/recipe),,$(k))))
ifneq ($(KERNELS_UNPINNED),)
$(error no recipe for kernel set $(firstword $(KERNELS_UNPINNED)): `recipes/kernel-recipe $(firstword $(KERNELS_UNPINNED))` pins linux-image-$(firstword $(KERNELS_UNPINNED))-amd64 if the archive offers it)
endif

ifneq ($(KERNEL_NAME),)
$(OUT)/kernels/$(KERNEL_NAME)/vmlinuz: $(OUT)/vmlinuz
	@mkdir -p $(@D)
	@cp $< $@
$(OUT)/kernels/$(KERNEL_NAME)/initramfs.img: $(OUT)/initramfs.img
	@mkdir -p $(@D)
	@cp $< $@
endif

ifneq ($(KERNEL),)
$(OUT)/kernels/$(KERNEL_NAME)/set: $(OUT)/vmlinuz recipes/linux/setinfo
	@recipes/linux/setinfo $(KERNEL_NAME) $< > $@.tmp && mv $@.tmp $@
endif
$(OUT)/kernels/%/set: $(B)/$$(call kernel_pkg,$$*)/.installed recipes/linux/setinfo
	@mkdir -p $(@D)
	@recipes/linux/setinfo $* $(B)/$(call kernel_pkg,$*)/dest/vmlinuz \
		recipes/$(call kernel_pkg,$*)/recipe $(B)/$(call kernel_pkg,$*)/src > $@.tmp && mv $@.tmp $@

$(OUT)/kernels/%/vmlinuz: $(B)/$$(call kernel_pkg,$$*)/.installed
	@mkdir -p $(@D)
	@cp $(B)/$(call kernel_pkg,$*)/dest/vmlinuz $@

$(B)/modules-k-%/.done: $(B)/$$(call kernel_pkg,$$*)/.installed recipes/linux/modules.list \
		recipes/linux/closure $(B)/ko-nop-fentry
	@sums=$(B)/$(call kernel_pkg,$*)/dest/modules.sha256; [ -s $$sums ] || sums=; \
		KO_NOP_FENTRY=$(B)/ko-nop-fentry PRISTINE_SUMS=$$sums recipes/linux/closure \
		$(B)/$(call kernel_pkg,$*)/dest/lib/modules recipes/linux/modules.list $(B)/modules-k-$*
	@touch $@

$(OUT)/kernels/%/initramfs.img: $(OUT)/init $(USERLAND_STAMPS) $(B)/modules-k-%/.done $(ROOTFS_FILES) \
		recipes/pack recipes/compress $(B)/initramfs-options
	@mkdir -p $(@D)
	@recipes/pack $(B)/rootfs-k-$* $@ $(OUT)/init $(B)/modules-k-$* $(foreach p,$(IMAGE_PKGS),$(B)/$(p)/dest)

.PRECIOUS: $(B)/modules-k-%/.done

kernels: $(KERNEL_SET_FILES)
	@for k in $(KERNEL_SETS); do echo "  kernel set $$k: $(OUT)/kernels/$$k/ (upstream $$(sed -n 's/^upstream=//p' $(OUT)/kernels/$$k/set))"; done

## ---------------------------------------------------------------- boot media for bare hardware
# media/usb and media/pxe put the image on a stick image and into a TFTP root, without root
# or loop devices. Both boot a dry run that names no disks unless a user edits them.
USB_PLAN := rootfs/plans/default.ini
# FILES="a.tar job.fio": put on the stick's fsmatrix/ beside the plan (tar archives, fio jobs).
# $(B)/usb-files changes only when the list does, so a new list rebuilds the stick.
FILES ?=
$(B)/usb-files: FORCE
	@mkdir -p $(@D)
	@echo '$(FILES)' | cmp -s - $@ || echo '$(FILES)' > $@

# The UEFI path: Debian's shim and signed GRUB from pinned packages, as the kernel is.
EFI_STAMPS := $(B)/shim-signed/.installed $(B)/grub-efi-amd64-signed/.installed
MENU_FILES := media/menu media/bootcfg

# KERNELS="6.1 6.12" given to make usb: those kernel sets on the stick (fsmatrix/kernels/),
# for a plan with kernels =; without it on the command line, none.
USB_KERNELS := $(if $(filter command line,$(origin KERNELS)),$(KERNELS))
$(B)/usb-kernels: FORCE
	@mkdir -p $(@D)
	@echo '$(USB_KERNELS)' | cmp -s - $@ || echo '$(USB_KERNELS)' > $@

$(OUT)/fsmatrix-usb.img: $(OUT)/vmlinuz $(OUT)/initramfs.img $(USB_PLAN) media/usb \
		$(MENU_FILES) $(EFI_STAMPS) media/README.txt $(B)/usb-files $(FILES) $(B)/usb-kernels \
		$(foreach k,$(USB_KERNELS),$(OUT)/kernels/$(k)/vmlinuz $(OUT)/kernels/$(k)/initramfs.img) | $(B)/.deps-media-ok
	@USB_FILES='$(FILES)' USB_KERNEL_DIRS='$(foreach k,$(USB_KERNELS),$(OUT)/kernels/$(k))' \
		media/usb $@ $(OUT)/vmlinuz $(OUT)/initramfs.img $(USB_PLAN)

$(OUT)/pxe/vmlinuz: $(OUT)/vmlinuz $(OUT)/initramfs.img media/pxe $(MENU_FILES) $(EFI_STAMPS) \
		media/boot.ipxe media/PXE-README.txt | $(B)/.deps-media-ok
	@media/pxe $(OUT)/pxe $(OUT)/vmlinuz $(OUT)/initramfs.img

usb: $(OUT)/fsmatrix-usb.img
pxe: $(OUT)/pxe/vmlinuz

## ---------------------------------------------------------------- LAVA jobs
# One job per shard of LAVA_PLAN (fsmatrix.shard=K/N) in out/lava/, for a lab's LAVA, with
# what the jobs deploy beside the kernel (fsmatrix lava writes them there: the initramfs
# carrying the plan, and for qemu the blank test disk). LAVA_ARGS: more flags of `fsmatrix
# lava` (--url BASE where the lab serves them, --select SPEC for x86, --scale X).
LAVA_PLAN ?= rootfs/plans/default.ini
SHARDS ?= 2
LAVA_DEVICE_TYPE ?= qemu
LAVA_ARGS ?=
lava: image | $(B)/.deps-test-ok
	@$(OUT)/fsmatrix lava $(LAVA_PLAN) --shards $(SHARDS) --device-type $(LAVA_DEVICE_TYPE) \
		-o $(OUT)/lava $(LAVA_ARGS)

## ---------------------------------------------------------------- running and testing
# The default plan on four fresh 1 GiB disks, then the text report and report.html.
run: image
	@qemu/run --disks 4 --size 1G --plan rootfs/plans/default.ini --report

# The unit programs are built here but run by tests/run, so that a failing one is one FAIL
# line among the rest rather than the end of make. The kernel sets are built for boot tests 48
# and 50, and TEST_KERNELS (another pinned Debian ABI) for 55.
TEST_KERNELS ?= 6.1.0-47
test: image usb pxe kernels $(foreach k,$(TEST_KERNELS),$(foreach f,vmlinuz initramfs.img set,$(OUT)/kernels/$(k)/$(f))) $(UNIT_BINS) $(UNIT_ASAN_BINS) $(FUZZ_BINS) $(OUT)/hello-init | $(B)/.deps-test-ok
	@tests/run

bench: image $(OUT)/hello-init | $(B)/.deps-test-ok
	@tests/bench/run

clean:
	rm -rf $(OUT) $(B)

.PHONY: kernels

FORCE:
.PHONY: FORCE all deps usb pxe lava userland unit unit-asan fuzz fuzz-build image run test bench clean
