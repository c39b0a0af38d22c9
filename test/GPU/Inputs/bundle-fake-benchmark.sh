#!/usr/bin/env bash
# A stand-in benchmark for the bundle's run.sh: "MODE N REPETITIONS" prints
# "MODE N MEDIAN MEAN CHECKSUM" like benchmarks/axpy, but the homp version's
# checksum disagrees with the sequential one.
checksum=1.000000e+00
[[ $1 == homp ]] && checksum=2.000000e+00
echo "$1 $2 0.001 0.001 $checksum"
