// RUN: %hompcc -DNDEV=%ndev %s -o %t && %t | count 1
