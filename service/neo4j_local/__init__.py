"""The managed local Neo4j: a 5.26 Community server plus APOC Core, resolved from Maven Central.

No Docker engine is needed. The server's jars are resolved once with `mvn dependency:copy-dependencies`
into a git-ignored project folder (`.cognition/dist/`); Maven's own cache (~/.m2) makes later resolutions
offline. Each *instance* (`run` for `make run`, `test` for the throwaway test server) gets a generated Neo4j
home under `.cognition/neo4j/<instance>/` whose data survives restarts, and is driven with the official
launcher (`org.neo4j.server.startup.Neo4jCommand start|stop|status`), the same classes the tarball's
`bin/neo4j` script runs.

Every instance serves Neo4j Browser (`org.neo4j.client:neo4j-browser`, resolved with the server: the server
artifacts do not carry it), advertises its own Bolt and HTTP addresses (so Browser on the test instance connects
to the test instance, not to `run`), and offers the auditor's guide and style on connect: Browser fetches them from
the Cognition service that goes with the instance (`guide_url`, see `LocalInstance.service_port`).
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from neo4j import GraphDatabase
from neo4j.exceptions import AuthError, Neo4jError, ServiceUnavailable
from tenacity import retry, retry_if_exception, stop_after_delay, wait_fixed

NEO4J_VERSION = "5.26.19"
APOC_VERSION = "5.26.19"  # APOC 5.26.19 is built against Neo4j 5.26.19
BROWSER_VERSION = "5.24.0"  # the newest org.neo4j.client:neo4j-browser on Maven Central (checked 2026-12)

_MAVEN_DIR = Path(__file__).parent / "maven"

# The JVM flags the official launcher's default neo4j.conf adds; without the java.nio one the server
# does not start on Java 17.
_JVM_FLAGS = (
    "-XX:+UseG1GC",
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+AlwaysPreTouch",
    "-XX:+UnlockExperimentalVMOptions",
    "-XX:+TrustFinalNonStaticFields",
    "-XX:+DisableExplicitGC",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Djdk.tls.ephemeralDHKeySize=2048",
    "-Djdk.tls.rejectClientInitiatedRenegotiation=true",
    "-XX:FlightRecorderOptions=stackdepth=256",
    "-XX:+UnlockDiagnosticVMOptions",
    "-XX:+DebugNonSafepoints",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
    "-Dlog4j2.disable.jmx=true",
    "-Dlog4j.layout.jsonTemplate.maxStringLength=32768",
)


class LocalNeo4jError(RuntimeError):
    """The managed local Neo4j could not be prepared, started or reached."""


def state_dir() -> Path:
    """The git-ignored project folder that holds the distribution, instances and generated secrets."""
    return Path(os.environ.get("COGNITION_STATE_DIR", Path.cwd() / ".cognition")).resolve()


@dataclass(frozen=True, slots=True)
class LocalInstance:
    name: str
    bolt_port: int
    http_port: int
    heap: str = "1g"
    pagecache: str = "512m"
    # Where the Cognition service that goes with this instance listens; Browser loads the auditor's guide and
    # style from it (`guide_url`).
    service_port: int = 8080
    # APOC triggers on (apoc.conf). Off: a server like the managed Neo4j service, where the service runs under the
    # `queries` scope guard (graph/schema.py).
    apoc_triggers: bool = True

    @property
    def root(self) -> Path:
        return state_dir() / "neo4j" / self.name

    @property
    def conf_dir(self) -> Path:
        return self.root / "conf"

    @property
    def data_dir(self) -> Path:
        return self.root / "data"

    @property
    def logs_dir(self) -> Path:
        return self.root / "logs"

    @property
    def password_file(self) -> Path:
        return self.root / "password"

    @property
    def uri(self) -> str:
        return f"bolt://127.0.0.1:{self.bolt_port}"

    @property
    def browser_url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}/browser/"


def guide_url(service_port: int, host: str = "127.0.0.1") -> str:
    """Where Browser fetches the auditor's guide and style: `COGNITION_BROWSER_GUIDE_URL`, else the service's own
    `/browser-guide` on `host:service_port`. A loopback or wildcard host is written `localhost`: Browser's
    built-in allow-list names localhost, so a guide opened from a link before connecting (when Browser has not
    read the server's allow-list yet) loads too."""
    explicit = os.environ.get("COGNITION_BROWSER_GUIDE_URL")
    if explicit:
        return explicit.rstrip("/")
    if host in ("127.0.0.1", "0.0.0.0", "::", "::1", "localhost", ""):
        host = "localhost"
    return f"http://{host}:{service_port}/browser-guide"


RUN_INSTANCE = LocalInstance("run", 7687, 7474, os.environ.get("COGNITION_NEO4J_HEAP", "1g"),
                             os.environ.get("COGNITION_NEO4J_PAGECACHE", "512m"),
                             int(os.environ.get("COGNITION_PORT", "8080")))


def _ports(var: str, bolt: int, http: int, service: int) -> tuple[int, int, int]:
    """`COGNITION_TEST_PORTS=18687,18474[,18480]` moves an instance (two checkouts testing side by side): Bolt,
    HTTP and, optionally, the port of the service its Browser loads the guide from."""
    value = os.environ.get(var)
    if not value:
        return bolt, http, service
    ports = [int(p) for p in value.split(",")]
    return ports[0], ports[1], ports[2] if len(ports) > 2 else service


_test_bolt, _test_http, _test_service = _ports("COGNITION_TEST_PORTS", 17687, 17474, 17480)
TEST_INSTANCE = LocalInstance("test", _test_bolt, _test_http,
                              os.environ.get("COGNITION_NEO4J_HEAP", "1g"),
                              os.environ.get("COGNITION_NEO4J_PAGECACHE", "512m"), _test_service)
_bench_bolt, _bench_http, _bench_service = _ports("COGNITION_BENCH_PORTS", 27687, 27474, 27480)
BENCH_INSTANCE = LocalInstance("bench", _bench_bolt, _bench_http,
                               os.environ.get("COGNITION_NEO4J_HEAP", "2g"),
                               os.environ.get("COGNITION_NEO4J_PAGECACHE", "1g"), _bench_service)
_nt_bolt, _nt_http, _nt_service = _ports("COGNITION_NOTRIGGER_PORTS", 47687, 47474, 47480)
# APOC triggers off: to try the `queries` scope guard locally (`cognition serve --instance notrigger`); the tests
# of start-up detection use it (tests/integration/test_scope_guard_detect.py).
NOTRIGGER_INSTANCE = LocalInstance("notrigger", _nt_bolt, _nt_http, os.environ.get("COGNITION_NEO4J_HEAP", "512m"),
                                   os.environ.get("COGNITION_NEO4J_PAGECACHE", "256m"), _nt_service,
                                   apoc_triggers=False)
INSTANCES = {i.name: i for i in (RUN_INSTANCE, TEST_INSTANCE, BENCH_INSTANCE, NOTRIGGER_INSTANCE)}


def instance_for(uri: str | None) -> LocalInstance | None:
    """The managed instance a Bolt URI points at, if any (to find its Browser)."""
    return next((i for i in INSTANCES.values() if uri and uri.rstrip("/") == i.uri), None)


def _say(msg: str) -> None:
    print(f"[neo4j] {msg}", file=sys.stderr, flush=True)


def _java() -> str:
    home = os.environ.get("JAVA_HOME")
    java = Path(home) / "bin" / "java" if home else shutil.which("java")
    if not java or not Path(java).exists():
        raise LocalNeo4jError("java (17 or 21) is required to run the local Neo4j; install a JDK or set NEO4J_URI")
    return str(java)


def dist_dir() -> Path:
    # The name carries every pinned version: a distribution resolved before the Browser joined it (or with other
    # versions) is resolved anew rather than reused.
    return state_dir() / "dist" / f"neo4j-{NEO4J_VERSION}-apoc-{APOC_VERSION}-browser-{BROWSER_VERSION}"


def _mvn_copy(pom: Path, out: Path, props: dict[str, str]) -> None:
    mvn = shutil.which("mvn")
    if not mvn:
        raise LocalNeo4jError("Maven (mvn) is required to resolve Neo4j from Maven Central; or set NEO4J_URI")
    cmd = [mvn, "-q", "-B", "-f", str(pom), "dependency:copy-dependencies",
           f"-DoutputDirectory={out}", "-DincludeScope=runtime"]
    cmd += [f"-D{k}={v}" for k, v in props.items()]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise LocalNeo4jError(f"mvn failed resolving {pom.name}:\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}")


def ensure_distribution() -> Path:
    """Resolve Neo4j and APOC jars once; idempotent (a marker file records a finished resolution)."""
    dist = dist_dir()
    marker = dist / ".complete"
    if marker.exists():
        return dist
    _say(f"resolving Neo4j {NEO4J_VERSION} Community, Neo4j Browser {BROWSER_VERSION} and APOC Core {APOC_VERSION}"
         " from Maven Central")
    tmp = dist.with_name(dist.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    (tmp / "lib").mkdir(parents=True)
    _mvn_copy(_MAVEN_DIR / "neo4j-server.pom.xml", tmp / "lib",
              {"neo4j.version": NEO4J_VERSION, "browser.version": BROWSER_VERSION})
    if not any((tmp / "lib").glob(f"neo4j-browser-{BROWSER_VERSION}.jar")):
        raise LocalNeo4jError("Neo4j Browser was not resolved")
    staging = tmp / "apoc-all"
    _mvn_copy(_MAVEN_DIR / "apoc.pom.xml", staging, {"apoc.version": APOC_VERSION})
    # A plugin jar whose artifact the server already ships would put two versions on one classpath.
    shipped = {_artifact_name(p.name) for p in (tmp / "lib").glob("*.jar")}
    (tmp / "plugins").mkdir()
    for jar in staging.glob("*.jar"):
        if _artifact_name(jar.name) not in shipped:
            shutil.copy2(jar, tmp / "plugins" / jar.name)
    shutil.rmtree(staging)
    if not any((tmp / "plugins").glob("apoc-core-*.jar")):
        raise LocalNeo4jError("APOC Core was not resolved")
    (tmp / ".complete").write_text(f"{NEO4J_VERSION} {APOC_VERSION} {BROWSER_VERSION}\n")
    shutil.rmtree(dist, ignore_errors=True)
    tmp.rename(dist)
    return dist


def _artifact_name(jar: str) -> str:
    """`commons-lang3-3.12.0.jar` → `commons-lang3` (the artifact id without its version)."""
    stem = jar.removesuffix(".jar")
    parts = stem.split("-")
    for i, part in enumerate(parts):
        if part[:1].isdigit():
            return "-".join(parts[:i])
    return stem


def browser_conf(inst: LocalInstance, guide: str) -> list[str]:
    """Browser's part of neo4j.conf: the instance's own advertised addresses (discovery, `GET /` on the HTTP
    port, tells Browser where Bolt is), the guide's host allowed for remote content, and the style and guide
    run on connect (Browser prefixes each `;`-separated command with `:`)."""
    guide_host = urlsplit(guide).hostname or "localhost"
    allowed = ",".join(dict.fromkeys(("guides.neo4j.com", "localhost", "127.0.0.1", guide_host)))
    return [
        f"server.bolt.advertised_address=127.0.0.1:{inst.bolt_port}",
        f"server.http.advertised_address=127.0.0.1:{inst.http_port}",
        f"browser.remote_content_hostname_whitelist={allowed}",
        f"browser.post_connect_cmd=style {guide}/style.grass; guide {guide}/auditor.html",
        "client.allow_telemetry=false",  # a local tool: Browser sends no product analytics
    ]


def _write_conf(inst: LocalInstance, dist: Path, guide: str) -> None:
    inst.conf_dir.mkdir(parents=True, exist_ok=True)
    for d in ("data", "logs", "run", "import"):
        (inst.root / d).mkdir(parents=True, exist_ok=True)
    lines = [
        "# Generated by service/neo4j_local/__init__.py on every start; edit that file, not this one.",
        "server.default_listen_address=127.0.0.1",
        f"server.bolt.listen_address=127.0.0.1:{inst.bolt_port}",
        f"server.http.listen_address=127.0.0.1:{inst.http_port}",
        "server.https.enabled=false",
        f"server.directories.data={inst.data_dir}",
        f"server.directories.logs={inst.logs_dir}",
        f"server.directories.run={inst.root / 'run'}",
        f"server.directories.import={inst.root / 'import'}",
        f"server.directories.plugins={dist / 'plugins'}",
        f"server.memory.heap.initial_size={inst.heap}",
        f"server.memory.heap.max_size={inst.heap}",
        f"server.memory.pagecache.size={inst.pagecache}",
        "dbms.security.auth_enabled=true",
        "dbms.security.procedures.unrestricted=apoc.*",
        "dbms.security.procedures.allowlist=apoc.*",
        "db.tx_log.rotation.retention_policy=1 days",
        "dbms.usage_report.enabled=false",
        *browser_conf(inst, guide),
        *[f"server.jvm.additional={flag}" for flag in _JVM_FLAGS],
    ]
    (inst.conf_dir / "neo4j.conf").write_text("\n".join(lines) + "\n")
    # Triggers are off by default; a short refresh makes a freshly installed trigger live within a second.
    (inst.conf_dir / "apoc.conf").write_text(f"apoc.trigger.enabled={str(inst.apoc_triggers).lower()}\n"
                                             "apoc.trigger.refresh=500\n")
    lib = inst.root / "lib"
    if lib.is_symlink() or lib.exists():
        lib.unlink()
    lib.symlink_to(dist / "lib", target_is_directory=True)


def _launcher(inst: LocalInstance, main: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, NEO4J_HOME=str(inst.root), NEO4J_CONF=str(inst.conf_dir))
    env.pop("NEO4J_PASSWORD", None)  # never hand the secret to the JVM's environment
    return subprocess.run([_java(), "-cp", str(inst.root / "lib" / "*"), f"org.neo4j.server.startup.{main}", *args],
                          cwd=inst.root, env=env, capture_output=True, text=True, check=False)


def password_for(inst: LocalInstance) -> str:
    """NEO4J_PASSWORD, or a password generated once into a git-ignored file."""
    env = os.environ.get("NEO4J_PASSWORD")
    if env:
        return env
    if inst.password_file.exists():
        return inst.password_file.read_text().strip()
    inst.root.mkdir(parents=True, exist_ok=True)
    pw = secrets.token_urlsafe(18)
    inst.password_file.write_text(pw + "\n")
    inst.password_file.chmod(0o600)
    _say(f"generated the Neo4j password for user neo4j into {inst.password_file}: {pw}")
    return pw


def status(inst: LocalInstance) -> int | None:
    """The server's pid when it runs, else None."""
    pid_file = inst.root / "run" / "neo4j.pid"
    if not pid_file.exists():
        return None
    try:
        pid = int(pid_file.read_text().strip())
        os.kill(pid, 0)
    except (ValueError, ProcessLookupError, PermissionError):
        return None
    return pid


def start(inst: LocalInstance, *, fresh: bool = False, timeout: float = 180.0, guide: str | None = None) -> str:
    """Start the instance (idempotent) and wait until Bolt answers; return the password. `guide` is where its
    Browser loads the auditor's guide from (default: `guide_url(inst.service_port)`)."""
    dist = ensure_distribution()
    if fresh:
        stop(inst)
        shutil.rmtree(inst.data_dir, ignore_errors=True)
        shutil.rmtree(inst.logs_dir, ignore_errors=True)
    _write_conf(inst, dist, guide or guide_url(inst.service_port))
    password = password_for(inst)
    if status(inst) is None:
        if not (inst.data_dir / "dbms" / "auth.ini").exists():
            # `--`: a password may begin with "-" (a generated one does, one time in 64), not an option.
            proc = _launcher(inst, "Neo4jAdminCommand", "dbms", "set-initial-password", "--", password)
            if proc.returncode != 0:
                raise LocalNeo4jError(f"set-initial-password failed: {proc.stderr[-2000:]}")
        _say(f"starting Neo4j {NEO4J_VERSION} ({inst.name}) on {inst.uri}, http://127.0.0.1:{inst.http_port}")
        proc = _launcher(inst, "Neo4jCommand", "start")
        if proc.returncode != 0 and status(inst) is None:
            raise LocalNeo4jError(
                f"Neo4j did not start:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}\n{_log_tail(inst)}")
    try:
        wait_for_bolt(inst.uri, ("neo4j", password), timeout=timeout)
    except (ServiceUnavailable, OSError) as exc:
        raise LocalNeo4jError(f"Neo4j ({inst.name}) did not answer on {inst.uri}: {exc}\n{_log_tail(inst)}") from exc
    except AuthError as exc:
        raise LocalNeo4jError(
            f"Neo4j ({inst.name}) refused the password: it was set on first start. Use the one in "
            f"{inst.password_file} or unset NEO4J_PASSWORD (or remove {inst.data_dir} to start over)") from exc
    return password


def stop(inst: LocalInstance) -> bool:
    """Stop the instance if it runs; True when it was running."""
    if status(inst) is None:
        return False
    _say(f"stopping Neo4j ({inst.name})")
    _launcher(inst, "Neo4jCommand", "stop")
    return True


def _log_tail(inst: LocalInstance) -> str:
    log = inst.logs_dir / "neo4j.log"
    return "\n".join(log.read_text(errors="replace").splitlines()[-30:]) if log.exists() else "(no neo4j.log)"


def _retryable(exc: BaseException) -> bool:
    # A wrong password will not get better by waiting; anything else may be the server still starting.
    return isinstance(exc, (ServiceUnavailable, OSError, Neo4jError)) and not isinstance(exc, AuthError)


def wait_for_bolt(uri: str, auth: tuple[str, str], *, timeout: float = 180.0) -> None:
    """Block until the server answers a query (not merely accepts a socket)."""

    @retry(retry=retry_if_exception(_retryable), stop=stop_after_delay(timeout), wait=wait_fixed(0.5), reraise=True)
    def _probe() -> None:
        with GraphDatabase.driver(uri, auth=auth, connection_timeout=2.0) as drv:
            drv.execute_query("RETURN 1")  # the default database, once it is online

    _probe()


# ---- backup and restore (offline, with the server's own neo4j-admin) -------------------------------------------

def _admin(inst: LocalInstance, *args: str) -> None:
    proc = _launcher(inst, "Neo4jAdminCommand", *args)
    if proc.returncode != 0:
        raise LocalNeo4jError(f"neo4j-admin {' '.join(args[:2])} failed:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")


def backup(inst: LocalInstance, to: Path, *, database: str = "neo4j") -> Path:
    """An offline dump of the instance's database (`neo4j-admin database dump`) into the file `to`. A running
    instance is stopped for the dump and started again after it (Community dumps only a stopped database)."""
    dist = ensure_distribution()
    _write_conf(inst, dist, guide_url(inst.service_port))
    was_running = stop(inst)
    to = to.resolve()
    to.parent.mkdir(parents=True, exist_ok=True)
    work = to.parent / f".{to.name}.partial"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    try:
        _say(f"dumping {database} of ({inst.name}) to {to}")
        _admin(inst, "database", "dump", database, f"--to-path={work}", "--overwrite-destination=true")
        (work / f"{database}.dump").replace(to)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if was_running:
            start(inst)
    return to


def restore(inst: LocalInstance, dump: Path, *, database: str = "neo4j") -> None:
    """Replace the instance's database with a dump (`neo4j-admin database load --overwrite-destination`). The
    instance is stopped for the load and started after it (also when it was not running: a restore is checked
    by the server opening the store). Users, passwords and the scope-invariant trigger live in the `system`
    database, which a restore leaves as it is."""
    dump = dump.resolve()
    if not dump.is_file():
        raise LocalNeo4jError(f"no dump file {dump}")
    dist = ensure_distribution()
    _write_conf(inst, dist, guide_url(inst.service_port))
    stop(inst)
    work = inst.root / "restore"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    try:
        # neo4j-admin reads `<database>.dump` from a folder.
        os.link(dump, work / f"{database}.dump") if dump.stat().st_dev == work.stat().st_dev \
            else shutil.copy2(dump, work / f"{database}.dump")
        _say(f"loading {dump} into {database} of ({inst.name})")
        _admin(inst, "database", "load", database, f"--from-path={work}", "--overwrite-destination=true")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    start(inst)
