// RUN: %hompcc %s -o %t && %t | python3 -c 'import sys'
