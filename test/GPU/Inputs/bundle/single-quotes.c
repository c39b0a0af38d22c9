// RUN: %hompcc %s -o %t && %t | FileCheck '%s'
