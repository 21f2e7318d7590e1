#!/usr/bin/env python3
"""The remote-target fixtures alone (targets_fixture.py), before any alea test
relies on them: the sshd and the Slurm cluster must be real, hermetic, and
leave nothing behind.

SSH: both host aliases log in; a known_hosts with another host key, or with no
entry, is refused (host keys are checked); kill_sessions() drops open
connections mid-stream, kills the remote commands and keeps the daemon
listening. Slurm: a batch job runs to COMPLETED and writes its output file; a
running `sleep 300` is CANCELLED by scancel (scontrol and squeue agree) and its
process ends; `sacct -c` knows finished jobs while plain `sacct` has no
accounting storage; a second cluster runs beside the first; the sshd can carry
the cluster's SLURM_CONF into its sessions. After the context managers exit,
no process either fixture started is alive (checked by pid and start time).

Every wait is for an event; CTest's timeout is the only bound.

Usage: target_fixtures_test.py BUILD_DIR SOURCE_DIR"""
import os
import subprocess
import tempfile
import time

from e2e_common import check, finish, run, write
from targets_fixture import SlurmCluster, SshServer, alive


def wait_until(cond):
    while not cond():
        time.sleep(0.02)


def check_ssh(ssh, tmp):
    for host in ssh.hosts:
        r = run(["ssh", *ssh.ssh_options, host, "true"])
        check(r.returncode == 0, f"ssh {host} true: status {r.returncode}: {r.stderr}")
        r = run(["ssh", *ssh.ssh_options, host, 'echo "$SSH_CONNECTION"'])
        check(r.stdout.split()[-1:] == [str(ssh.port)],
              f"ssh {host} reached another server: {r.stdout!r} {r.stderr}")

    # Host keys are checked: another key for [127.0.0.1]:PORT, or none, fails.
    other = os.path.join(tmp, "other_host_key")
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", other], check=True)
    with open(other + ".pub") as f:
        key = " ".join(f.read().split()[:2])
    wrong = write(os.path.join(tmp, "wrong_known_hosts"), f"[127.0.0.1]:{ssh.port} {key}\n")
    empty = write(os.path.join(tmp, "empty_known_hosts"), "")
    for name, known in (("another host key", wrong), ("no host key", empty)):
        r = run(["ssh", *ssh.ssh_options, "-o", f"UserKnownHostsFile={known}", "alea-t1", "true"])
        check(r.returncode == 255 and "Host key verification failed" in r.stderr,
              f"ssh with {name} in known_hosts: status {r.returncode}: {r.stderr}")

    # kill_sessions() drops every open connection mid-stream.
    sessions = [subprocess.Popen(["ssh", *ssh.ssh_options, host, "echo started; sleep 30"],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                for host in ssh.hosts]
    for s in sessions:
        check(s.stdout.readline() == "started\n", "a session did not start")
    # The remote shell prints before it execs sleep: wait for the sleeps.
    wait_until(lambda: sum(p.name == "sleep" for p in ssh.processes()) == 2)
    before = ssh.processes()
    sleeps = [p for p in before if p.name == "sleep"]
    killed = ssh.kill_sessions()
    check(killed == 2, f"kill_sessions() killed {killed} connections, not 2")
    for s in sessions:
        out, err = s.communicate()
        # ssh's own failure (255: "closed by remote host" or "reset by peer");
        # had the kill failed, sleep would end normally: status 0.
        check(s.returncode == 255,
              f"a session survived kill_sessions(): status {s.returncode}: {err}")
    check(not alive(sleeps), f"remote commands survived kill_sessions(): {alive(sleeps)}")
    r = run(["ssh", *ssh.ssh_options, "alea-t2", "true"])
    check(r.returncode == 0, f"sshd no longer accepts after kill_sessions(): {r.stderr}")
    return before


def check_slurm(slurm, tmp):
    out = os.path.join(tmp, "out-%j.txt")
    r = slurm.run(["sbatch", "--parsable", "--exclusive", "-o", out, "--wrap", "hostname"])
    check(r.returncode == 0, f"sbatch: {r.stderr}")
    done = r.stdout.strip()
    info = slurm.wait_job(done)
    check(info["JobState"] == "COMPLETED", f"job {done}: {info}")
    path = out.replace("%j", done)
    check(os.path.exists(path), f"no output file {path}")
    if os.path.exists(path):
        with open(path) as f:
            check(f.read().strip() == slurm.node, f"job {done} wrote {path}: not {slurm.node}")

    r = slurm.run(["sbatch", "--parsable", "-o", os.devnull, "--wrap", "sleep 300"])
    long = r.stdout.strip()
    slurm.wait_job(long, {"RUNNING"})
    wait_until(lambda: any(p.name == "sleep" for p in slurm.processes()))
    procs = slurm.processes()
    sleeps = [p for p in procs if p.name == "sleep"]
    r = slurm.run(["scancel", long])
    check(r.returncode == 0, f"scancel {long}: {r.stderr}")
    info = slurm.wait_job(long)
    check(info["JobState"] == "CANCELLED", f"job {long} after scancel: {info}")
    states = {j["id"]: j["state"] for j in slurm.jobs()}
    check(states == {done: "COMPLETED", long: "CANCELLED"}, f"squeue: {states}")
    wait_until(lambda: not alive(sleeps))  # the cancelled job's process ends

    r = slurm.run(["sacct", "-c", "-n", "-P", "-j", done, "-o", "JobID,State"])
    check(r.stdout.split() == [f"{done}|COMPLETED"], f"sacct -c: {r.stdout!r} {r.stderr}")
    r = slurm.run(["sacct", "-j", done])
    check(r.returncode != 0 and "accounting storage is disabled" in r.stderr,
          f"plain sacct answered: {r.returncode} {r.stdout} {r.stderr}")

    # A second cluster on the same host, run beside the first.
    with SlurmCluster(os.path.join(tmp, "slurm2")) as second:
        procs += second.processes()
        r = second.run(["sbatch", "--parsable", "-o", os.devnull, "--wrap", "true"])
        info = second.wait_job(r.stdout.strip())
        check(info["JobState"] == "COMPLETED", f"job on the second cluster: {info}")
        check(slurm.job(done)["JobState"] == "COMPLETED", "the first cluster lost its job")
    return procs


def main():
    with tempfile.TemporaryDirectory(prefix="alea-target-fixtures-") as tmp:
        with SlurmCluster(os.path.join(tmp, "slurm")) as slurm:
            procs = slurm.processes()
            names = {p.name for p in procs}
            check({"munged", "slurmctld", "slurmd"} <= names, f"daemons: {names}")
            with SshServer(os.path.join(tmp, "ssh"), env=slurm.env) as ssh:
                procs += ssh.processes()
                check("sshd" in {p.name for p in procs}, f"no sshd among {procs}")
                procs += check_ssh(ssh, tmp)
                # What a remote Slurm target does: Slurm commands over ssh.
                r = run(["ssh", *ssh.ssh_options, "alea-t1", "sinfo", "-h", "-o", "%T"])
                check(r.stdout.strip() == "idle", f"sinfo over ssh: {r.stdout!r} {r.stderr}")
            procs += check_slurm(slurm, tmp)
        left = alive(procs)
        check(not left, f"processes left after the fixtures stopped: {left}")
    finish("sshd with two checked aliases and kill_sessions(); Slurm jobs complete and "
           "cancel; nothing left running")


if __name__ == "__main__":
    main()
