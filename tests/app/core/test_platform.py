"""The platform code behind one module (issue 68): app/core/platform.py alone reads sys.platform, and each of its
needs is met here by this system's own branch (Linux's: the modes, nice, the socket options, the open-file
limit, with the kernel's own answers). The Windows branches run only on Windows (the workflow); here their logic
is held with sys.platform patched: icacls in tests/app/club/test_authority_windows.py and test_data_folder.py,
the priority class and the exclusive bind below, with stand-ins recording what Windows would be asked."""

from __future__ import annotations

import ast
import os
import socket
import stat
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from app.core import platform

APP = Path(__file__).resolve().parents[3] / "app"


def _reads_the_system(tree: ast.AST) -> list[int]:
    """Lines reading sys.platform or os.name (the two ways Python names the system)."""
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and (node.value.id, node.attr) in {("sys", "platform"), ("os", "name")}
    ]


def test_no_module_of_app_but_the_platform_one_reads_which_system_it_runs_on() -> None:
    found = {
        f"{path.relative_to(APP.parent)}:{line}"
        for path in APP.rglob("*.py")
        if path != APP / "core" / "platform.py"
        for line in _reads_the_system(ast.parse(path.read_text(), str(path)))
    }
    assert found == set()
    assert _reads_the_system(ast.parse((APP / "core" / "platform.py").read_text()))  # the check sees one


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.skipif(sys.platform == "win32", reason="modes are Linux's and macOS's")
def test_a_private_folder_and_an_owner_only_file_are_closed_to_other_users(tmp_path: Path) -> None:
    old = os.umask(0o022)  # as most systems' logins set it
    folder = tmp_path / "a" / "data"
    try:
        platform.private_folder(folder)
        made = folder / "made"
        platform.create_owner_only(made)
        older = folder / "older"
        older.write_text("key")
        older.chmod(0o644)
        assert platform.open_to_others(older)
        platform.owner_only(older)
    finally:
        os.umask(old)
    assert (mode(folder), mode(made), mode(older)) == (0o700, 0o600, 0o600)
    assert not platform.open_to_others(made) and older.read_text() == "key"
    platform.sync_folder(folder)  # the folder opens and syncs


@pytest.mark.skipif(sys.platform == "win32", reason="nice() is Linux's and macOS's")
def test_a_lowered_process_runs_at_nice_five_more() -> None:
    code = "import os; from app.core import platform; b = os.nice(0); platform.lower_priority(); print(os.nice(0) - b)"
    said = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert int(said) == platform.NICE == 5


def test_a_port_another_socket_listens_on_cannot_be_bound_exclusively_and_a_freed_one_can() -> None:
    with socket.socket() as held:  # a server, as uvicorn binds one
        platform.bind_as_the_server(held)
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port)) as client:
            served, _ = held.accept()
            with socket.socket() as probe:
                platform.bind_exclusively(probe)
                with pytest.raises(OSError):
                    probe.bind(("127.0.0.1", port))
            served.close()  # the server's side closes first: its end of the connection is left in TIME_WAIT
            client.recv(1)
    for set_up in (platform.bind_exclusively, platform.bind_as_the_server):
        with socket.socket() as probe:
            set_up(probe)
            probe.bind(("127.0.0.1", port))  # free, as the server would find it


def test_the_open_file_limit_is_raised_to_the_hard_one() -> None:
    import resource

    limit = platform.open_file_limit()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert limit == soft == (hard if hard != resource.RLIM_INFINITY else limit)


@pytest.fixture
def windows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "win32")


def test_on_windows_the_process_is_put_one_priority_class_below_normal(
    windows: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Windows has no nice(): the process's priority class (kernel32, a stand-in recording the call)."""
    import ctypes

    calls: list[tuple[Any, ...]] = []
    kernel32 = SimpleNamespace(
        GetCurrentProcess=lambda: "this process", SetPriorityClass=lambda *a: calls.append(a)
    )
    monkeypatch.setattr(ctypes, "windll", SimpleNamespace(kernel32=kernel32), raising=False)
    monkeypatch.setattr(os, "nice", lambda _n: pytest.fail("no nice() on Windows"))
    platform.lower_priority()
    assert calls == [("this process", 0x4000)]  # BELOW_NORMAL_PRIORITY_CLASS


def test_on_windows_a_port_is_probed_for_exclusive_use_and_sockets_have_no_file_limit(
    windows: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Windows' SO_REUSEADDR would let a probe share a port a server holds: SO_EXCLUSIVEADDRUSE there (its
    value in Winsock, absent from Linux's socket module), and no reuse set as the server would bind."""
    monkeypatch.setattr(socket, "SO_EXCLUSIVEADDRUSE", -5, raising=False)
    options: list[tuple[int, int, int]] = []
    probe = SimpleNamespace(setsockopt=lambda *a: options.append(a))
    platform.bind_exclusively(probe)  # type: ignore[arg-type]
    platform.bind_as_the_server(probe)  # type: ignore[arg-type]
    assert options == [(socket.SOL_SOCKET, -5, 1)]
    assert platform.open_file_limit() == 1 << 20
