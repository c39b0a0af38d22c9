// REQUIRES: nvidia-gpu
// RUN: %hompcc %s -o %t && %t | FileCheck %s
