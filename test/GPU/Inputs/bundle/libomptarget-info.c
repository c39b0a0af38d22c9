// RUN: %hompcc %s -o %t && env LIBOMPTARGET_INFO=32 %t 2>&1 | FileCheck %s
