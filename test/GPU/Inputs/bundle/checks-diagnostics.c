// RUN: %hompcc %s -o %t 2>&1 | FileCheck %s --check-prefix=WARN
