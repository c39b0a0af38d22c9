"""Reads HOMP_INFO (homp's own report, written by one thread) from stdin and
checks that device DEV never ran more iterations than BYTES of memory hold
at PER bytes an iteration: `check-cap.py DEV BYTES PER`. Prints one line.
Only executions in one share per device count: a queue's chunks ('chunks
of') and a sample's parts ('sample of') are held one at a time."""
import re
import sys

dev, capacity, per = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
most, rows, in_parts = 0, 0, False
for line in sys.stdin:
    if line.startswith("homp: region "):
        in_parts = "chunks of" in line or "sample of" in line
        continue
    m = re.match(r"^homp:\s+(\S+)\s+\S+\s+\[(\d+), (\d+)\)", line)
    if m and m.group(1) == dev and not in_parts:
        rows += 1
        most = max(most, int(m.group(3)) - int(m.group(2)))
if rows == 0:
    print(f"device {dev}: no rows")
elif most * per > capacity:
    print(f"device {dev}: {most} iterations need {most * per:.0f} bytes, "
          f"over {capacity:.0f}")
else:
    print(f"device {dev}: within its memory in {rows} executions")
