#!/usr/bin/env python3
"""Prints one summary line for the meson test logs given.

meson's own summary counts test programs; this counts the subtests of TAP
programs too, so the closing line says how many checks really ran.
"""
import json
import sys

passed = failed = skipped = 0
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as log:
        for line in log:
            test = json.loads(line)
            result = test.get("result")
            if result in ("SKIP",):
                skipped += 1
            elif result in ("OK", "EXPECTEDFAIL"):
                passed += 1
            else:
                failed += 1
                print(f"failed: {test.get('name')} ({result})")
print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed or passed == 0 else 0)
