#!/usr/bin/env bash
# Builds the rove binary to ship, and its debug info beside it:
#
#   target/dist/rove        the release build without its debug sections
#                           (function names stay, so a panic's backtrace
#                           still names every frame)
#   target/dist/rove.debug  those debug sections (file and line of every
#                           instruction, inlined calls included), which the
#                           binary names in its .gnu_debuglink section
#
# The release profile keeps line tables (Cargo.toml), and cargo has no
# stable way to move them out of an ELF binary into one file the usual
# tools read (split-debuginfo's .dwp leaves the line tables in the binary),
# so objcopy (binutils, already present wherever cargo links with cc) splits
# the finished binary. With rove.debug beside rove, a panic's backtrace
# (RUST_BACKTRACE=1) shows files and lines again, and gdb, addr2line and
# llvm-symbolizer find it themselves: `addr2line -f -i -C -e target/dist/rove
# 0x<address>` symbolizes an address from a crash report.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release --locked --bin rove
mkdir -p target/dist
objcopy --only-keep-debug target/release/rove target/dist/rove.debug
chmod -x target/dist/rove.debug
# The link holds the debug file's name and checksum; debuggers look for it
# beside the binary (and in .debug/ and /usr/lib/debug/ beside that).
objcopy --strip-debug --add-gnu-debuglink=target/dist/rove.debug \
  target/release/rove target/dist/rove
