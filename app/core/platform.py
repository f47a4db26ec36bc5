"""Everything firestep does differently on Windows, macOS and Linux, one function per need, each system's
branch side by side: no other module of app/ reads sys.platform (tests/app/core/test_platform.py holds it).
Linux's branches run wherever the suite runs; the Windows and macOS ones only on those systems (the workflow,
.github/workflows/install.yml), and here with sys.platform patched (the README names them).

Windows has no file modes (chmod sets only the read-only flag): a folder is made this user's alone by its
access list, which every file made in it inherits, so a file is private from its first byte there too."""

from __future__ import annotations

import contextlib
import getpass
import os
import socket
import subprocess
import sys
from pathlib import Path

# A lowered process yields the CPU to the server's own process, with a third of the weight of any busy
# process (Linux's CFS weights: 335 at nice 5, 1,024 at 0). At nice 10 (110) a PDF got a tenth of a core beside
# a laptop's busy program and a 2.6 s sheet took ~50 s (a loaded run's tests waited past their deadlines).
NICE = 5
BELOW_NORMAL_PRIORITY_CLASS = 0x4000  # Windows' one step below normal


class PrivateFolderError(RuntimeError):
    """A folder could not be made this user's alone: nothing secret is written in it."""


def system() -> str:
    """This system's name as sys.platform gives it ("linux", "darwin", "win32")."""
    return sys.platform


def _windows() -> bool:
    return sys.platform == "win32"


def private_folder(folder: Path) -> None:
    """The folder, made if need be, that only this user may open: mode 0700; on Windows its access list
    replaced by one entry, full control for this user, inherited by every file made in it (icacls)."""
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    if not _windows():
        folder.chmod(0o700)
        return
    user = os.environ.get("USERNAME") or getpass.getuser()
    domain = os.environ.get("USERDOMAIN")
    who = f"{domain}\\{user}" if domain else user
    command = ["icacls", str(folder), "/inheritance:r", "/grant:r", f"{who}:(OI)(CI)F"]
    try:
        subprocess.run(command, check=True, capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError) as e:
        said = (getattr(e, "stderr", None) or getattr(e, "stdout", None) or str(e)).strip()
        raise PrivateFolderError(
            f"could not make {folder} readable by {who} only ({said}): set FIRESTEP_VAR_DIR to a folder in "
            "your own user profile and start again"
        ) from None


def owner_only(path: Path) -> None:
    """An existing file (an older install's) made readable by its owner only: mode 0600; on Windows nothing,
    the private folder's access list covers it."""
    if not _windows():
        path.chmod(0o600)


def create_owner_only(path: Path) -> None:
    """The file, made empty if absent, readable by its owner only from its first byte (a file already there
    keeps its bytes and is made so); on Windows by the private folder's access list."""
    if _windows():
        path.touch(exist_ok=True)
        return
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    path.chmod(0o600)


def open_to_others(path: Path) -> bool:
    """A file mode that lets other users of the laptop read it; never on Windows (no modes: its folders'
    access lists keep the user's data folder theirs)."""
    return not _windows() and path.stat().st_mode & 0o077 != 0


def sync_folder(folder: Path) -> None:
    """A rename in the folder written to the disk (fsync of the folder); Windows cannot open a folder to sync,
    its rename is on the disk with the file."""
    if _windows():
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def lower_priority() -> None:
    """This process yields the CPU to others: nice 5 (NICE); Windows has no nice(), its priority class one step
    below normal."""
    if _windows():
        import ctypes

        kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
        kernel32.SetPriorityClass(kernel32.GetCurrentProcess(), BELOW_NORMAL_PRIORITY_CLASS)
    else:
        os.nice(NICE)


def bind_as_the_server(s: socket.socket) -> None:
    """A socket set to bind a port as uvicorn binds it, to probe whether the server could: SO_REUSEADDR, so a
    port left in TIME_WAIT is free; on Windows nothing (asyncio sets no reuse there)."""
    if not _windows():
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)


def bind_exclusively(s: socket.socket) -> None:
    """A socket set to bind a port only if no other socket holds it: on Windows SO_EXCLUSIVEADDRUSE (its
    SO_REUSEADDR would let two servers share a port); elsewhere a plain bind already refuses a held port, and
    SO_REUSEADDR, as uvicorn sets it, lets a port left in TIME_WAIT count as free."""
    if _windows():
        s.setsockopt(socket.SOL_SOCKET, socket.SO_EXCLUSIVEADDRUSE, 1)  # type: ignore[attr-defined]
    else:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)


def open_file_limit() -> int:
    """The process's open-file limit, first raised to its hard limit (a process may: many systems start
    servers with a soft limit of 1,024 under a far larger hard one). Windows has no such limit on sockets
    (nor the resource module): a large number, so only the server's timeout guards it there."""
    if _windows():
        return 1 << 20
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
    return soft if soft != resource.RLIM_INFINITY else 1 << 20
