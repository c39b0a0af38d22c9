// RUN: %hompcc %s -o %t && (%t || true)
