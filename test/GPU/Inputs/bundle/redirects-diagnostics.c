// A compile step whose diagnostics go to a file a later step checks.
// RUN: %hompcc -O2 %s -o %t 2> %t.warnings
// RUN: FileCheck %s < %t.warnings
int main(void) { return 0; }
