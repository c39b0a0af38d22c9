// RUN: %cmake -S %S -B %t
