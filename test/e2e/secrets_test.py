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
import sys
import tempfile

from e2e_common import alea, check, finish, run, write

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
    exe = alea(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="alea-secrets-") as tmp:
        toml = write(os.path.join(tmp, "c.toml"), CAMPAIGN)
        out = os.path.join(tmp, "camp")
        r = run([exe, "run", toml, "--dir", out], env=dict(os.environ, **SECRETS))
        check(r.returncode == 0, f"alea run exited {r.returncode}: {r.stderr}")
        with open(os.path.join(tmp, "seen")) as f:
            seen = f.read().split("\n")
        build_line = f"{SECRETS['GITHUB_TOKEN']} {SECRETS['INTERNAL_LICENSE']}"
        bench_line = f"{BENCH_SECRET} {SECRETS['DB_PASSWORD']}"
        check(seen.count(build_line) == 2 and seen.count(bench_line) == 4,
              f"the builds and benchmarks did not get the real values: {seen}")
        # Every byte alea wrote into the campaign directory's store files.
        blob = b""
        for path in glob.glob(os.path.join(out, "campaign.db*")):
            with open(path, "rb") as f:
                blob += f.read()
        for value in list(SECRETS.values()) + [BENCH_SECRET]:
            check(value.encode() not in blob, f"the secret value {value!r} is in the store")
        con = sqlite3.connect(os.path.join(out, "campaign.db"))
        (base,) = con.execute("SELECT value FROM meta WHERE key = 'environment'").fetchone()
        for name in SECRETS:
            check(f"{name}=<redacted>\n" in base,
                  f"{name} is not recorded as redacted in the base environment")
        check("PATH=" + os.environ["PATH"] + "\n" in base,
              "an ordinary variable (PATH) is not recorded as it is")
        envs = [e for (e,) in con.execute("SELECT environment FROM execution")]
        check(len(envs) == 4 and all("API_TOKEN=<redacted>\n" in e and "VISIBLE=plain-value\n" in e
                                     for e in envs), f"execution environments: {envs}")
        (text,) = con.execute("SELECT value FROM meta WHERE key = 'config_text'").fetchone()
        check('API_TOKEN = "<redacted>", VISIBLE = "plain-value"' in text,
              f"the recorded campaign file: {text}")
        con.close()
        # The report and the export read the store as it is: nothing to leak there either.
        r = run([exe, "report", out, "--format", "json"])
        check(not any(v in r.stdout for v in list(SECRETS.values()) + [BENCH_SECRET]),
              "a secret value is in the JSON report")
    finish("6 secret values used by the programs, none in the store files; names recorded "
          "as <redacted>")


if __name__ == "__main__":
    main()
