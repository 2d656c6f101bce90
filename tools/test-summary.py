#!/usr/bin/env python3
"""Prints one summary line for the meson test logs given, after the end of
the output of each test program that failed.

meson prints a failed test's output where it fails, long before the end of
a run; repeated here, it is in the last lines of the run, the ones a CI
report keeps.
"""
import json
import sys

# Per stream: enough for the assertion and what the test printed before it.
FAILED_OUTPUT_LINES = 20

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
                for stream in ("stdout", "stderr"):
                    for line in (test.get(stream) or "").splitlines()[-FAILED_OUTPUT_LINES:]:
                        print(f"    {line}")
print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed or passed == 0 else 0)
