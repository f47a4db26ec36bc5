"""The install smoke test, the same on Windows, macOS and Linux (standard library only: it runs beside an
installed firestep, not inside it). .github/workflows/install.yml runs it on each system's runner, and
`make test` runs it on Linux (tests/app/test_install.py, once with the PDF engine hidden).

    python tests/smoke/install_smoke.py --wheel-dir dist [--installer uv]  # pipx (or uv) installs it first
    python tests/smoke/install_smoke.py --firestep PATH [--no-pdf]    # an installed firestep

From an empty folder, with no FIRESTEP_ setting (the user's own data folder, unless the caller's environment
points it elsewhere): `firestep doctor` (exit 0, or with --no-pdf exit 1 with the PDF engine its one FAIL line),
then `firestep serve --club` on loopback: /trust on the plain port, the start page, a game's map and a
playsheet over HTTPS trusting only the club's authority (the PDF, or with --no-pdf its print view); then the
platform's own interrupt (CTRL_BREAK on Windows, SIGINT to the process group elsewhere, as Ctrl-C in a
terminal) and no process of the server left, no traceback printed."""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WINDOWS = sys.platform == "win32"
STARTED_WITHIN = 240.0  # seconds: a first start migrates a new database (slow on a cold Windows runner)
STOPPED_WITHIN = 15.0  # seconds, for the server and every process it started
COOKIE_NAME = "firestep_token"  # app/guard/auth.py


STARTED = time.monotonic()


def say(text: str) -> None:
    print(f"[smoke {time.monotonic() - STARTED:5.1f} s] {text}", flush=True)


def check(condition: object, what: str) -> None:
    if not condition:
        raise SystemExit(f"[smoke {time.monotonic() - STARTED:5.1f} s] FAILED: {what}")


def two_free_ports() -> tuple[int, int]:
    """Two different ports free now: both sockets stay bound until both are, as one asked for alone is free again
    when its socket closes and may be given to the next ask too."""
    with socket.socket() as first, socket.socket() as second:
        first.bind(("127.0.0.1", 0))
        second.bind(("127.0.0.1", 0))
        return int(first.getsockname()[1]), int(second.getsockname()[1])


def environment() -> dict[str, str]:
    """A user's environment: no FIRESTEP_ setting (the data folder is the user's own), nothing on PYTHONPATH."""
    return {k: v for k, v in os.environ.items() if not k.startswith("FIRESTEP_") and k != "PYTHONPATH"}


# -- installing ----------------------------------------------------------------------------------------------
def install(installer: str, wheel_dir: Path, into: Path) -> Path:
    """The wheel installed as the README says, with pipx or `uv tool install`, its environment and its
    commands in an empty folder; the firestep command."""
    (wheel,) = sorted(wheel_dir.glob("firestep-*.whl"))
    bin_dir = into / "bin"
    if installer == "pipx":
        where = {"PIPX_HOME": str(into / "pipx"), "PIPX_BIN_DIR": str(bin_dir)}
        args = [sys.executable, "-m", "pipx", "install", str(wheel.resolve())]
    else:
        where = {"UV_TOOL_DIR": str(into / "uv"), "UV_TOOL_BIN_DIR": str(bin_dir)}
        args = [
            sys.executable,
            "-m",
            "uv",
            "tool",
            "install",
            "--python",
            sys.executable,
            str(wheel.resolve()),
        ]
    say(f"{installer} install {wheel.name} into {into}")
    subprocess.run(args, env={**environment(), **where}, check=True)
    command = bin_dir / ("firestep.exe" if WINDOWS else "firestep")
    check(command.is_file(), f"{installer} made no {command}")
    return command


# -- the processes of a server ---------------------------------------------------------------------------------
def processes() -> dict[int, tuple[int, str]]:
    """Every process now: pid -> (parent pid, command line)."""
    if WINDOWS:
        script = (
            "Get-CimInstance Win32_Process | ForEach-Object "
            '{ "{0} {1} {2}" -f $_.ProcessId, $_.ParentProcessId, $_.CommandLine }'
        )
        out = subprocess.run(
            ["powershell", "-NoProfile", "-Command", script], capture_output=True, text=True, check=True
        ).stdout
    else:
        out = subprocess.run(
            ["ps", "-ww", "-A", "-o", "pid=,ppid=,args="], capture_output=True, text=True, check=True
        ).stdout
    found = {}
    for line in out.splitlines():
        parts = line.split(None, 2)
        if len(parts) >= 2 and parts[0].isdigit() and parts[1].isdigit():
            found[int(parts[0])] = (int(parts[1]), parts[2] if len(parts) > 2 else "")
    return found


def tree(root: int) -> dict[int, str]:
    """The root and every process it started (their command lines), as they are now."""
    now = processes()
    found = {root: now[root][1]} if root in now else {}
    grew = True
    while grew:
        grew = False
        for pid, (parent, command) in now.items():
            if parent in found and pid not in found:
                found[pid] = command
                grew = True
    return found


def still_running(seen: dict[int, str]) -> list[str]:
    """Those of the processes seen that still run (the same pid with the same command line)."""
    now = processes()
    return [f"{pid} {command}" for pid, command in seen.items() if pid in now and now[pid][1] == command]


# -- the server ------------------------------------------------------------------------------------------------
class Server:
    def __init__(self, firestep: Path, folder: Path, https: int, plain: int) -> None:
        self.https, self.plain, self.log = https, plain, folder.parent / "server.log"
        args = [
            str(firestep),
            "serve",
            "--club",
            "--host",
            "127.0.0.1",
            "--port",
            str(https),
            "--http-port",
            str(plain),
        ]
        # A console program's own process group, as a terminal gives the command it runs: the interrupt
        # reaches the server and all it started, and nothing else.
        group = (
            {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP}  # type: ignore[attr-defined]
            if WINDOWS
            else {"start_new_session": True}
        )
        with self.log.open("wb") as out:
            # Its output goes to a file as a terminal would show it: a console takes every character (the QR
            # code's blocks), where a file on Windows would be written in the locale's code page.
            env = {**environment(), "PYTHONIOENCODING": "utf-8"}
            self.proc = subprocess.Popen(
                args, cwd=folder, env=env, stdout=out, stderr=subprocess.STDOUT, **group
            )

    def printed(self) -> str:
        return self.log.read_text(errors="replace")

    def get(self, path: str) -> tuple[int, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.plain, timeout=60)
        conn.request("GET", path)
        answer = conn.getresponse()
        return answer.status, answer.read()

    def wait_started(self) -> None:
        deadline = time.monotonic() + STARTED_WITHIN
        while True:
            check(self.proc.poll() is None, f"the server ended at its start: {self.printed()[-3000:]}")
            try:
                if self.get("/trust")[0] == 200:
                    return
            except OSError:
                pass
            check(time.monotonic() < deadline, f"the server did not start: {self.printed()[-3000:]}")
            time.sleep(0.2)

    def interrupt(self) -> None:
        """What Ctrl-C in its terminal does: CTRL_BREAK to its console group on Windows (a group of its own
        takes no Ctrl-C), SIGINT to its process group elsewhere."""
        if WINDOWS:
            os.kill(self.proc.pid, signal.CTRL_BREAK_EVENT)  # type: ignore[attr-defined]
        else:
            os.killpg(self.proc.pid, signal.SIGINT)

    def kill(self) -> None:
        if self.proc.poll() is None:
            if WINDOWS:
                subprocess.run(["taskkill", "/F", "/T", "/PID", str(self.proc.pid)], capture_output=True)
            else:
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


def https_get(port: int, path: str, context: ssl.SSLContext, token: str = "") -> tuple[int, bytes]:
    conn = http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=120)
    conn.request("GET", path, headers={"Cookie": f"{COOKIE_NAME}={token}"} if token else {})
    answer = conn.getresponse()
    body = answer.read()
    conn.close()  # as a browser closes on the server's close_notify: an idle client would hold the shutdown
    return answer.status, body


def doctor(firestep: Path, folder: Path, https: int, plain: int, pdf: bool, serving: bool = False) -> None:
    """Before the server: exit 0 (or, without the PDF engine, 1 with that its one FAIL line); while it serves,
    its two ports are FAIL lines naming the firestep server that holds them, and the database line names the
    server running on it."""
    args = [str(firestep), "doctor", "--port", str(https), "--http-port", str(plain)]
    run = subprocess.run(args, cwd=folder, env=environment(), capture_output=True, text=True)
    say(f"firestep doctor (exit {run.returncode}):\n{run.stdout}{run.stderr}")
    failed = [line for line in run.stdout.splitlines() if line.startswith("FAIL")]
    if serving:
        failed = [line for line in failed if not line.startswith("FAIL  PDF engine: ")]
        check(run.returncode == 1 and len(failed) == 2, f"doctor while serving: {failed}")
        for port, line in zip((https, plain), failed, strict=True):  # the server's own, no "another program"
            expected = f"FAIL  port {port}: a firestep server already serves on it: "
            check(line.startswith(expected), f"doctor while serving: {line}")
        check("note  database: a firestep server is already running on " in run.stdout, "no running server")
    elif pdf:
        check(run.returncode == 0 and not failed, "doctor found something a club night needs missing")
    else:
        check(run.returncode == 1, "doctor did not exit non-zero without the PDF engine")
        check(
            len(failed) == 1 and failed[0].startswith("FAIL  PDF engine: "), f"doctor's FAIL lines: {failed}"
        )
    check("Traceback" not in run.stderr, "doctor printed a traceback")


def smoke(firestep: Path, work: Path, pdf: bool = True) -> None:
    laptop = work / "laptop"  # an empty folder: no ./var, nothing of the checkout
    laptop.mkdir(parents=True)
    version = subprocess.run(
        [str(firestep), "--version"], cwd=laptop, env=environment(), capture_output=True, text=True
    )
    check(re.fullmatch(r"firestep \S+\n", version.stdout), f"firestep --version said {version.stdout!r}")
    https, plain = two_free_ports()
    doctor(firestep, laptop, https, plain, pdf)
    server = Server(firestep, laptop, https, plain)
    try:
        server.wait_started()
        status, page = server.get("/trust")
        check(status == 200 and b"<html" in page.lower(), f"/trust answered {status}")
        status, pem = server.get("/trust/firestep-club.pem")
        check(status == 200 and b"BEGIN CERTIFICATE" in pem, f"/trust/firestep-club.pem answered {status}")
        context = ssl.create_default_context(cadata=pem.decode())  # this authority only: no system roots
        context.verify_flags |= ssl.VERIFY_X509_STRICT
        status, page = https_get(https, "/", context)
        check(status == 200 and b"<html" in page.lower(), f"the start page answered {status}")
        status, games = https_get(https, "/api/v1/games", context)  # the lobby: no token needed
        check(status == 200, f"/api/v1/games answered {status}")
        game = json.loads(games)[0]["id"]
        # The referee's token as serve printed it with the demo game, or (a data folder that has its games
        # already) as `firestep credentials` issues one anew.
        printed = server.printed()
        if "referee token:" not in printed:
            say(f"firestep credentials {game}")
            args = [str(firestep), "credentials", str(game)]
            printed = subprocess.run(
                args, cwd=laptop, env=environment(), capture_output=True, text=True
            ).stdout
        referee = re.search(r"referee token: (\S+)", printed)
        check(referee, f"no referee token: {printed[-3000:]}")
        assert referee is not None
        status, page = https_get(https, f"/games/{game}/map", context, referee[1])
        check(status == 200 and b"<html" in page.lower(), f"the game's map answered {status}")
        sheet = "/playsheets/early.pdf?paper=a4" if pdf else "/playsheets/early?paper=a4"
        status, body = https_get(https, sheet, context)
        looks = body.startswith(b"%PDF") if pdf else b"<html" in body.lower()
        check(status == 200 and looks, f"{sheet} answered {status}: {body[:200]!r}")
        say(f"served /trust, /, /games/{game}/map and {sheet}")
        doctor(firestep, laptop, https, plain, pdf, serving=True)
        # Every process of the server, once its rehearsal worker runs (started by multiprocessing's spawn).
        deadline = time.monotonic() + 60
        seen = tree(server.proc.pid)
        while not any("spawn_main" in command for command in seen.values()):
            check(time.monotonic() < deadline, f"no rehearsal worker: {seen}")
            time.sleep(0.2)
            seen = tree(server.proc.pid)
        say(f"{len(seen)} processes; interrupting")
        sent = time.monotonic()
        server.interrupt()
        try:
            server.proc.wait(STOPPED_WITHIN)
        except subprocess.TimeoutExpired:
            check(
                False,
                f"the server still runs {STOPPED_WITHIN} s after the interrupt: {server.printed()[-3000:]}",
            )
        while (left := still_running(seen)) and time.monotonic() - sent < STOPPED_WITHIN:
            time.sleep(0.2)
        check(left == [], f"left running after the interrupt: {left}")
        say(
            f"stopped in {time.monotonic() - sent:.1f} s, exit status {server.proc.returncode}, no process left"
        )
    finally:
        server.kill()
    printed = server.printed()
    check("Traceback" not in printed, f"the server printed a traceback: {printed[-3000:]}")
    check("Application shutdown complete" in printed, f"the server did not shut down: {printed[-3000:]}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    given = parser.add_mutually_exclusive_group(required=True)
    given.add_argument("--wheel-dir", type=Path, help="install the firestep wheel found here first")
    given.add_argument("--firestep", type=Path, help="an installed firestep command")
    parser.add_argument("--installer", choices=("pipx", "uv"), default="pipx", help="with --wheel-dir")
    parser.add_argument(
        "--no-pdf", action="store_true", help="the PDF engine is hidden: expect the print view"
    )
    parser.add_argument("--work", type=Path, help="an empty folder to work in (default: a new temporary one)")
    args = parser.parse_args(argv)
    work = args.work or Path(tempfile.mkdtemp(prefix="firestep-smoke-"))
    firestep = args.firestep or install(args.installer, args.wheel_dir, work / "installed")
    smoke(firestep, work, pdf=not args.no_pdf)
    say("passed")


if __name__ == "__main__":
    main()
