"""Real remote targets for the end-to-end tests: an OpenSSH server and a
single-node Slurm cluster, each started from scratch under a directory the
test owns, on ports picked for it, so tests can run several times in a row and
side by side (ctest -j) without touching the machine's own sshd, munge or
Slurm (/etc/ssh, /etc/munge, /etc/slurm and their services are never read,
written or started).

    with SshServer(workdir) as ssh:       # ssh -F WORKDIR/ssh_config alea-t1 true
        ...
    with SlurmCluster(workdir) as slurm:  # SLURM_CONF=WORKDIR/slurm.conf sbatch ...
        ...

Two SlurmClusters run side by side on one host (same node name, own ports,
munge socket and spool directory: target_fixtures_test.py runs one beside
another), so concurrent tests need no lock. Both fixtures need root: slurmd
starts jobs as their owner, sshd logs in as the current user.

Every daemon runs under a small reaper process (this file run as a script): a
child subreaper (prctl PR_SET_CHILD_SUBREAPER), so whatever the daemon leaves
behind -- sshd's per-connection children and their commands, the slurmstepd
that slurmd double-forks, a job's processes -- is reparented to the reaper
instead of to init, and the reaper kills and reaps all of it when the daemon is
stopped or dies. The reaper also dies with the test (PR_SET_PDEATHSIG), so a
test killed by CTest's timeout leaves nothing running either (start fixtures
from the main thread: the parent-death signal follows the thread that started
the reaper). Not a test itself; the *_test.py scripts import it (their own directory is on sys.path)."""
import atexit
import collections
import ctypes
import json
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import time

# Safety nets only: every wait below ends on its event; these bounds just turn
# a hang into an error that names what did not happen.
START_BOUND = 120  # seconds for a daemon or a cluster to come up
STOP_GRACE = 10  # seconds a daemon gets after SIGTERM before SIGKILL
STOP_BOUND = 60  # seconds for a reaper to finish after being told to stop
POLL = 0.02

# A process as the fixtures know it; the start time (clock ticks after boot,
# /proc/PID/stat field 22) tells a process from a later one with the same pid.
Proc = collections.namedtuple("Proc", "pid start name")

_LIVE = set()  # fixtures started and not yet stopped; stopped at exit


@atexit.register
def _stop_live():
    for fixture in list(_LIVE):
        fixture.stop()


# ---------------------------------------------------------------------------
# /proc and process trees

def _stat(pid):
    """(ppid, state, start, comm) of pid, or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return None
    # comm is in parentheses and may itself contain spaces or parentheses.
    comm = text[text.index("(") + 1:text.rindex(")")]
    fields = text[text.rindex(")") + 2:].split()
    return int(fields[1]), fields[0], int(fields[19]), comm


def _table():
    """Every process: pid -> (ppid, state, start, comm)."""
    table = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            st = _stat(int(name))
            if st is not None:
                table[int(name)] = st
    return table


def _descendants(root, table):
    children = collections.defaultdict(list)
    for pid, (ppid, _, _, _) in table.items():
        children[ppid].append(pid)
    out, todo = [], list(children[root])
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children[pid])
    return out


def alive(procs):
    """The processes of `procs` (from a fixture's processes()) that still run:
    same pid, same start time, not a zombie."""
    out = []
    for p in procs:
        st = _stat(p.pid)
        if st is not None and st[2] == p.start and st[1] != "Z":
            out.append(p)
    return out


def free_ports(n):
    """n distinct TCP ports free on every address at the time of the call. All
    are held at once so they differ; a daemon that still loses its port to
    another process fails to bind, and the fixtures retry with new ports."""
    socks = []
    try:
        for _ in range(n):
            s = socket.socket()
            s.bind(("", 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def _wait(what, cond, daemons=(), bound=START_BOUND):
    """Waits until cond() is true. Raises _Exited at once if one of `daemons`
    ended meanwhile, and RuntimeError after `bound` seconds (a safety net for
    a hang, not a timing assumption)."""
    deadline = time.monotonic() + bound
    while True:
        value = cond()
        if value:
            return value
        for d in daemons:
            if d.exited():
                raise _Exited(d)
        if time.monotonic() > deadline:
            raise RuntimeError(f"gave up after {bound} s waiting for {what}")
        time.sleep(POLL)


def _tail(path, n=30):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-n:])
    except OSError as e:
        return f"({e})"


class _Exited(RuntimeError):
    def __init__(self, daemon):
        text = (f"{daemon.name} exited with status {daemon.status()} while starting; "
                f"{daemon.log} ends with:\n{_tail(daemon.log)}")
        if daemon.out != daemon.log:
            text += f"\n{daemon.out} ends with:\n{_tail(daemon.out)}"
        super().__init__(text)
        self.daemon = daemon


# ---------------------------------------------------------------------------
# One daemon under its reaper

class _Daemon:
    """`argv` run in the foreground under a reaper (see the module docstring),
    its stdout and stderr appended to `out`. `log` is the file to quote when
    it fails (its own log file if it writes one, else `out`)."""

    def __init__(self, name, argv, out, env=None, log=None):
        self.name, self.out, self.log = name, out, log or out
        self.reaper = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--reap", str(os.getpid()), out, "--"]
            + argv,
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, env=env,
            start_new_session=True)  # no terminal signals; we stop it ourselves
        line = self.reaper.stdout.readline()
        self.reaper.stdout.close()
        if not line.strip().isdigit():
            self.reaper.wait()
            raise RuntimeError(f"could not start {name} ({argv[0]}): {_tail(out)}")
        self.pid = int(line)

    def exited(self):
        return self.reaper.poll() is not None

    def status(self):
        return self.reaper.returncode

    def tree(self):
        """The reaper's descendants other than the daemon itself: the daemon's
        children and whatever they left behind."""
        table = _table()
        return [p for p in _descendants(self.reaper.pid, table) if p != self.pid]

    def processes(self):
        table = _table()
        pids = [self.reaper.pid] + _descendants(self.reaper.pid, table)
        return [Proc(p, table[p][2], table[p][3]) for p in pids
                if p in table and table[p][1] != "Z"]

    def stop(self):
        if self.reaper.poll() is None:
            try:
                self.reaper.send_signal(signal.SIGTERM)
                self.reaper.wait(STOP_BOUND)
            except subprocess.TimeoutExpired:  # a reaper stuck: do its work
                _kill_all(lambda: _descendants(self.reaper.pid, _table()))
                self.reaper.kill()
                self.reaper.wait()


def _kill_all(pids_of):
    """SIGKILLs the processes pids_of() returns, asking again after each
    round (children forked meanwhile are caught), until none of them is alive
    (a zombie is dead: its parent reaps it)."""
    while True:
        table = _table()
        victims = [p for p in pids_of() if p in table and table[p][1] != "Z"]
        if not victims:
            return
        for p in victims:
            try:
                os.kill(p, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(POLL)


# ---------------------------------------------------------------------------
# The reaper (this file run as a script)

class _Stop(Exception):
    pass


def _reaper_main(argv):
    """--reap PARENT_PID OUT -- CMD...: runs CMD as a child subreaper, writes
    CMD's pid on stdout, and when told to stop (SIGTERM, or its parent died)
    gives CMD STOP_GRACE seconds after a SIGTERM, then kills every process
    left below itself. Exits with CMD's status if CMD ended by itself."""
    parent, out, sep, cmd = int(argv[0]), argv[1], argv[2], argv[3:]
    assert sep == "--" and cmd
    libc = ctypes.CDLL(None, use_errno=True)
    pr_set_pdeathsig, pr_set_child_subreaper = 1, 36
    stops = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)

    def on_stop(signum, frame):
        raise _Stop()

    for s in stops:
        signal.signal(s, on_stop)
    libc.prctl(pr_set_child_subreaper, 1, 0, 0, 0)
    libc.prctl(pr_set_pdeathsig, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != parent:  # the test died before PR_SET_PDEATHSIG took effect
        return 1
    status = None
    child = None
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, stops)
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        child = os.fork()
        if child == 0:
            try:
                os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
                os.dup2(fd, 1)
                os.dup2(fd, 2)
                for s in stops:
                    signal.signal(s, signal.SIG_DFL)
                signal.pthread_sigmask(signal.SIG_SETMASK, [])
                os.execvp(cmd[0], cmd)
            except BaseException as e:
                os.write(2, f"reaper: cannot run {cmd[0]}: {e}\n".encode())
            os._exit(127)
        os.close(fd)
        sys.stdout.write(f"{child}\n")
        sys.stdout.flush()
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, stops)
        while status is None:
            pid, st = os.waitpid(-1, 0)  # the daemon, or an orphan it left
            if pid == child:
                status = os.waitstatus_to_exitcode(st)
                status = status if status >= 0 else 128 - status  # the shell's convention
    except _Stop:
        for s in stops:
            signal.signal(s, signal.SIG_IGN)
        if child:
            try:
                os.kill(child, signal.SIGTERM)
            except ProcessLookupError:
                pass
            deadline = time.monotonic() + STOP_GRACE
            while time.monotonic() < deadline:
                try:
                    pid, st = os.waitpid(-1, os.WNOHANG)
                except ChildProcessError:
                    break
                if pid == child:
                    break
                if pid == 0:
                    time.sleep(POLL)
        status = 0
    finally:
        for s in stops:
            signal.signal(s, signal.SIG_IGN)
        me = os.getpid()
        # Kill everything below us, reaping as we go, until we have no child.
        while True:
            _kill_all(lambda: _descendants(me, _table()))
            try:
                while os.waitpid(-1, os.WNOHANG)[0]:
                    pass
            except ChildProcessError:
                break
            time.sleep(POLL)
    return status


# ---------------------------------------------------------------------------
# OpenSSH

class SshServer:
    """An sshd on 127.0.0.1:PORT (a free port) accepting one generated user
    key, with an ssh_config in which two host aliases reach it with host key
    checking on. Everything lives in `workdir` (created if missing); the only
    path outside it is sshd's privilege separation directory /run/sshd, which
    is created (0755) if missing.

    Attributes: config (ssh_config path), ssh_options (["-F", config]),
    hosts (["alea-t1", "alea-t2"]), port, log (sshd's log file), user (the
    login user: the current one), user_key, known_hosts, workdir.

    `env`, if given, is set in every session (sshd's SetEnv), e.g. a
    SlurmCluster's env so `ssh alea-t1 sbatch ...` reaches that cluster."""

    HOSTS = ["alea-t1", "alea-t2"]

    def __init__(self, workdir, env=None):
        self.workdir = os.path.abspath(workdir)
        os.makedirs(self.workdir, exist_ok=True)
        self.hosts = list(self.HOSTS)
        self.user = pwd.getpwuid(os.getuid()).pw_name
        self.log = os.path.join(self.workdir, "sshd.log")
        self.config = os.path.join(self.workdir, "ssh_config")
        self.ssh_options = ["-F", self.config]
        self.known_hosts = os.path.join(self.workdir, "known_hosts")
        self.user_key = os.path.join(self.workdir, "user_key")
        self._host_key = os.path.join(self.workdir, "host_key")
        self._env = dict(env or {})
        self._daemon = None
        self.port = None
        _LIVE.add(self)
        try:
            self._start()
        except BaseException:
            self.stop()
            raise

    def target_tables(self, workdirs, hosts=None):
        """The campaign file's [[target]] tables of `hosts` (default all),
        each reaching this server through the ssh_config, with its workdir
        (one of `workdirs`, in order)."""
        opts = ", ".join(json.dumps(o) for o in self.ssh_options)
        return "".join(f"""
[[target]]
name = "{host}"
ssh = "{host}"
ssh_options = [{opts}]
workdir = {json.dumps(wd)}
""" for host, wd in zip(hosts or self.hosts, workdirs))

    def _start(self):
        for key in (self._host_key, self.user_key):
            if not os.path.exists(key):
                subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C",
                                os.path.basename(key), "-f", key], check=True)
        shutil.copyfile(self.user_key + ".pub", os.path.join(self.workdir, "authorized_keys"))
        if not os.path.isdir("/run/sshd"):
            os.makedirs("/run/sshd", mode=0o755, exist_ok=True)
        for attempt in range(5):
            self.port = free_ports(1)[0]
            cfg = self._write_sshd_config()
            offset = os.path.getsize(self.log) if os.path.exists(self.log) else 0
            self._daemon = _Daemon("sshd", ["/usr/sbin/sshd", "-D", "-f", cfg, "-E", self.log],
                                   os.path.join(self.workdir, "sshd.out"), log=self.log)
            listening = f"Server listening on 127.0.0.1 port {self.port}."
            try:
                _wait(f"sshd to listen on port {self.port}",
                      lambda: listening in _read_from(self.log, offset), [self._daemon])
                break
            except _Exited as e:
                self._daemon.stop()
                if "Address already in use" not in _read_from(self.log, offset) or attempt == 4:
                    raise RuntimeError(str(e)) from None
        _wait(f"port {self.port} to accept", lambda: _accepts(self.port), [self._daemon])
        with open(self._host_key + ".pub") as f:
            key_type, key = f.read().split()[:2]
        # The entry is for [127.0.0.1]:PORT, the name ssh would look up for
        # this address and port; HostKeyAlias makes both aliases look up
        # exactly that name.
        self._alias = f"[127.0.0.1]:{self.port}"
        with open(self.known_hosts, "w") as f:
            f.write(f"{self._alias} {key_type} {key}\n")
        with open(self.config, "w") as f:
            f.write(f"""\
# Generated by test/e2e/targets_fixture.py for the sshd on 127.0.0.1:{self.port}
Host {" ".join(self.hosts)}
    HostName 127.0.0.1
    Port {self.port}
    User {self.user}
    IdentityFile {self.user_key}
    IdentitiesOnly yes
    UserKnownHostsFile {self.known_hosts}
    GlobalKnownHostsFile /dev/null
    HostKeyAlias {self._alias}
    StrictHostKeyChecking yes
    CheckHostIP no
    UpdateHostKeys no
    BatchMode yes
""")

    def _write_sshd_config(self):
        path = os.path.join(self.workdir, "sshd_config")
        setenv = "".join(f'SetEnv {k}="{v}"\n' for k, v in self._env.items())
        with open(path, "w") as f:
            f.write(f"""\
# Generated by test/e2e/targets_fixture.py; only for tests.
Port {self.port}
ListenAddress 127.0.0.1
HostKey {self._host_key}
PidFile {self.workdir}/sshd.pid
AuthorizedKeysFile {self.workdir}/authorized_keys
AuthenticationMethods publickey
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
PermitRootLogin prohibit-password
# The files live under /tmp, which is writable by all (with the sticky bit).
StrictModes no
X11Forwarding no
PrintMotd no
PrintLastLog no
UseDNS no
# alea may open many connections and sessions at once.
MaxStartups 100
MaxSessions 100
# scp uses the SFTP protocol since OpenSSH 9.0.
Subsystem sftp internal-sftp
LogLevel VERBOSE
# No AcceptEnv: sessions get no variable from the client, only these.
{setenv}""")
        return path

    def kill_sessions(self):
        """SIGKILLs every session: each per-connection sshd child with all its
        descendants (the remote commands too), so every open connection drops
        at once, as on a network failure or a reboot; the listening sshd stays
        and accepts new connections. Returns the number of connections killed.
        Returns once they are all dead."""
        table = _table()
        connections = [p for p, st in table.items()
                       if st[0] == self._daemon.pid and st[1] != "Z"]
        _kill_all(self._daemon.tree)
        return len(connections)

    def processes(self):
        """The processes this fixture runs now (reaper, sshd, sessions), to
        check later with alive()."""
        return self._daemon.processes() if self._daemon else []

    def stop(self):
        """Kills sshd and every session, and waits for them. Idempotent."""
        if self._daemon:
            self._daemon.stop()
        _LIVE.discard(self)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def _read_from(path, offset):
    try:
        with open(path, errors="replace") as f:
            f.seek(offset)
            return f.read()
    except OSError:
        return ""


def _accepts(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            return True
    except OSError:
        return False


# ---------------------------------------------------------------------------
# Slurm

TERMINAL_STATES = {"BOOT_FAIL", "CANCELLED", "COMPLETED", "DEADLINE", "FAILED", "NODE_FAIL",
                   "OUT_OF_MEMORY", "PREEMPTED", "TIMEOUT"}


class SlurmCluster:
    """A one-node Slurm cluster (Debian's slurm-wlm 22.05) under `workdir`:
    its own munged (socket, key, pid, log, seed in workdir), slurmctld and
    slurmd on free ports, all as the current user (root), no cgroups, no
    accounting database. Clients reach it with `env` (SLURM_CONF) merged into
    their environment.

    Attributes: env ({"SLURM_CONF": conf}), conf (slurm.conf path), partition
    ("debug", the default), node (the short host name, the only node), cpus,
    workdir, jobcomp (job completion file, read by `sacct -c`).

    sacct: there is no slurmdbd, so plain `sacct` says "Slurm accounting
    storage is disabled" (status 1); `sacct -c` reads the job completion file
    (jobcomp/filetxt) instead and answers for finished jobs (JobID, State,
    ExitCode, Start, End, Elapsed, NodeList...). Finished jobs stay in
    `scontrol show job` and `squeue -t all` for MinJobAge = 900 s.

    The cluster is up (node idle) in about 0.2 s; slurmctld's first
    scheduling pass comes about 3 s after its start, so the first job starts
    then, later ones within about 1 s of submission."""

    partition = "debug"

    def __init__(self, workdir):
        self.workdir = os.path.abspath(workdir)
        os.makedirs(self.workdir, exist_ok=True)
        self.node = socket.gethostname().split(".")[0]
        self.cpus = os.cpu_count()
        self.conf = os.path.join(self.workdir, "slurm.conf")
        self.jobcomp = os.path.join(self.workdir, "jobcomp.txt")
        self.env = {"SLURM_CONF": self.conf}
        self._munge_socket = os.path.join(self.workdir, "munge.sock")
        self._munged = self._slurmctld = self._slurmd = None
        _LIVE.add(self)
        try:
            self._start()
        except BaseException:
            self.stop()
            raise

    def _path(self, name):
        return os.path.join(self.workdir, name)

    def _start(self):
        key = self._path("munge.key")
        if not os.path.exists(key):
            with open(key, "wb") as f:
                f.write(os.urandom(1024))
            os.chmod(key, 0o400)
        self._munged = _Daemon("munged", [
            "munged", "--foreground", "--force", f"--socket={self._munge_socket}",
            f"--key-file={key}", f"--pid-file={self._path('munged.pid')}",
            f"--log-file={self._path('munged.log')}", f"--seed-file={self._path('munged.seed')}",
        ], self._path("munged.log"))
        _wait("munged's socket", lambda: _unix_accepts(self._munge_socket), [self._munged])
        env = dict(os.environ, **self.env)
        for attempt in range(5):
            ctld_port, d_port = free_ports(2)
            self._write_conf(ctld_port, d_port)
            self._slurmctld = _Daemon("slurmctld", ["slurmctld", "-D", "-f", self.conf],
                                      self._path("slurmctld.out"), env,
                                      log=self._path("slurmctld.log"))
            self._slurmd = _Daemon("slurmd", ["slurmd", "-D", "-f", self.conf],
                                   self._path("slurmd.out"), env, log=self._path("slurmd.log"))
            try:
                _wait(f"node {self.node} idle in sinfo", self._node_idle,
                      [self._slurmctld, self._slurmd])
                return
            except _Exited as e:
                self._slurmd.stop()
                self._slurmctld.stop()
                if "Address already in use" not in _tail(e.daemon.log) or attempt == 4:
                    raise RuntimeError(str(e)) from None

    def _write_conf(self, ctld_port, d_port):
        for d in ("state", "spool"):
            shutil.rmtree(self._path(d), ignore_errors=True)
            os.makedirs(self._path(d))
        with open(self._path("plugstack.conf"), "w"):
            pass  # no SPANK plugins (not /etc/slurm/plugstack.conf)
        with open("/proc/meminfo") as f:
            mem_mib = int(re.search(r"MemTotal:\s+(\d+)", f.read()).group(1)) // 1024
        with open(self.conf, "w") as f:
            f.write(f"""\
# Generated by test/e2e/targets_fixture.py; only for tests.
ClusterName=alea
SlurmctldHost={self.node}
SlurmctldPort={ctld_port}
SlurmdPort={d_port}
AuthType=auth/munge
AuthInfo=socket={self._munge_socket}
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation={self._path("state")}
SlurmdSpoolDir={self._path("spool")}
SlurmctldPidFile={self._path("slurmctld.pid")}
SlurmdPidFile={self._path("slurmd.pid")}
SlurmctldLogFile={self._path("slurmctld.log")}
SlurmdLogFile={self._path("slurmd.log")}
PlugStackConfig={self._path("plugstack.conf")}
MailProg=/bin/true
MpiDefault=none
# No cgroups: processes are tracked through /proc, tasks are not confined.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
# No slurmdbd: sacct works only as `sacct -c`, from this job completion file.
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc={self.jobcomp}
# Finished jobs stay visible to scontrol and squeue for 15 minutes.
MinJobAge=900
ReturnToService=2
# Start batch jobs at once, not up to 3 s later (the default batch_sched_delay).
SchedulerParameters=batch_sched_delay=0
NodeName={self.node} CPUs={self.cpus} RealMemory={max(mem_mib // 2, 1)} State=UNKNOWN
PartitionName={self.partition} Nodes=ALL Default=YES MaxTime=INFINITE State=UP
""")

    def _node_idle(self):
        r = self.run(["sinfo", "-h", "-N", "-n", self.node, "-o", "%T"], timeout=STOP_BOUND)
        return r.returncode == 0 and r.stdout.strip() == "idle"

    def run(self, args, timeout=120, **kw):
        """Runs a Slurm client command against this cluster to its end,
        capturing its output as text (subprocess.CompletedProcess)."""
        env = dict(kw.pop("env", os.environ), **self.env)
        return subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=env,
                              **kw)

    def jobs(self):
        """Every job squeue knows, finished ones included (for MinJobAge):
        a list of dicts with id, state (e.g. RUNNING, COMPLETED, CANCELLED),
        reason, nodes and name."""
        r = self.run(["squeue", "-h", "-a", "-t", "all", "-o", "%i|%T|%r|%N|%j"])
        if r.returncode != 0:
            raise RuntimeError(f"squeue failed: {r.stderr}")
        jobs = []
        for line in r.stdout.splitlines():
            jid, state, reason, nodes, name = line.split("|", 4)
            jobs.append({"id": jid, "state": state, "reason": reason, "nodes": nodes,
                         "name": name})
        return jobs

    def job(self, job_id):
        """`scontrol show job` of one job as a dict (JobState, ExitCode,
        StdOut...), or None if Slurm no longer knows it."""
        r = self.run(["scontrol", "-o", "show", "job", str(job_id)])
        if r.returncode != 0 or not r.stdout.strip():
            return None
        return dict(re.findall(r"([^\s=]+)=(.*?)(?= [^\s=]+=|$)", r.stdout.strip()))

    def wait_job(self, job_id, states=TERMINAL_STATES, bound=240):
        """Waits until the job's JobState is one of `states` (by default: any
        final state) and returns its scontrol dict."""
        def reached():
            info = self.job(job_id)
            return info if info and info.get("JobState") in states else None
        return _wait(f"job {job_id} to reach {sorted(states)}", reached, bound=bound)

    def processes(self):
        """The processes this fixture runs now (reapers, daemons, slurmstepd,
        job processes), to check later with alive()."""
        return [p for d in (self._munged, self._slurmctld, self._slurmd) if d
                for p in d.processes()]

    def stop(self):
        """Cancels every job, then stops slurmd (killing any job process
        left), slurmctld and munged, and waits for them. Idempotent."""
        if all(d and not d.exited() for d in (self._slurmctld, self._slurmd)):
            try:
                self._cancel_all()
            except (RuntimeError, subprocess.TimeoutExpired):
                pass  # the reapers kill whatever is left anyway
        for d in (self._slurmd, self._slurmctld, self._munged):
            if d:
                d.stop()
        _LIVE.discard(self)

    def _cancel_all(self):
        live = [j["id"] for j in self.jobs() if j["state"] not in TERMINAL_STATES]
        if live:
            self.run(["scancel"] + live)
            _wait("the cancelled jobs to end", lambda: all(
                j["state"] in TERMINAL_STATES for j in self.jobs()), bound=30)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def _unix_accepts(path):
    s = socket.socket(socket.AF_UNIX)
    try:
        s.connect(path)
        return True
    except OSError:
        return False
    finally:
        s.close()


if __name__ == "__main__" and sys.argv[1:2] == ["--reap"]:
    sys.exit(_reaper_main(sys.argv[2:]))
