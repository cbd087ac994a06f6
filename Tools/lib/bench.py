"""What the benchmarks share: a release build, a throwaway PostgreSQL, the server binary on it."""
import json, os, pathlib, platform, re, shutil, signal, subprocess, sys, time, types
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
PGBIN = sorted(pathlib.Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name))[-1]


def sh(*args, **kwargs):
    return subprocess.run(args, check=True, text=True, capture_output=True, **kwargs).stdout


def build_release():
    """The folder of the release binaries: CONSTELLATION_BIN_DIR if set (as the tests and the demos
    take it), else every product built in release mode."""
    if os.environ.get("CONSTELLATION_BIN_DIR"):
        return pathlib.Path(os.environ["CONSTELLATION_BIN_DIR"])
    print("bench: building in release mode…", file=sys.stderr)
    subprocess.run(["swift", "build", "-c", "release"], cwd=ROOT, check=True, capture_output=True)
    return pathlib.Path(sh("swift", "build", "-c", "release", "--show-bin-path", cwd=ROOT).strip())


def start_postgres(work, settings=()):
    """A cluster in `work` with PostgreSQL's default durability (fsync on) unless `settings` say
    otherwise (`("fsync=off",)`): both sides of a comparison run on it and pay the same commits."""
    as_postgres = ["setpriv", "--reuid", "postgres", "--regid", "postgres", "--clear-groups"] if os.getuid() == 0 else []
    if os.getuid() == 0:
        shutil.chown(work, "postgres", "postgres")
    subprocess.run(as_postgres + [PGBIN / "initdb", "-A", "trust", "-U", "postgres", "--no-locale", "-E", "UTF8", "-D", work / "data"],
                   check=True, capture_output=True)
    options = [arg for setting in ("listen_addresses=", "max_connections=100", *settings) for arg in ("-c", setting)]
    process = subprocess.Popen(as_postgres + ["--pdeathsig", "TERM", "--", PGBIN / "postgres", "-D", work / "data", "-k", work, *options],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        if subprocess.run([PGBIN / "pg_isready", "-q", "-h", work]).returncode == 0:
            break
        time.sleep(0.1)
    conninfo = f"host={work} user=postgres dbname=postgres"
    return process, conninfo


def start_server(bin_dir, conninfo, work, environment=None, port=0, log_name="server.log"):
    """The release server on a free loopback port (or `port`: started again where it was), rate limits
    off, its data folder `work`/server (a second one beside it shares it, with a log of its own);
    returns the process and its URL."""
    log = open(work / log_name, "w")
    env = dict(os.environ, DATABASE_URL=conninfo, CONSTELLATION_MAX_REDEMPTIONS="100000", CONSTELLATION_RATE_LIMITS="off",
               LOG_LEVEL="warning", CONSTELLATION_MIGRATIONS_DIR=str(ROOT / "migrations"))
    env.update(environment or {})
    process = subprocess.Popen([bin_dir / "constellation-server", "serve", "--port", str(port), "--data-dir", work / "server"],
                               env=env, stdout=log, stderr=log)
    for _ in range(600):
        match = re.search(r"listening on (http://\S+)", (work / log_name).read_text())
        if match:
            return process, match.group(1)
        time.sleep(0.1)
    sys.exit("bench: the server did not start:\n" + (work / log_name).read_text())


def stop(*processes):
    """Stops the server and PostgreSQL the way Ctrl-C would, and waits for them."""
    for process in processes:
        if process and process.poll() is None:
            process.send_signal(signal.SIGINT)
            process.wait(timeout=60)


def load_tool(name):
    """Another benchmark (`Tools/NAME`, a script without `.py`) as a module, to reuse its helpers."""
    path = ROOT / "Tools" / name
    module = types.ModuleType(name.replace("-", "_"))
    module.__file__ = str(path)
    exec(compile(path.read_text(), path, "exec"), module.__dict__)
    return module


def cpu_seconds(pid, with_children=False):
    """CPU time (user + system) of process `pid` so far; `with_children` adds its children's, live
    (from their own counters) and ended (as the kernel folds them into the parent): PostgreSQL's
    whole CPU, backends included, from its postmaster's pid."""
    ticks = os.sysconf("SC_CLK_TCK")

    def fields(process):
        with open(f"/proc/{process}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()

    own = fields(pid)
    total = int(own[11]) + int(own[12]) + (int(own[13]) + int(own[14]) if with_children else 0)
    if with_children:
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    child = fields(entry)
                except OSError:
                    continue
                if int(child[1]) == pid:
                    total += int(child[11]) + int(child[12])
    return total / ticks


def graph_metrics(url):
    """The server's graph work so far, from its /metrics: by (what, kind, part), the sum ("sum", seconds) and
    count ("count") of the turns each kind of computation waited for ("wait") and of its runs ("run")."""
    text = urllib.request.urlopen(url + "/metrics", timeout=30).read().decode()
    found = {}
    for line in text.splitlines():
        for name, what in (("constellation_graph_wait_duration_seconds", "wait"), ("constellation_graph_computation_duration_seconds", "run")):
            for part in ("sum", "count"):
                prefix = f"{name}_{part}{{kind=\""
                if line.startswith(prefix):
                    kind = line[len(prefix):].split('"', 1)[0]
                    found[(what, kind, part)] = float(line.rsplit(" ", 1)[1])
    return found


def wal_counters(conninfo):
    """PostgreSQL's WAL records, full-page images and bytes written so far (`pg_stat_wal`)."""
    output = sh(PGBIN / "psql", conninfo, "-At", "-F", " ", "-c", "SELECT wal_records, wal_fpi, wal_bytes FROM pg_stat_wal")
    records, fpi, size = output.split()
    return int(records), int(fpi), int(size)


def machine():
    """The machine and its load right now, for the header of a benchmark's output."""
    model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), platform.machine())
    return f"{os.cpu_count()} × {model}, load average {' '.join(f'{load:.2f}' for load in os.getloadavg())}"


def migrate(bin_dir, conninfo):
    """Applies the migrations to the database at `conninfo`."""
    subprocess.run([bin_dir / "constellation-server", "migrate", "--log-level", "warning"], check=True, capture_output=True,
                   env={"DATABASE_URL": conninfo, "CONSTELLATION_MIGRATIONS_DIR": str(ROOT / "migrations"), "PATH": "/usr/bin:/bin"})


def import_event(bin_dir, conninfo, path, slug, start=None):
    """`constellation-server import sociopatterns` of a `t i j` file: the event's id and its organizer's key."""
    command = [bin_dir / "constellation-server", "import", "sociopatterns", path, "--event", slug, "--json", "--log-level", "warning"]
    if start:
        command += ["--start", start]
    output = subprocess.run(command, check=True, capture_output=True, text=True,
                            env={"DATABASE_URL": conninfo, "CONSTELLATION_MIGRATIONS_DIR": str(ROOT / "migrations"), "PATH": "/usr/bin:/bin"})
    answer = json.loads(output.stdout)
    return answer["eventId"], answer["organizerKey"]


def api(url, path, key=None, body=None, method=None):
    """One JSON call to the server (POST when there is a body, else GET, unless `method` says) and its answer."""
    request = urllib.request.Request(url + path, method=method or ("POST" if body is not None else "GET"),
                                     data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Content-Type": "application/json", **({"Authorization": f"Bearer {key}"} if key else {})})
    with urllib.request.urlopen(request, timeout=600) as response:
        return json.loads(response.read() or b"null")
