"""A mistake on the `firestep` command line in one sentence with what to type instead (issue 68): a usage
error (an unknown command or option, a value of the wrong kind or out of range), an unknown game, period,
paper, variant, revision or output folder, an address or port `serve` cannot bind. Each sentence goes to
standard error and the command exits non-zero, with no traceback; app.cli says them."""

from __future__ import annotations

import ipaddress
import os
import re
import socket
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

try:  # typer carries its own copy of click from 0.20 on; before, click itself
    from typer._click.exceptions import ClickException, UsageError
except ImportError:  # pragma: no cover - an older typer
    from click.exceptions import ClickException, UsageError  # type: ignore[assignment]

from app.core.platform import bind_as_the_server

__all__ = ["ClickException", "Mistake", "UsageError"]


class Mistake(ClickException):
    """A value the command cannot use, as the one sentence that says so and what to type instead."""

    exit_code = 2  # click's status for a usage error


# The commands as an organiser meets them: --help lists them in this order.
# `league` (its organiser's static site, issue 70), `backup` and `restore` (issue 93) with the other things an
# organiser does, before the setup's own commands; a command not here is listed last and left out of an unknown
# command's "type one of".
ORDER = (
    "doctor",
    "serve",
    "credentials",
    "playsheet",
    "template-kit",
    "league",
    "backup",
    "restore",
    "migrate",
    "demo",
)


def listed(values: Iterable[Any]) -> str:
    """'a, b or c'."""
    words = [str(v) for v in values]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def usage_sentence(error: ClickException) -> str:
    """click's usage error (a command, option or value the command line does not take) in one sentence: its
    message, then what to type (a group's commands, or the command's --help, which lists its options)."""
    message = error.format_message().strip().rstrip(".")
    if isinstance(error, Mistake):
        return f"{message}."
    message = f"{message[:1].upper()}{message[1:]}"
    message = re.sub(r"\. Did you mean (.+)\?$", r" (did you mean \1?)", message)  # one sentence
    ctx = getattr(error, "ctx", None)
    path = ctx.command_path if ctx is not None else "firestep"
    commands = getattr(ctx.command, "commands", None) if ctx is not None else None
    if commands and message.startswith("No such command"):
        return f"{message}: type one of {listed(c for c in ORDER if c in commands)} (see {path} --help)."
    return f"{message}: see {path} --help."


def games_sentence(game_id: int | None, games: list[tuple[int, str]]) -> str:
    """What `firestep credentials` says when its game is not named or not found: the games there are."""
    unknown = "Name the game" if game_id is None else f"There is no game {game_id} in this database"
    if not games:
        return f"{unknown}: it has no game yet (firestep demo loads one; the start page creates them)."
    shown = [f"{number} ({name})" for number, name in games[:12]]
    more = f", and {len(games) - 12} more" if len(games) > 12 else ""
    return f"{unknown}: type firestep credentials {listed(shown)}{more}."


def check_output(path: str, example: str) -> None:
    """Refuse, before a PDF is made, a file that cannot be written there (its folder missing or not ours)."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        raise Mistake(f"{path} is a folder: name a file in it, e.g. -o {target / example}")
    if not folder.is_dir():
        raise Mistake(f"The folder {folder} does not exist: make it, or write here: -o {example}")
    if not os.access(folder, os.W_OK):
        raise Mistake(f"The folder {folder} is not writable by you: write elsewhere, e.g. -o {example}")


def write_output(path: str, made: bytes, example: str) -> None:
    """Write the PDF made to `path`, a system's refusal said as a mistake (the checks before cannot know every
    file a system refuses: a read-only or virtual file system, a file another program holds)."""
    try:
        Path(path).write_bytes(made)
    except OSError as e:
        raise Mistake(
            f"{path[:60]} cannot be written ({e.strerror}): write elsewhere, e.g. -o {example}"
        ) from None


def check_binding(host: str, port: int, option: str) -> None:
    """Refuse, before anything starts, an address this laptop does not have or a port something holds: uvicorn
    would say it in log lines after the application had started."""
    try:
        family, kind, proto, _name, where = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError):
        raise Mistake(
            f"This laptop has no address {host}: give --host 127.0.0.1 (this laptop only) or --host 0.0.0.0 "
            "(every network it is on)"
        ) from None
    with socket.socket(family, kind, proto) as s:
        bind_as_the_server(s)
        try:
            s.bind(where)
        except OSError as e:
            taken = e.errno in (98, 48, 10048)  # EADDRINUSE on Linux, macOS, Windows
            if not taken:
                raise Mistake(
                    f"This laptop has no address {host} ({e.strerror}): give --host 127.0.0.1 or --host 0.0.0.0"
                ) from None
            raise Mistake(
                f"Port {port} is taken on {host} (another program, or a firestep already serving): stop it, or "
                f"serve on another port with {option} N"
            ) from None


def club_reach(host: str, lan: list[str]) -> str | None:
    """What a club server bound to `host` cannot reach, in one sentence with what to do, or None when the
    club's tablets reach it: a loopback --host, or every interface on a laptop with no network address yet."""
    if loopback(host):
        return f"Only this laptop reaches {host}: leave out --host to serve the club's network."
    if host in ("0.0.0.0", "::") and not lan:
        return "No network yet, so only this laptop reaches it: join the club's wifi, then start it again."
    return None


def loopback(host: str) -> bool:
    """Whether only this laptop reaches the address (127.0.0.1, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@contextmanager
def said_as_options() -> Iterator[None]:
    """A value the rules refuse (an unknown period, paper, erratum or reading) as the option's one sentence,
    naming the values it takes."""
    from rules.core.errors import RulesError

    try:
        yield
    except RulesError as e:
        said = f"{e.reason[:1].upper()}{e.reason[1:]}"
        allowed = listed(e.allowed or ["?"])
        if e.field in ("period", "paper"):
            raise Mistake(f"{said}: give --{e.field} {allowed}") from None
        if e.field.startswith("variants."):  # a reading the erratum does not have
            erratum = e.field.removeprefix("variants.")
            raise Mistake(f"{said}: give --variant {erratum}:READING, READING {allowed}") from None
        raise Mistake(f"{said}: give --variant ERRATUM:READING, ERRATUM {allowed}") from None


def said(error: BaseException) -> str | None:
    """A first-run or misconfiguration error in one sentence saying what to do (no traceback); None for an
    error of firestep itself, which keeps its traceback."""
    from pydantic import ValidationError
    from sqlalchemy.exc import ArgumentError, OperationalError

    from app.core.datafolder import PrivateFolderError, ServedElsewhere
    from app.core.db import SchemaError

    if isinstance(error, SchemaError | ServedElsewhere):
        return str(error)
    if isinstance(error, PrivateFolderError):
        return f"{str(error)[:1].upper()}{str(error)[1:]}."
    if isinstance(error, ArgumentError):
        return "FIRESTEP_DATABASE_URL is not a database URL: correct it (e.g. postgresql+psycopg://user@host/db)."
    if isinstance(error, OperationalError):
        from app.core.config import Settings
        from app.core.database_url import shown

        url = shown(Settings(secret_key="-").database_url)
        reason = str(getattr(error, "orig", error)).strip().splitlines()[0][:200]
        return f"The database {url} cannot be opened ({reason}): start it, or correct FIRESTEP_DATABASE_URL."
    if isinstance(error, ValidationError):  # a setting of the environment or .env (app.core.config)
        first = error.errors()[0]
        name = "FIRESTEP_" + str(first["loc"][0]).upper() if first["loc"] else "A FIRESTEP_ setting"
        return f"{name}={str(first.get('input'))[:20]!r} is not a value it takes: correct it in the environment or .env."
    if isinstance(error, OSError) and error.filename is not None and (unusable := unmade(error)) is not None:
        return unusable
    if isinstance(error, PermissionError | IsADirectoryError | NotADirectoryError):  # a path of no setting's
        return f"{error.strerror}: {error.filename}: set FIRESTEP_VAR_DIR to a folder of your own and start again."
    return None


def unmade(error: OSError) -> str | None:
    """A folder or file of firestep's own the system would not make or write, in one sentence naming the
    setting to change (app.core.datafolder.unusable); None for any other path, whose error is firestep's own
    and keeps its traceback."""
    from app.core.config import Settings
    from app.core.datafolder import unusable

    try:
        settings = Settings(secret_key="-")  # a stand-in: reading the settings writes nothing
    except Exception:
        return None
    return unusable(error, settings.var_dir, settings.database_url)


# The commands that keep or read games in the database: FIRESTEP_DATABASE_URL is checked before they start.
KEEPING = ("serve", "migrate", "demo", "credentials", "league", "backup", "restore")


def check_database(command: str | None) -> None:
    """Refuse, before `command` opens or makes anything, a database URL firestep cannot keep its data in
    (app.core.database_url: one sentence naming FIRESTEP_DATABASE_URL, said as a SchemaError is)."""
    if command not in KEEPING:
        return
    from app.core.config import Settings
    from app.core.database_url import check_url

    try:
        url = Settings(secret_key="-").database_url  # a stand-in: reading the settings writes nothing
    except Exception:
        return  # said as the command reads them
    check_url(url)
