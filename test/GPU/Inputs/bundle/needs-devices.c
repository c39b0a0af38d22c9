// A test whose program needs three devices, each working on the host's
// memory, is carried with those needs (run.sh skips it in a configuration
// with fewer devices, or with a GPU); its checks follow the count run.sh
// found (%ndev, %devices).
// REQUIRES: devices-2
// REQUIRES: devices-3, host-memory, devices-1
// RUN: %hompcc %s -o %t
// RUN: %t 2>&1 | FileCheck %s -D#NDEV=%ndev
// RUN: env HOMP_INFO=1 %t | FileCheck "%s" --check-prefixes=INFO,INFO-%ndev -D#NDEV="%ndev" -DDEVICES="%devices"
