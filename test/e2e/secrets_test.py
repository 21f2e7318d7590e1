#!/usr/bin/env python3
"""Secrets never reach a file alea writes, and what alea writes is private.

`alea run` runs, under umask 022, with credentials in its environment: by
name (GITHUB_TOKEN, a password, AWS keys, SSH_AUTH_SOCK, MYSQL_PWD, NPM_AUTH,
GH_PAT, a name matched only by the campaign's own `redact_env` pattern) and by
value shape (the passwords in DATABASE_URL, REDIS_URL and HTTPS_PROXY). The
campaign file gives a benchmark a secret-looking `env` value, and its build
command carries `--password=...` and `-u admin:...`, which the build echoes to
its log; the build also prints the environment's secrets, and the benchmark
prints them to its stderr. The builds and benchmarks must get the real values
(they write them to a file outside the campaign directory), while no part of
any secret value may appear in any file under the campaign directory: the
store and its WAL (read while the campaign runs, and after), the lock, the
builds and their snapshots. What is recorded keeps its shape (names with
"<redacted>", URLs with the user and host).

Permissions (issue 18, item 4): the campaign directory alea creates is 0700
(its missing parents follow the umask), the store and its -wal and -shm files
0600, an existing directory keeps its mode, `alea import`'s new store is 0600;
`alea export -o` writes the user's file with the umask's mode.

Usage: secrets_test.py BUILD_DIR SOURCE_DIR"""
import os
import sqlite3
import stat
import subprocess
import sys
import tempfile

from e2e_common import alea, check, finish, run, wait_for_file, write

# Recorded as "<redacted>" by their names.
SECRETS = {
    "GITHUB_TOKEN": "ghp_s3cr3tVALUE111",
    "DB_PASSWORD": "hunter2-VALUE222",
    "AWS_SECRET_ACCESS_KEY": "aws-VALUE333",
    "SSH_AUTH_SOCK": "/tmp/ssh-VALUE444/agent.1",
    "INTERNAL_LICENSE": "lic-VALUE555",
    "MYSQL_PWD": "My-Pwd-Qx74",
    "NPM_AUTH": "Npm-Auth-Qx75",
    "GH_PAT": "Gh-Pat-Qx76",
}
# Recorded with the password of their URL redacted.
URLS = {
    "DATABASE_URL": ("postgres://dbuser:{}@db.example/app", "Db-S3cret-Qx71"),
    "REDIS_URL": ("redis://:{}@cache.example:6379/0", "Rd-Pw-Qx72"),
    "HTTPS_PROXY": ("http://proxyuser:{}@proxy.example:3128", "Px-Pw-Qx73"),
}
BENCH_SECRET = "bench-VALUE666"
BUILD_PASSWORD, BUILD_USER_PASSWORD = "Bld-Pw-Qx77", "Adm-Pw-Qx78"
# The values of issue 18: no 6 consecutive bytes of them may appear either.
DISTINCT = [SECRETS[k] for k in ("MYSQL_PWD", "NPM_AUTH", "GH_PAT")] + \
    [p for (_, p) in URLS.values()] + [BUILD_PASSWORD, BUILD_USER_PASSWORD]
ALL_VALUES = list(dict.fromkeys(list(SECRETS.values()) + [BENCH_SECRET] + DISTINCT))

CAMPAIGN = """
[campaign]
redact_env = ["INTERNAL_*"]
[levels]
builds = 2
executions = 2
[[system]]
name = "s"
baseline = true
shell = '''
echo "build got: $GITHUB_TOKEN $INTERNAL_LICENSE $DATABASE_URL $MYSQL_PWD $GH_PAT" >> {source_dir}/seen
echo "mysqldump --password=Bld-Pw-Qx77 -u admin:Adm-Pw-Qx78 db" | tee -a {source_dir}/seen
echo "connecting to $DATABASE_URL and $REDIS_URL via $HTTPS_PROXY as $GH_PAT with $MYSQL_PWD $NPM_AUTH"
cp {source_dir}/bench.sh p && chmod +x p
'''
artifacts = ["p"]
[[benchmark]]
name = "b"
command = ["{artifact:p}"]
env = { API_TOKEN = "bench-VALUE666", VISIBLE = "plain-value" }
"""

# The first execution to run holds until the test has read the campaign
# directory (the store's WAL holds the records then), waiting for a file.
BENCH = """#!/bin/sh
echo "bench got: $API_TOKEN $DB_PASSWORD $MYSQL_PWD $NPM_AUTH $GH_PAT $DATABASE_URL" >> {seen}
echo "bench stderr: $MYSQL_PWD $NPM_AUTH $GH_PAT $DATABASE_URL"  >&2
if mkdir {mark} 2>/dev/null; then
  while [ ! -e {release} ]; do sleep 0.05; done
fi
"""


def umask022():
    os.umask(0o022)


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def leaks(directory):
    """(file, secret) for every secret value, or 6 bytes of a distinct one,
    found in any file under `directory`."""
    found = []
    for root, _, files in os.walk(directory):
        for name in files:
            path = os.path.join(root, name)
            try:
                with open(path, "rb") as f:
                    data = f.read()
            except FileNotFoundError:  # the -wal/-shm of a store being closed
                continue
            for value in ALL_VALUES:
                if value.encode() in data:
                    found.append((path, value))
            for value in DISTINCT:
                for i in range(len(value) - 5):
                    if value[i:i + 6].encode() in data:
                        found.append((path, value[i:i + 6]))
    return found


def main():
    exe = alea(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="alea-secrets-") as tmp:
        seen = os.path.join(tmp, "seen")
        mark, release = os.path.join(tmp, "mark"), os.path.join(tmp, "release")
        write(os.path.join(tmp, "bench.sh"), BENCH.format(seen=seen, mark=mark, release=release))
        toml = write(os.path.join(tmp, "c.toml"), CAMPAIGN)
        out = os.path.join(tmp, "runs", "camp")  # `runs` is created too
        env = dict(os.environ, **SECRETS)
        for name, (shape, password) in URLS.items():
            env[name] = shape.format(password)
        proc = subprocess.Popen([exe, "run", toml, "--dir", out], env=env, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                preexec_fn=umask022)
        wait_for_file(mark, proc)
        # Mid-campaign: the store's records are in its WAL.
        store = os.path.join(out, "campaign.db")
        check(os.path.getsize(store + "-wal") > 0, "the WAL holds no records mid-campaign")
        for f in (store, store + "-wal", store + "-shm"):
            check(mode(f) == 0o600, f"{f} has mode {oct(mode(f))}, not 0600 (umask 022)")
        check(mode(out) == 0o700, f"the campaign directory has mode {oct(mode(out))}, not 0700")
        check(mode(os.path.dirname(out)) == 0o755,
              "a parent alea created does not follow the umask (0755)")
        for path, value in leaks(out):
            check(False, f"mid-campaign: {value!r} is in {path}")
        write(release, "")
        stdout, stderr = proc.communicate(timeout=240)
        check(proc.returncode == 0, f"alea run exited {proc.returncode}: {stderr}")

        with open(seen) as f:
            lines = f.read().split("\n")
        db_url = env["DATABASE_URL"]
        build_got = (f"build got: {SECRETS['GITHUB_TOKEN']} {SECRETS['INTERNAL_LICENSE']} "
                     f"{db_url} {SECRETS['MYSQL_PWD']} {SECRETS['GH_PAT']}")
        build_cmd = f"mysqldump --password={BUILD_PASSWORD} -u admin:{BUILD_USER_PASSWORD} db"
        bench_got = (f"bench got: {BENCH_SECRET} {SECRETS['DB_PASSWORD']} {SECRETS['MYSQL_PWD']} "
                     f"{SECRETS['NPM_AUTH']} {SECRETS['GH_PAT']} {db_url}")
        check(lines.count(build_got) == 2 and lines.count(build_cmd) == 2 and
              lines.count(bench_got) == 4,
              f"the builds and benchmarks did not get the real values: {lines}")

        # After the campaign: every file alea wrote, and the store's content.
        for path, value in leaks(out):
            check(False, f"{value!r} is in {path}")
        con = sqlite3.connect(store)
        (base,) = con.execute("SELECT value FROM meta WHERE key = 'environment'").fetchone()
        for name in SECRETS:
            check(f"{name}=<redacted>\n" in base,
                  f"{name} is not recorded as redacted in the base environment")
        for name, (shape, _) in URLS.items():
            check(f"{name}={shape.format('<redacted>')}\n" in base,
                  f"{name} is not recorded with its password redacted")
        check("PATH=" + os.environ["PATH"] + "\n" in base,
              "an ordinary variable (PATH) is not recorded as it is")
        envs = [e for (e,) in con.execute("SELECT environment FROM execution")]
        check(len(envs) == 4 and all("API_TOKEN=<redacted>\n" in e and "VISIBLE=plain-value\n" in e
                                     for e in envs), f"execution environments: {envs}")
        (text,) = con.execute("SELECT value FROM meta WHERE key = 'config_text'").fetchone()
        check('API_TOKEN = "<redacted>", VISIBLE = "plain-value"' in text and
              "mysqldump --password=<redacted> -u admin:<redacted> db" in text,
              f"the recorded campaign file: {text}")
        logs = [t for (t,) in con.execute("SELECT log_tail FROM build")]
        check(len(logs) == 2 and all(
            "mysqldump --password=<redacted> -u admin:<redacted> db\n" in t and
            "as <redacted> with <redacted> <redacted>" in t and
            "connecting to " + URLS["DATABASE_URL"][0].format("<redacted>") in t for t in logs),
            f"the build log tails: {logs}")
        tails = [t for (t,) in con.execute("SELECT stderr_tail FROM execution")]
        check(len(tails) == 4 and all(
            "bench stderr: <redacted> <redacted> <redacted> " +
            URLS["DATABASE_URL"][0].format("<redacted>") in t for t in tails),
            f"the benchmarks' stderr tails: {tails}")
        con.close()
        # The report and the export read the store as it is: nothing to leak there either.
        r = run([exe, "report", out, "--format", "json"])
        check(r.returncode == 0 and not any(v in r.stdout for v in ALL_VALUES),
              "a secret value is in the JSON report")

        # An existing campaign directory keeps its mode; the store is still 0600.
        quick = write(os.path.join(tmp, "q.toml"), "[levels]\nbuilds = 1\nexecutions = 1\n"
                      "[[system]]\nname = \"s\"\nbuild = [\"true\"]\n"
                      "[[benchmark]]\nname = \"b\"\ncommand = [\"true\"]\n")
        shared = os.path.join(tmp, "shared")
        os.mkdir(shared)
        os.chmod(shared, 0o755)
        r = run([exe, "run", quick, "--dir", shared], preexec_fn=umask022)
        check(r.returncode == 0, f"alea run in an existing directory: {r.stderr}")
        check(mode(shared) == 0o755, f"an existing directory's mode changed: {oct(mode(shared))}")
        check(mode(os.path.join(shared, "campaign.db")) == 0o600, "the store is not 0600")
        # Stores alea imports are private; exports are the user's files (umask).
        csv = write(os.path.join(tmp, "m.csv"),
                    "system,benchmark,build,execution,iteration,value\n"
                    "s,b,0,0,0,1.5\ns,b,1,0,0,1.6\n")
        imported = os.path.join(tmp, "imported.db")
        r = run([exe, "import", csv, "-o", imported], preexec_fn=umask022)
        check(r.returncode == 0 and mode(imported) == 0o600,
              f"alea import's store: {r.stderr} mode {oct(mode(imported)) if r.returncode == 0 else '-'}")
        exported = os.path.join(tmp, "export.csv")
        r = run([exe, "export", shared, "-o", exported], preexec_fn=umask022)
        check(r.returncode == 0 and mode(exported) == 0o644,
              f"alea export's file follows the umask: {r.stderr}")
    finish(f"{len(ALL_VALUES)} secret values used by the builds and benchmarks, none in any "
           "file of the campaign directory; directory 0700, store and WAL 0600 under umask 022")


if __name__ == "__main__":
    main()
