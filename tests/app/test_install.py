"""firestep installs like Python software (issue 43): the wheel built from the repository carries every
template, static file and migration, and installed alone (`--no-deps`, into a fresh environment that sees the
test environment's packages) it serves, serves a club, migrates and stops cleanly, started from an empty
folder outside the checkout. The wheel is built and installed once for the module.

Linux only: the default data folder is pointed at a temporary one through XDG_DATA_HOME, and the server's
processes are found through /proc (by session: each server starts its own)."""

from __future__ import annotations

import base64
import functools
import hashlib
import http.client
import json
import os
import re
import shutil
import signal
import site
import sqlite3
import subprocess
import sys
import time
import tomllib
import zipfile
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from packaging.requirements import Requirement

from app.core.db import alembic_config, current_revision, head_revision, make_engine, migrate, schema_drift
from app.guard.auth import COOKIE_NAME
from tests.app.club.served import free_port, free_ports, trusting_only
from tests.app.core.test_migration_history import check_seeded_and_remove, seed_plan_and_hand

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="XDG_DATA_HOME and /proc are Linux's")

ROOT = Path(__file__).resolve().parents[2]
# What the build reads; the repository's folders and where the package carries them.
SOURCES = ("pyproject.toml", "setup.py", "README.md", "app", "rules", "playsheets", "frontend", "migrations")
PACKAGED = {"app": "app", "rules": "rules", "playsheets": "playsheets", "frontend": "app/frontend"}
PACKAGED["migrations"] = "app/migrations"
# Seconds for the server and every process it started to be gone: a deadline that it stops, not how fast. A quiet
# machine takes about one; one fresh-clone run at load 11 took over 5 (the app's own graceful period is 5 s).
STOPPED_WITHIN = 30.0
WARNINGS = ("Warning", "Traceback", "leaked")


def repository_files(folder: str) -> set[str]:
    return {
        p.relative_to(ROOT / folder).as_posix()
        for p in (ROOT / folder).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    }


def made_once(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]) -> Path:
    """A folder `make` fills once for the whole run: under xdist by the first worker to need it (a file lock in
    the run's own folder, as tests/conftest.py makes the SQLite template), and then only read by each, where
    each worker that ran a test of this module built and installed its own (~8 s of CPU each)."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        folder = tmp_path_factory.mktemp(name)
        make(folder)
        return folder
    from filelock import FileLock

    folder = tmp_path_factory.getbasetemp().parent / name  # the run's own folder, never an earlier run's
    made = folder.with_name(f"{name}.made")
    with FileLock(f"{folder}.lock"):
        if not made.exists():
            shutil.rmtree(folder, ignore_errors=True)  # a start that failed half-way
            folder.mkdir()
            make(folder)
            made.touch()
    return folder


def repository_version() -> str:
    """The version a build of this checkout has (setup.py): 0.1.N, N the commits to its HEAD."""
    count = subprocess.run(
        ["git", "rev-list", "--count", "HEAD"], cwd=ROOT, check=True, capture_output=True, text=True
    )
    return f"0.1.{count.stdout.strip()}"


def build_wheel(base: Path) -> None:
    """Built from a copy of the sources, so that no build/ folder left in the checkout can add stale files, in
    a clone of the repository sharing its history (no file checked out: the copies are the checkout's as they
    stand), from which the build counts the commits to its version."""
    source = base / "firestep"
    clone = ["git", "clone", "--quiet", "--shared", "--no-checkout", str(ROOT), str(source)]
    subprocess.run(clone, check=True, capture_output=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in SOURCES:
        if not (ROOT / name).exists():
            continue  # the build goes on without it, and the checks below find what it lacks
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=ignore)
        else:
            shutil.copy2(ROOT / name, source / name)
    run = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(base / "dist"), str(source)]
    subprocess.run(run, check=True, capture_output=True)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    (built,) = (made_once(tmp_path_factory, "firestep-wheel", build_wheel) / "dist").glob("firestep-*.whl")
    return built


@dataclass
class Installed:
    bin: Path
    home: Path  # XDG_DATA_HOME: the user's data folder is home/firestep

    def env(self, **settings: str) -> dict[str, str]:
        """A user's environment: no FIRESTEP_ setting but those given, nothing on PYTHONPATH."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("FIRESTEP_") and k != "PYTHONPATH"}
        return {**env, "XDG_DATA_HOME": str(self.home), **settings}

    def firestep(self, *args: str, cwd: Path, **settings: str) -> subprocess.CompletedProcess[str]:
        command = [str(self.bin / "firestep"), *args]
        return subprocess.run(command, cwd=cwd, env=self.env(**settings), capture_output=True, text=True)


def install(wheel: Path, venv: Path) -> None:
    """The wheel alone (`--no-deps`) in a new environment that sees the test environment's packages."""
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", "--system-site-packages", venv], check=True
    )
    python = venv / "bin" / "python"
    # The dependencies are the test environment's: when it is itself a venv, the new one's "system" is the
    # base interpreter, so its site folders are named too. A .pth line adds a folder without reading the
    # .pth files in it, so the test environment's editable firestep (a finder installed by one) stays out.
    own = subprocess.run(
        [python, "-c", "import site; print(site.getsitepackages()[0])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    Path(own, "test-environment.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    # SMOKE_HIDE_PDF_ENGINE hides the PDF engine from this copy's every process: `import weasyprint` fails, as
    # where Pango is missing (a Windows laptop without MSYS2's, a Mac without Homebrew's).
    hide = 'import os, sys; os.environ.get("SMOKE_HIDE_PDF_ENGINE") and sys.modules.setdefault("weasyprint", None)'
    Path(own, "hide-pdf-engine.pth").write_text(hide + "\n")
    pip = [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "-q"]
    subprocess.run([*pip, wheel], check=True, capture_output=True)
    found = subprocess.run(
        [python, "-c", "import app, app.frontend; print(app.__file__, app.frontend.__file__)"],
        cwd=venv,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert all(Path(p).is_relative_to(Path(own)) for p in found.split()), (
        found
    )  # the wheel's, not the checkout


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Installed:
    venv = made_once(tmp_path_factory, "firestep-venv", functools.partial(install, wheel))
    # Each worker's own user data folder: the environment is shared, what its commands keep is not.
    return Installed(venv / "bin", tmp_path_factory.mktemp("xdg-data"))


def test_the_wheel_holds_every_template_static_file_migration_and_scenario(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder, inside in PACKAGED.items():
        missing = sorted(f for f in repository_files(folder) if f"{inside}/{f}" not in names)
        assert missing == [], f"{folder}/ files the wheel lacks"
    assert "app/frontend/static/vendor/leaflet/leaflet.js" in names
    assert "app/migrations/manifest.json" in names
    assert "rules/flanders_fields/data/scenarios/mons-1914.json" in names
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]


# -- serving from an empty folder ------------------------------------------------------------------------------
def session_processes(session: int) -> list[str]:
    """The live processes of a session (a server started with start_new_session, and all it started)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # ended while listed
        state, _ppid, _group, sid = stat.rsplit(")", 1)[1].split()[:4]
        if int(sid) == session and state != "Z":
            found.append(f"{entry.name} {command}")  # whole: a long temporary path pushes words far along
    return found


def wait_for(what: str, ready: Callable[[], bool], seconds: float, log: Path) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        assert time.monotonic() < deadline, f"{what} did not happen: {log.read_text()[-3000:]}"
        time.sleep(0.05)


def answers(port: int, path: str = "/healthz") -> bool:
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("GET", path)
        return conn.getresponse().status == 200
    except OSError:
        return False


@dataclass
class Server:
    proc: subprocess.Popen[bytes]
    log: Path

    def worker_started(self) -> bool:
        return any("spawn_main" in p for p in session_processes(self.proc.pid))

    def stop(self, signum: int, group: bool = False) -> str:
        """Send the signal (to every process of the command when `group`, as a terminal's Ctrl-C does); the
        server and everything it started must be gone within STOPPED_WITHIN seconds. What it printed."""
        wait_for("the rehearsal worker's start", self.worker_started, 60, self.log)
        sent = time.monotonic()
        (os.killpg if group else os.kill)(self.proc.pid, signum)
        self.proc.wait(STOPPED_WITHIN)
        while (left := session_processes(self.proc.pid)) and time.monotonic() - sent < STOPPED_WITHIN:
            time.sleep(0.05)
        assert left == [], f"left running {time.monotonic() - sent:.1f} s after signal {signum}"
        return self.log.read_text()


@contextmanager
def serving(
    installed: Installed, folder: Path, args: list[str], port: int, ready: str = "/healthz", **settings: str
) -> Iterator[Server]:
    folder.mkdir(exist_ok=True)
    log = folder.parent / f"{folder.name}.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [str(installed.bin / "firestep"), *args],
            cwd=folder,
            env=installed.env(**settings),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server = Server(proc, log)
    try:
        wait_for("the server's start", lambda: answers(port, ready) or proc.poll() is not None, 120, log)
        assert proc.poll() is None, log.read_text()
        yield server
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@pytest.mark.long
def test_installed_club_server_answers_trust_and_https_and_stops_on_sigterm(
    installed: Installed, tmp_path: Path
) -> None:
    https, plain = free_ports(2)
    args = ["serve", "--club", "--host", "127.0.0.1", "--port", str(https), "--http-port", str(plain)]
    var = tmp_path / "data"
    with serving(installed, tmp_path / "club", args, plain, "/trust", FIRESTEP_VAR_DIR=str(var)) as server:
        context = trusting_only((var / "club" / "authority.crt").read_bytes())
        conn = http.client.HTTPSConnection("127.0.0.1", https, context=context, timeout=30)
        conn.request("GET", "/lookup")
        assert conn.getresponse().status == 200
        # Closed as a browser closes on the server's TLS close_notify (an idle client that never reads would
        # hold the graceful shutdown for FIRESTEP_GRACEFUL_SHUTDOWN_SECONDS).
        conn.close()
        printed = server.stop(signal.SIGTERM)
    assert server.proc.returncode == -signal.SIGTERM
    assert not [w for w in WARNINGS if w in printed], printed[-3000:]


@pytest.mark.long
def test_installed_firestep_serves_from_an_empty_folder_and_a_kill_9_leaves_no_process_of_it(
    installed: Installed, tmp_path: Path
) -> None:
    """`firestep serve` of the installed copy from an empty folder, in the user's own data folder (no FIRESTEP_
    setting, no ./var): it migrates, loads the demo game and says how to sign in at the port served (once
    tests/app/test_cli.py's too, from the checkout); its pages and a PDF; then kill -9, and its rehearsal worker ends through
    its watchdog. Ctrl-C to the process group (nothing left, nothing printed but the shutdown) is the workflow's
    smoke test's, below, where this test stopped a server of its own on it before issue 65."""
    laptop = tmp_path / "Desktop"
    laptop.mkdir()
    assert installed.firestep("--version", cwd=laptop).stdout.strip() == f"firestep {repository_version()}"
    data = installed.home / "firestep"  # the user's data folder: no FIRESTEP_ setting, no ./var
    about = installed.firestep("--help", cwd=laptop, COLUMNS="200").stdout
    assert f"Data folder: {data}" in about and f"{data / 'club'}" in about and "Logs:" in about
    port = free_port()
    with serving(installed, laptop, ["serve", "--port", str(port)], port) as server:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

        # The demo game `serve` loaded, and its referee's token as `serve` printed it.
        referee = re.search(r"referee token: (\S+)", server.log.read_text())
        assert referee is not None, server.log.read_text()
        seat = {"Cookie": f"{COOKIE_NAME}={referee[1]}"}  # as the start page's sign-in leaves it

        def get(path: str) -> bytes:
            conn.request("GET", path, headers=seat)
            answer = conn.getresponse()
            body = answer.read()
            assert answer.status == 200, (path, answer.status, body[:300])
            return body

        # The sign-in line names the address served (--port), not the configured one.
        assert f"open http://127.0.0.1:{port}/ in a browser on this laptop and" in server.log.read_text()
        health = json.loads(get("/healthz"))
        assert health["status"] == "ok" and health["revision"] == head_revision(), health
        game_id = json.loads(get("/api/v1/games"))[0]["id"]
        for page in ("/", "/lookup", f"/games/{game_id}/map", "/scenarios/new", "/docs"):
            assert b"<html" in get(page).lower(), page
        assert get("/static/vendor/leaflet/leaflet.js")
        assert get("/playsheets/early.pdf?paper=a4").startswith(b"%PDF")
        assert (data / "firestep.db").is_file() and list(laptop.iterdir()) == []
        conn.close()
        printed = server.log.read_text()  # (after kill -9 the resource tracker reports its semaphores leaked)
        assert not [w for w in WARNINGS if w in printed], printed[-3000:]
        server.stop(signal.SIGKILL)  # the rehearsal worker ends through its watchdog


# -- the install smoke test of .github/workflows/install.yml ----------------------------------------------------
SMOKE = ROOT / "tests" / "smoke" / "install_smoke.py"


@pytest.mark.long
def test_the_workflows_install_smoke_test(installed: Installed, tmp_path: Path) -> None:
    """The script the workflow runs on Windows, macOS and Linux after its pipx install, here on this copy, twice
    as the workflow runs it: from an empty folder and the user's own data folder, doctor, serve --club, its
    pages, Ctrl-C, nothing left, and (here) no warning in what the server printed; then again with the PDF
    engine hidden, on the data folder the first run left (the workflow's second run, uv's, finds the first's):
    serve prints no referee token, and the script asks `firestep credentials` for one."""
    data = tmp_path / "user-data"
    for pdf in (True, False):
        work = tmp_path / ("with-pdf" if pdf else "pdf-hidden")
        env = {**installed.env(), "XDG_DATA_HOME": str(data)}
        args = [
            sys.executable,
            str(SMOKE),
            "--firestep",
            str(installed.bin / "firestep"),
            "--work",
            str(work),
        ]
        if not pdf:
            env["SMOKE_HIDE_PDF_ENGINE"] = "1"
            args.append("--no-pdf")
        run = subprocess.run(args, env=env, capture_output=True, text=True, timeout=600)
        print(run.stdout)  # each step with its time (pytest -rA shows it)
        assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-3000:]
        assert run.stdout.splitlines()[-1].endswith("] passed")
        assert ("firestep credentials" in run.stdout) is not pdf
        assert (data / "firestep" / "firestep.db").is_file()
        assert list((work / "laptop").iterdir()) == []
        printed = (work / "server.log").read_text(errors="replace")  # where the script kept the terminal
        assert "Application shutdown complete" in printed
        assert not [w for w in WARNINGS if w in printed], printed[-3000:]


# -- migrating ----------------------------------------------------------------------------------------------
# The installed command's own code (app.cli.main, what the `firestep` script runs) for each database in turn, in
# one process of the installed copy: its settings read anew from FIRESTEP_DATABASE_URL for each.
MIGRATE_EACH = """
import os, sys
from app.cli import main
from app.core.config import get_settings
for url in sys.argv[1:]:
    os.environ["FIRESTEP_DATABASE_URL"] = url
    get_settings.cache_clear()
    sys.argv = ["firestep", "migrate"]
    try:
        main()
    except SystemExit as done:
        if done.code not in (None, 0):
            raise SystemExit(f"firestep migrate of {url} exited {done.code}") from None
"""


@pytest.mark.long
def test_installed_firestep_migrates_a_database_of_each_revision(
    installed: Installed, tmp_path: Path
) -> None:
    """A SQLite database at each revision of migrations/versions (made by the checkout's migrations, seeded as
    tests/app/core/test_migration_history.py seeds them), upgraded by the installed `firestep migrate`: the
    oldest by the command itself, the others by its code in one process of the installed copy (a process
    each was mostly starting Python: ~17 s of CPU)."""
    scripts = ScriptDirectory.from_config(alembic_config("sqlite://"))
    revisions = [s.revision for s in reversed(list(scripts.walk_revisions()))]  # oldest first
    walked = tmp_path / "walked.db"
    urls = {}
    for revision in revisions:  # one database walked up a revision at a time, copied at each
        migrate(f"sqlite:///{walked}", revision)
        copy = tmp_path / f"at-{revision}.db"
        with closing(sqlite3.connect(walked)) as source, closing(sqlite3.connect(copy)) as target:
            source.backup(target)
        urls[revision] = f"sqlite:///{copy}"
    seeded = {}
    for revision, url in urls.items():
        engine = make_engine(url)
        seeded[revision] = seed_plan_and_hand(engine)
        engine.dispose()
    empty = tmp_path / "empty"
    empty.mkdir()
    settings = {"FIRESTEP_VAR_DIR": str(tmp_path / "data")}
    oldest, *others = urls.values()
    command = installed.firestep("migrate", cwd=empty, FIRESTEP_DATABASE_URL=oldest, **settings)
    assert command.returncode == 0, command.stdout + command.stderr
    # A database no firestep marked (the data folder new to this copy): as one kept by those before the mark.
    assert command.stdout.splitlines() == [
        f"database at head: {oldest}",
        f"Updated from firestep 0.1.0 to {repository_version()}: the data folder {tmp_path / 'data'} is kept, "
        f"its database at revision {head_revision()}.",
    ]
    python = installed.bin / "python"
    run = subprocess.run(
        [python, "-c", MIGRATE_EACH, *others],
        cwd=empty,
        env=installed.env(**settings),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines() == [f"database at head: {url}" for url in others], run.stdout
    for revision, url in urls.items():
        engine = make_engine(url)
        assert current_revision(engine) == head_revision(), revision
        with engine.connect() as conn:
            assert schema_drift(conn) == [], revision
        if (seed := seeded[revision]) is not None:
            check_seeded_and_remove(engine, *seed)
        engine.dispose()
    assert len(revisions) == len(list((ROOT / "migrations" / "versions").glob("*.py")))


# -- updating ------------------------------------------------------------------------------------------------
def older(wheel: Path, version: str, folder: Path) -> Path:
    """The wheel as the build of an earlier commit would be named and labelled: `version` in its name, its
    METADATA and its .dist-info folder, the RECORD's hashes made anew (the code is this one's: what is tested
    is the installers' update and the data folder's, not an old firestep's code)."""
    now = wheel.name.split("-")[1]
    out = folder / wheel.name.replace(f"-{now}-", f"-{version}-")
    source = zipfile.ZipFile(wheel)
    records, record = [], ""
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            name = info.filename.replace(f"firestep-{now}.dist-info/", f"firestep-{version}.dist-info/")
            if name.endswith(".dist-info/RECORD"):
                record = name
                continue
            data = source.read(info)
            if name.endswith(".dist-info/METADATA"):
                data = data.replace(f"\nVersion: {now}\n".encode(), f"\nVersion: {version}\n".encode())
            target.writestr(name, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            records.append(f"{name},sha256={digest},{len(data)}\n")
        target.writestr(record, "".join([*records, f"{record},,\n"]))
    return out


def dependencies_wheel(folder: Path) -> Path:
    """A wheel of one .pth file that shows the tool's environment the test environment's packages (firestep's
    dependencies, installed here once) but its firestep: the installers then install the wheels alone, offline
    (pipx's --preinstall, uv's --with), where each would download some 90 packages."""
    view = folder / "test-environment"
    view.mkdir()
    for site_packages in site.getsitepackages():
        for entry in Path(site_packages).iterdir():
            kept = not entry.name.startswith(("firestep", "__editable__")) and entry.suffix != ".pth"
            if kept and not (view / entry.name).exists():
                (view / entry.name).symlink_to(entry)
    out = folder / "test_environment-1-py3-none-any.whl"
    info = "test_environment-1.dist-info"
    files = {
        "test_environment.pth": f"{view}\n",
        f"{info}/METADATA": "Metadata-Version: 2.1\nName: test-environment\nVersion: 1\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    with zipfile.ZipFile(out, "w") as target:
        for name, text in files.items():
            target.writestr(name, text)
        target.writestr(f"{info}/RECORD", "".join(f"{n},,\n" for n in [*files, f"{info}/RECORD"]))
    return out


def tool_install(installer: str, wheel: Path, folder: Path, first: bool) -> subprocess.CompletedProcess[str]:
    """The README's install (first) or update command for `installer`, the dependencies aside (above)."""
    deps = dependencies_wheel(folder) if first else folder / "test_environment-1-py3-none-any.whl"
    env = {
        **os.environ,
        "PIPX_HOME": str(folder / "pipx"),
        "PIPX_BIN_DIR": str(folder / "bin"),
        "PIPX_MAN_DIR": str(folder / "man"),
        "UV_TOOL_DIR": str(folder / "uv"),
        "UV_TOOL_BIN_DIR": str(folder / "bin"),
        "UV_CACHE_DIR": str(folder / "cache"),
        "UV_OFFLINE": "1",
    }
    if installer == "pipx":  # pipx install --force ./firestep-0.1.N-py3-none-any.whl
        update = [] if first else ["--force"]
        offline = ["--preinstall", str(deps), "--pip-args=--no-deps --no-index"]
        command = [sys.executable, "-m", "pipx", "install", *update, "--python", sys.executable, *offline]
    else:  # uv tool install ./firestep-0.1.N-py3-none-any.whl
        drop = folder / "no-dependencies.txt"  # an override whose marker is never true removes a dependency
        dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
        drop.write_text("".join(f"{Requirement(d).name} ; sys_platform == 'never'\n" for d in dependencies))
        offline = ["--overrides", str(drop), "--with", str(deps)]
        command = [sys.executable, "-m", "uv", "tool", "install", "--python", sys.executable, *offline]
    return subprocess.run([*command, str(wheel)], env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("installer", ["pipx", "uv"])
def test_an_update_to_a_newer_wheel_keeps_the_data_folder_and_says_so(
    wheel: Path, tmp_path: Path, installer: str
) -> None:
    """The organiser installs one build, plays, then installs a newer one as the README's "Update" says: the
    new version runs, and its first start migrates the data folder it finds, naming both versions."""
    version = repository_version()
    assert wheel.name == f"firestep-{version}-py3-none-any.whl"  # each commit a higher version
    before = f"0.1.{int(version.split('.')[-1]) - 1}"
    tool = tmp_path / installer
    tool.mkdir()
    user = Installed(tool / "bin", tmp_path / "user-data")
    laptop = tmp_path / "Desktop"
    laptop.mkdir()
    installs = [tool_install(installer, older(wheel, before, tmp_path), tool, first=True)]
    assert installs[-1].returncode == 0, installs[-1].stdout + installs[-1].stderr
    assert user.firestep("--version", cwd=laptop).stdout == f"firestep {before}\n"
    done = user.firestep("migrate", cwd=laptop)  # as `firestep serve` starts: the data folder, its database
    assert done.returncode == 0 and "Updated" not in done.stdout, done.stdout + done.stderr
    data = user.home / "firestep"
    kept = {name: (data / name).read_bytes() for name in ("secret_key", "firestep.db")}

    installs.append(tool_install(installer, wheel, tool, first=False))
    assert installs[-1].returncode == 0, installs[-1].stdout + installs[-1].stderr
    assert user.firestep("--version", cwd=laptop).stdout == f"firestep {version}\n"
    started = user.firestep("migrate", cwd=laptop)
    assert started.returncode == 0, started.stderr
    assert started.stdout.splitlines()[1:] == [
        f"Updated from firestep {before} to {version}: the data folder {data} is kept, its database at "
        f"revision {head_revision()}."
    ]
    assert {name: (data / name).read_bytes() for name in kept} == kept  # the same key, the same games
