"""What the end-to-end test scripts (test/e2e/*_test.py) share: collecting
failures, running a command, the alea executable, writing a file, waiting for
an event. Not a test itself (CTest runs the *_test.py files); the scripts find
it because Python puts a script's own directory first on its module path."""
import os
import subprocess
import sys
import time

FAILURES = []


def check(cond, msg):
    """Records a failure (the test goes on, to report every broken check)."""
    if not cond:
        FAILURES.append(msg)
        print("FAIL:", msg)


def finish(ok_message):
    """Ends the test: status 1 after any failed check, else prints `ok: ...`."""
    if FAILURES:
        sys.exit(1)
    print("ok:", ok_message)


def alea(build_dir):
    return os.path.join(build_dir, "bin", "alea")


def run(args, timeout=240, **kw):
    """Runs a command to its end, capturing its output as text. The timeout is
    a safety net against a hang, far above any run's duration."""
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout, **kw)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def wait_for_file(path, proc):
    """Waits until `path` exists, the event itself, with no deadline of its
    own (CTest's timeout bounds the test); stops the test at once if `proc`
    ended first."""
    while not os.path.exists(path):
        if proc.poll() is not None:
            print(f"FAIL: the process ended before {path} appeared:",
                  proc.stderr.read() if proc.stderr else "")
            sys.exit(1)
        time.sleep(0.01)
