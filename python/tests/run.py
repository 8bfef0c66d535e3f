"""Runs every test_* function of test_murmur.py where pytest is not
installed; prints each case and "N passed, N failed" (exit 1 on a failure)."""
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_murmur  # noqa: E402

cases = [(name, fn) for name, fn in vars(test_murmur).items() if name.startswith("test_") and callable(fn)]
wanted = sys.argv[1:]
passed = failed = 0
for name, fn in cases:
    if wanted and name not in wanted:
        continue
    try:
        fn()
        print("ok   " + name)
        passed += 1
    except BaseException:  # a KeyboardInterrupt that escaped a test is a failure too
        print("FAIL " + name)
        traceback.print_exc()
        failed += 1
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed or not passed else 0)
