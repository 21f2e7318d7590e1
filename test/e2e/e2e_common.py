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


def live_pids(matches):
    """Pids of the live (not zombie) processes whose argv (a list of bytes)
    `matches` says yes to."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                args = f.read().split(b"\0")
            with open(f"/proc/{pid}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if matches(args) and state not in ("Z", "X"):
            found.append(int(pid))
    return found


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


def check_each_planned_once(store_dir, what):
    """Checks a campaign store after faults: every planned execution recorded
    exactly once, none as a failure, one measurement per successful execution
    (iterations = 1), PRAGMA integrity_check ok."""
    import sqlite3
    with sqlite3.connect(os.path.join(store_dir, "campaign.db")) as c:
        one = lambda sql: c.execute(sql).fetchone()[0]
        planned = one("SELECT count(*) FROM plan")
        recorded = one("SELECT count(*) FROM execution")
        distinct = one("SELECT count(DISTINCT plan_position) FROM execution")
        failed = one("SELECT count(*) FROM execution WHERE status <> 'ok'")
        measurements = one("SELECT count(*) FROM measurement m JOIN execution e "
                           "ON e.id = m.execution_id WHERE e.status = 'ok'")
        integrity = one("PRAGMA integrity_check")
    check(recorded == planned == distinct,
          f"{what}: every planned execution recorded exactly once "
          f"(planned {planned}, recorded {recorded}, distinct {distinct})")
    check(failed == 0, f"{what}: none recorded as failed ({failed})")
    check(measurements == recorded - failed,
          f"{what}: one measurement per successful execution ({measurements})")
    check(integrity == "ok", f"{what}: integrity_check {integrity}")
