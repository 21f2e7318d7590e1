#!/usr/bin/env python3
"""A campaign directory on a full disk: the snapshot of an artifact fails with
ENOSPC. `alea run` must stop with an error that names the file it could not
write, leave no `objects/*.tmp.<pid>` behind, record nothing for that build (it
is a fault of the directory, not of the build), and, once space is freed,
resume: the build is retried and the campaign completes.

The full disk is a real one: a 14 MiB tmpfs mounted in a private mount
namespace (`unshare --user --map-root-user --mount`: nothing outside the test's
own directory is touched, and the mount disappears with the namespace). The
build writes a 2 MiB artifact (random bytes: no other snapshot has its hash)
beside a 10.5 MiB filler file, so the build fits but its snapshot does not.
Where namespaces are not permitted, the same fault comes from RLIMIT_FSIZE
(EFBIG, "File too large"): the artifact is then a link to a file the test
made beforehand, so only alea's own copy hits the limit.

Usage: disk_full_test.py BUILD_DIR SOURCE_DIR"""
import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile

from e2e_common import alea, check, finish, write

# One build at a time: the disk fills at build 0's snapshot, the step under
# test (two builds at once would fill it with their blobs first).
CAMPAIGN = """
[campaign]
build_jobs = 1
[levels]
builds = 2
executions = 2
[[system]]
name = "s"
baseline = true
shell = "{build}"
artifacts = ["p", "blob"]
[[benchmark]]
name = "b"
command = ["{{artifact:p}}"]
"""


def namespaces_work():
    r = subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "true"],
                       capture_output=True)
    return r.returncode == 0


def build_rows(db):
    con = sqlite3.connect(db)
    rows = con.execute("SELECT status, count(*) FROM build GROUP BY status").fetchall()
    con.close()
    return rows


def main():
    exe = alea(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="alea-diskfull-") as tmp:
        prog = write(os.path.join(tmp, "p"), "#!/bin/sh\nexit 0\n")
        os.chmod(prog, 0o755)
        if namespaces_work():
            how = "ENOSPC on a 14 MiB tmpfs"
            disk = os.path.join(tmp, "disk")
            os.mkdir(disk)
            camp = os.path.join(disk, "camp")
            build = f"cp {prog} p; head -c 2097152 /dev/urandom > blob"
            toml = write(os.path.join(tmp, "c.toml"), CAMPAIGN.format(build=build))
            script = f"""
set -u
mount -t tmpfs -o size=14m alea-test {disk}
head -c 11010048 /dev/zero > {disk}/filler
{exe} run {toml} --dir {camp} --no-report 2> {tmp}/first.err
echo "first=$?"
ls {camp}/objects > {tmp}/objects.txt 2>/dev/null
cp {camp}/campaign.db {tmp}/first.db 2>/dev/null
cp {camp}/campaign.db-wal {tmp}/first.db-wal 2>/dev/null
rm {disk}/filler
{exe} run {toml} --dir {camp} --no-report 2> {tmp}/second.err
echo "second=$?"
cp {camp}/campaign.db {tmp}/second.db
cp {camp}/campaign.db-wal {tmp}/second.db-wal 2>/dev/null
true
"""
            r = subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "bash", "-c",
                                script], capture_output=True, text=True, timeout=240)
            codes = dict(l.split("=") for l in r.stdout.split() if "=" in l)
            check(r.returncode == 0 and codes.keys() == {"first", "second"},
                  f"namespace script: {r.returncode} {r.stdout} {r.stderr}")
            expected_error = "No space left on device"
        else:
            how = "EFBIG under RLIMIT_FSIZE (no mount namespace here)"
            camp = os.path.join(tmp, "camp")
            big = os.path.join(tmp, "big")
            with open(big, "wb") as f:
                f.write(os.urandom(2 << 20))
            toml = write(os.path.join(tmp, "c.toml"),
                         CAMPAIGN.format(build=f"cp {prog} p; ln -s {big} blob"))

            def limited():
                signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
                resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))

            with open(os.path.join(tmp, "first.err"), "w") as err:
                first = subprocess.run([exe, "run", toml, "--dir", camp, "--no-report"],
                                       stderr=err, preexec_fn=limited, timeout=240)
            with open(os.path.join(tmp, "objects.txt"), "w") as f:
                f.write("\n".join(os.listdir(os.path.join(camp, "objects"))))
            shutil.copy(os.path.join(camp, "campaign.db"), os.path.join(tmp, "first.db"))
            if os.path.exists(os.path.join(camp, "campaign.db-wal")):
                shutil.copy(os.path.join(camp, "campaign.db-wal"),
                            os.path.join(tmp, "first.db-wal"))
            with open(os.path.join(tmp, "second.err"), "w") as err:
                second = subprocess.run([exe, "run", toml, "--dir", camp, "--no-report"],
                                        stderr=err, timeout=240)
            shutil.copy(os.path.join(camp, "campaign.db"), os.path.join(tmp, "second.db"))
            codes = {"first": str(first.returncode), "second": str(second.returncode)}
            expected_error = "File too large"

        first_err = open(os.path.join(tmp, "first.err")).read()
        check(codes.get("first") == "1", f"full disk: exit {codes.get('first')}, expected 1")
        error = [l for l in first_err.splitlines() if l.startswith("alea: error: ")]
        check(len(error) == 1, f"expected one error line: {first_err!r}")
        if error:
            e = error[0]
            check("build s #0: cannot snapshot artifact 'blob' into '" in e and "/objects/" in e
                  and expected_error in e and "retries it" in e,
                  f"the error does not name the file and the cause: {e!r}")
        leftovers = [n for n in open(os.path.join(tmp, "objects.txt")).read().split() if ".tmp." in n]
        check(not leftovers, f"temporary snapshot files left behind: {leftovers}")
        check(build_rows(os.path.join(tmp, "first.db")) == [],
              "the failed snapshot was recorded as a build")

        second_err = open(os.path.join(tmp, "second.err")).read()
        check(codes.get("second") == "0", f"resume after freeing space: exit {codes.get('second')}: "
                                          f"{second_err}")
        con = sqlite3.connect(os.path.join(tmp, "second.db"))
        builds = con.execute("SELECT build_index, status FROM build ORDER BY build_index").fetchall()
        (ok,) = con.execute("SELECT count(*) FROM execution WHERE status = 'ok'").fetchone()
        con.close()
        check(builds == [(0, "ok"), (1, "ok")], f"builds after resume: {builds}")
        check(ok == 4, f"{ok} executions ok after resume, expected 4")
    finish(f"({how}) the error names the file, no temporary file is left, nothing is "
          "recorded for the build, and the resumed campaign retries it and completes")


if __name__ == "__main__":
    main()
