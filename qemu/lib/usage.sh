# qemu/lib/usage.sh: sourced by qemu/run (one file per job of it): its --help, the flags and the exit statuses.
# shellcheck shell=bash

usage() {
	cat <<'EOF'
usage: qemu/run [OPTION]...

Boots out/vmlinuz with out/initramfs.img in qemu, with N test disks and a results disk,
and copies the results into the run directory. The console goes to the terminal and to
RUN_DIR/console.log; on a terminal, its record lines (FSMREC ...) go to console.log only.

Disks
  --disks N            test disks to attach (default 0). Each is a raw image file
                       RUN_DIR/disks/fsmtestI.img with serial fsmtestI (I = 0..N-1), opened
                       with cache=none (O_DIRECT: the host page cache must not flatter or
                       bias the guest's I/O) and native AIO. Unless --no-select is given,
                       fsmatrix.disks=serial:fsmtest* is added to the kernel command line,
                       so the guest takes exactly these disks. The first 4 KiB of each image
                       is written back onto itself before qemu opens it (same bytes), so
                       that qemu 7.2 finds the host's real O_DIRECT alignment: on a fresh
                       image it assumed 4 KiB and failed some guest writes (docs/image.md)
  --size SIZE          size of each test disk (default 1G; K, M, G suffixes, powers of 2)
  --disk-bus BUS       the controller the test disks hang on, so that each driver stack
                       can be measured: virtio-blk (default), virtio-scsi (virtio-scsi-pci
                       with scsi-hd disks), nvme (one controller per disk), ahci (ich9-ahci,
                       ide-hd disks, at most 6), ide (the PIIX's IDE channels, at most 4),
                       megasas (MegaRAID SAS 2108, megasas-gen2), mptsas (LSI SAS 1068,
                       mptsas1068, at most 8, each disk with a wwn), pvscsi (VMware
                       paravirtual SCSI), lsi (LSI 53C895A, at most 7), uas (a USB
                       attached SCSI device per disk on a qemu-xhci controller, at most 4)
                       or usb (a usb-storage stick per disk on a qemu-xhci controller, at
                       most 4). Every bus passes each disk's serial to the guest. A comma
                       list gives one bus per disk in order (nvme,nvme,ahci,ahci: two
                       controllers, two disks on each), as a server with several HBAs has.
  --aio MODE           native (default), io_uring or threads
  --disk-mbps LIST     disks of known speed: qemu's block throttling caps each test disk at
                       this many MB/s (10^6 bytes a second, as the reports count), reads and
                       writes together (throttling.bps-total); one value for every disk, or
                       a comma list with one per disk in order (8,8,8,4: the last at half
                       speed). Written to RUN_DIR/disk-throttle. See docs/calibration.md
  --disk-iops LIST     the same for requests a second (throttling.iops-total)
  --write-cache-fixed  virtio-blk only: the guest may not change the disks' cache mode
                       (config-wce=off), as a device whose cache setting is not changeable: a
                       plan's write_cache then gives an error cell
  --write-cache MODE   the volatile write cache each emulated test disk reports to the guest
                       (qemu's write-cache= on ide-hd, scsi-hd, nvme and virtio-blk): on,
                       off, or auto (default: qemu's own choice, on). With off the guest sees
                       a disk without a write cache, as a RAID controller in write-through
                       mode shows its disks; the host side still opens them with cache=none
  --prealloc MODE      fallocate (default): reserve every block before the run, so that
                       first-write allocation on the host does not slow whichever cell runs
                       first; zero: write zeros over the whole disk (also converts the host
                       fs's unwritten extents); none: sparse files (faster to make, biased)
  --reuse              reuse the disk images and the results disk of an earlier run with the
                       same --run-id/--run-dir (kept with --keep); missing disks are made
                       anew. The earlier console.log is renamed console.1.log (2, 3, ...).
  --keep               keep the test disk images after the run (they are deleted otherwise;
                       the results disk is always kept, it is small)
  --no-select          do not add fsmatrix.disks=... (the guest then takes no disk)
  --results-size SIZE  size of the results disk (default 64M)
  --results-readonly   attach the results disk read-only (readonly=on), as a stick with its
                       write-protect switch on: the guest reads its plan, records go to the
                       console only

Image and guest
  --kernel FILE|NAME   kernel (default out/vmlinuz); a NAME that is not a file is a kernel set
                       of `make kernels`: out/kernels/NAME/vmlinuz with its own
                       out/kernels/NAME/initramfs.img (unless --initrd says otherwise),
                       and fsmatrix.kernel=NAME on the command line
  --initrd FILE        initramfs (default out/initramfs.img)
  --kernel-entry WAY   bzimage (default) or pvh: how qemu starts the kernel it loads itself
                       (no --boot-disk, no --pxe, BIOS firmware). bzimage: as a boot loader
                       would. pvh loads the ELF kernel the bzImage carries (qemu/pvh-kernel
                       unpacks it once into out/.pvh/) and jumps to its PVH entry: the same
                       kernel, command line and initramfs, without the bzImage decompressing
                       itself on every boot (about 7 s of TCG for Debian's XZ-compressed
                       kernel). Not the default: one boot in about 195 found its initramfs
                       corrupt under pvh, unexplained (docs/qemu-run.md). A kernel without a
                       PVH entry, or a payload that cannot be unpacked, boots as a bzImage
  --plan FILE          copy FILE onto the results disk as fsmatrix/plan.ini; /init reads the
                       plan from fsmatrix/plan.ini on the FSMRESULTS partition when present
  --file PATH          copy PATH onto the results disk as fsmatrix/NAME (its base name), where
                       a plan's tar archive or fio job named NAME is looked for first;
                       repeatable. The results disk grows to hold them with 64M to spare
                       (unless --results-size says otherwise, which must then be enough)
  --kernels "A B"      copy the kernel sets A and B of `make kernels` onto the results disk
                       as fsmatrix/kernels/NAME/ (vmlinuz, initramfs.img), where the guest
                       finds the kernels it may switch to; the disk grows as for --file. The
                       first boots unless --kernel says otherwise. They are inputs: not
                       copied back into the run directory
  --append "PARAMS"    extra kernel parameters (after console=ttyS0 panic=-1 loglevel=4
                       acpi=noirq and fsmatrix.disks=...; the kernel takes the last of a
                       repeated one)
  --acpi-irq           leave acpi=noirq out: PCI interrupts are then routed through ACPI's
                       interrupt links, as on real hardware. By default the BIOS's routing
                       table ($PIR, which SeaBIOS writes for qemu's pc machine) routes them,
                       because under TCG the kernel's ACPI interpreter takes 0.15-0.3 s per
                       PCI device it enables (0.5-0.9 s of a boot with three virtio devices);
                       with KVM or on hardware that costs nothing. MSI and MSI-X devices
                       (virtio, NVMe, AHCI) do not use those routes either way
  --mem SIZE           guest memory (default 1024M)
  --smp N              guest CPUs (default 1)
  --cpu MODEL          qemu -cpu (default: host with KVM, qemu's default with TCG)
  --no-rng             no virtio-rng device: the guest has no hardware random source, as
                       under a qemu command line of a lab scheduler's or a user's own, or
                       on a machine without RDRAND
  --serial-rate BYTES  the console drains at BYTES per second (11520 is a 115200 baud
                       line), as a real serial line or a lab's console socket does: qemu's
                       UART waits for the line, so the guest must drain its console before
                       it powers off or the last lines are lost. Default: as fast as qemu
                       takes them. console.log still holds what reached the line
  --accel MODE         auto (default), kvm or tcg. auto uses KVM only if a probe boot of
                       the kernel with KVM reaches its end of boot (the "unable to mount root"
                       panic, with no initramfs) within 5 s; the verdict and its reason are
                       printed and cached in out/.accel-probe, keyed by qemu version, kernel
                       sha256 and CPU model (FSM_ACCEL_CACHE=FILE moves that cache). A present
                       /dev/kvm alone proves nothing: nested KVM can hang or assert.
  --icount SHIFT       TCG only: the guest's clock counts instructions, each 2^SHIFT ns
                       (qemu -icount shift=SHIFT), not the host's time, so CPU work takes
                       the same guest time whatever the host's load: what make bench uses
                       to compare two images' boots to a few ms. Idle time still follows
                       the host's clock (sleep=on); the scale is not TCG's own speed
  --boot-disk IMG      boot a disk image through the firmware instead of -kernel: a copy
                       of IMG (e.g. out/fsmatrix-usb.img) becomes RUN_DIR/results.img, the
                       first disk, so the stick is both boot medium and results disk. The
                       kernel command line is then the image's own boot config: --append
                       cannot reach it and fsmatrix.disks= is not added (edit syslinux.cfg
                       in a copy of the image with mtools instead)
  --boot-bus BUS       usb (default: usb-storage on a qemu-xhci controller, as a stick is)
                       or virtio-blk, for --boot-disk
  --firmware FW        bios (SeaBIOS, default), uefi (OVMF from Debian's ovmf, with a
                       fresh copy of its variable store in RUN_DIR/OVMF_VARS.fd) or
                       uefi-secboot: OVMF with Secure Boot enforced and Microsoft's keys
                       enrolled (OVMF_CODE_4M.secboot.fd, a fresh copy of OVMF_VARS_4M.ms.fd),
                       on a q35 machine with SMM, which that firmware needs
  --pxe DIR            network boot: qemu's user-mode network serves DIR over its built-in
                       TFTP server and a virtio NIC boots first with its PXE ROM (ipxe-qemu);
                       the results disk is made as usual. The kernel command line is the
                       boot file's config (pxelinux.cfg/default, boot.ipxe)
  --pxe-file FILE      the boot file DHCP names, relative to DIR (default pxelinux.0)
  --watchdog MODEL     a hardware watchdog for the guest: i6300esb (Intel 6300ESB, PCI),
                       which /init prefers over softdog; its expiry resets the guest
  --reboot             let a guest reboot restart the guest inside the same qemu (watchdog
                       tests); by default qemu runs with -no-reboot, and a guest that
                       reboots in the middle of its run (watchdog, panic, a hung cell) is
                       booted again in a new qemu with the same disks and results disk, at
                       most the plan's retries + 1 times in a row without a new cell record

Run
  --run-id ID          name of the run (default YYYYMMDD-HHMMSS-xxxxxx); the run directory
                       is out/runs/ID
  --run-dir DIR        the run directory itself (overrides --run-id's location)
  --timeout SECONDS    kill the whole run after this long (default 3600; s/m/h suffixes);
                       reported as a timeout
  --dry-run            print the qemu command line and do nothing else (no file is made;
                       with --accel auto a missing probe verdict is still probed)
  --report             after the run, print `out/fsmatrix report RUN_DIR` if out/fsmatrix
                       has a report command
  --show-records       show the console's record lines (FSMREC ...) on the terminal too; by
                       default a terminal gets every other line as it comes and console.log
                       everything (when standard output is not a terminal, nothing is held
                       back either way)
  -h, --help           this text

Run directory (out/runs/ID/)
  console.log          the serial console of this boot (earlier boots: console.N.log)
  results/, plan.ini   everything the guest left under fsmatrix/ on the results disk
  results.img          the results disk: MBR, one FAT partition at 1 MiB labelled FSMRESULTS
  disks/fsmtestI.img   the test disks (deleted after the run unless --keep)
  qemu.cmdline         the qemu command line; accel: the accelerator chosen and why
  status               completed | guest-failed | timeout | qemu-failed | interrupted, reason
  qmp.sock             QMP monitor while qemu runs (qemu/monitor RUN_DIR 'device_del fsmtest1')
  qemu.pid             qemu's pid while it runs

Exit status
  0  completed: the guest printed its trailer record and qemu ended
  1  usage or host error (bad flag, missing kernel, unable to make a disk)
  2  guest failure: the guest panicked or powered off without a trailer record before its
     run began, or kept rebooting without progress
  3  timeout: the run was killed after --timeout
  4  qemu failed (it exited with an error status of its own, e.g. a bad option)
  130 interrupted (SIGINT/SIGTERM to qemu/run)
EOF
}
