"""What the benchmarks share: a release build, a throwaway PostgreSQL, the server binary on it."""
import os, pathlib, re, shutil, subprocess, sys, time

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
PGBIN = sorted(pathlib.Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name))[-1]


def sh(*args, **kwargs):
    return subprocess.run(args, check=True, text=True, capture_output=True, **kwargs).stdout


def build_release():
    """Builds every product in release mode and returns the folder of the binaries."""
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


def start_server(bin_dir, conninfo, work, environment=None):
    """The release server on a free loopback port, rate limits off; returns the process and its URL."""
    log = open(work / "server.log", "w")
    env = dict(os.environ, DATABASE_URL=conninfo, CONSTELLATION_MAX_REDEMPTIONS="100000", CONSTELLATION_RATE_LIMITS="off",
               LOG_LEVEL="warning",
               CONSTELLATION_MIGRATIONS_DIR=str(ROOT / "migrations"), **(environment or {}))
    process = subprocess.Popen([bin_dir / "constellation-server", "serve", "--port", "0", "--data-dir", work / "server"],
                               env=env, stdout=log, stderr=log)
    for _ in range(600):
        match = re.search(r"listening on (http://\S+)", (work / "server.log").read_text())
        if match:
            return process, match.group(1)
        time.sleep(0.1)
    sys.exit("bench: the server did not start:\n" + (work / "server.log").read_text())
