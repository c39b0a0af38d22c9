// RUN: %hompcc %s -c -o %t.o
