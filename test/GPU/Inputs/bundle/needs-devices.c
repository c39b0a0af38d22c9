// A test whose program needs three devices is carried with that need
// (run.sh skips it in a configuration with fewer); its checks follow the
// count run.sh found (%ndev, %devices).
// REQUIRES: devices-2
// REQUIRES: devices-3, devices-1
// RUN: %hompcc %s -o %t
// RUN: %t 2>&1 | FileCheck %s -D#NDEV=%ndev
// RUN: env HOMP_INFO=1 %t | FileCheck "%s" --check-prefixes=INFO,INFO-%ndev -D#NDEV="%ndev" -DDEVICES="%devices"
