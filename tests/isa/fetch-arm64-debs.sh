#!/bin/sh
# SPDX-License-Identifier: MIT
#
# fetch-arm64-debs.sh: download Debian's arm64 libc6, libstdc++6 and
# bash packages, which decode-arm64-binaries.sh compares the AArch64
# decoder on, into $DT_ARM64_DEBS (default /var/cache/dt-arm64debs).
# Needs root on a Debian-based system: it adds arm64 as a foreign
# architecture (apt-get download only fetches; nothing is installed).

debs=${DT_ARM64_DEBS:-/var/cache/dt-arm64debs}

set -e
dpkg --print-foreign-architectures | grep -qx arm64 ||
    dpkg --add-architecture arm64
apt-get update -qq
mkdir -p "$debs"
cd "$debs"
apt-get download libc6:arm64 libstdc++6:arm64 bash:arm64
ls -l "$debs"/*.deb
