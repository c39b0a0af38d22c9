// REQUIRES: devices-2, nvidia-gpu
// RUN: %hompcc %s -o %t && %t | FileCheck %s -D#NDEV=%ndev
