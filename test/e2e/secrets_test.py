#!/usr/bin/env python3
"""Secret-looking environment variables never reach the store file.

`alea run` runs with credentials in its environment (GITHUB_TOKEN, a
password, AWS keys, SSH_AUTH_SOCK, a name matched only by the campaign's own
`redact_env` pattern) and a benchmark `env` value with a secret-looking name
in the campaign file. The builds and benchmarks must still get the real values
(they write them to a file outside the campaign directory), while no byte of any secret value may
appear in the store's files, and the names are recorded with "<redacted>".

Usage: secrets_test.py BUILD_DIR SOURCE_DIR"""
import glob
import os
import sqlite3
import subprocess
import sys
import tempfile

SECRETS = {
    "GITHUB_TOKEN": "ghp_s3cr3tVALUE111",
    "DB_PASSWORD": "hunter2-VALUE222",
    "AWS_SECRET_ACCESS_KEY": "aws-VALUE333",
    "SSH_AUTH_SOCK": "/tmp/ssh-VALUE444/agent.1",
    "INTERNAL_LICENSE": "lic-VALUE555",
}
BENCH_SECRET = "bench-VALUE666"

CAMPAIGN = """
[campaign]
redact_env = ["INTERNAL_*"]
[levels]
builds = 2
executions = 2
[[system]]
name = "s"
baseline = true
shell = "echo \\"$GITHUB_TOKEN $INTERNAL_LICENSE\\" >> {source_dir}/seen && printf '#!/bin/sh\\\\necho \\"$API_TOKEN $DB_PASSWORD\\" >> %s/seen\\\\n' {source_dir} > p && chmod +x p"
artifacts = ["p"]
[[benchmark]]
name = "b"
command = ["{artifact:p}"]
env = { API_TOKEN = "bench-VALUE666", VISIBLE = "plain-value" }
"""


def main():
    alea = os.path.join(sys.argv[1], "bin", "alea")
    failures = []
    with tempfile.TemporaryDirectory(prefix="alea-secrets-") as tmp:
        toml = os.path.join(tmp, "c.toml")
        with open(toml, "w") as f:
            f.write(CAMPAIGN)
        out = os.path.join(tmp, "camp")
        env = dict(os.environ, **SECRETS)
        r = subprocess.run([alea, "run", toml, "--dir", out], capture_output=True, text=True,
                           env=env, timeout=240)
        if r.returncode != 0:
            failures.append(f"alea run exited {r.returncode}: {r.stderr}")
        with open(os.path.join(tmp, "seen")) as f:
            seen = f.read().split("\n")
        build_line = f"{SECRETS['GITHUB_TOKEN']} {SECRETS['INTERNAL_LICENSE']}"
        bench_line = f"{BENCH_SECRET} {SECRETS['DB_PASSWORD']}"
        if seen.count(build_line) != 2 or seen.count(bench_line) != 4:
            failures.append(f"the builds and benchmarks did not get the real values: {seen}")
        # Every byte alea wrote into the campaign directory's store files.
        blob = b""
        for path in glob.glob(os.path.join(out, "campaign.db*")):
            with open(path, "rb") as f:
                blob += f.read()
        for value in list(SECRETS.values()) + [BENCH_SECRET]:
            if value.encode() in blob:
                failures.append(f"the secret value {value!r} is in the store")
        con = sqlite3.connect(os.path.join(out, "campaign.db"))
        (base,) = con.execute("SELECT value FROM meta WHERE key = 'environment'").fetchone()
        for name in SECRETS:
            if f"{name}=<redacted>\n" not in base:
                failures.append(f"{name} is not recorded as redacted in the base environment")
        if "PATH=" + os.environ["PATH"] + "\n" not in base:
            failures.append("an ordinary variable (PATH) is not recorded as it is")
        envs = [e for (e,) in con.execute("SELECT environment FROM execution")]
        if len(envs) != 4 or not all("API_TOKEN=<redacted>\n" in e and "VISIBLE=plain-value\n" in e
                                     for e in envs):
            failures.append(f"execution environments: {envs}")
        (text,) = con.execute("SELECT value FROM meta WHERE key = 'config_text'").fetchone()
        if 'API_TOKEN = "<redacted>", VISIBLE = "plain-value"' not in text:
            failures.append(f"the recorded campaign file: {text}")
        con.close()
        # The report and the export read the store as it is: nothing to leak there either.
        r = subprocess.run([alea, "report", out, "--format", "json"], capture_output=True,
                           text=True, timeout=120)
        if any(v in r.stdout for v in list(SECRETS.values()) + [BENCH_SECRET]):
            failures.append("a secret value is in the JSON report")
    for f in failures:
        print("FAIL:", f)
    if failures:
        sys.exit(1)
    print("ok: 6 secret values used by the programs, none in the store files; names recorded "
          "as <redacted>")


if __name__ == "__main__":
    main()
