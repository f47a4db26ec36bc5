"""Settings from the environment (prefix FIRESTEP_), with defaults that work from a fresh clone and from an
installed package alike."""

from __future__ import annotations

import secrets
from functools import lru_cache
from pathlib import Path

import platformdirs
from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict
from sqlalchemy.engine import URL

from app.core.datafolder import private_folder, write_private
from app.core.platform import owner_only

# The largest legitimate request is a game with a full table of terrain (app.data.bounded.MAX_VERTICES_TOTAL
# vertices at ~40 bytes each written with full float precision, plus MAX_FEATURES property maps) and its forces:
# about 1.3 MB. 2 MiB leaves room for that and refuses the 40 MB polygons of issue 12.
MAX_BODY_BYTES_DEFAULT = 2 * 1024 * 1024


def default_data_dir() -> Path:
    """./var when the working folder has one (a checkout: make run keeps its data there), else the user's own
    data folder (~/.local/share/firestep, ~/Library/Application Support/firestep, %LOCALAPPDATA%\\firestep):
    an installed firestep serves from any folder and keeps one database."""
    here = Path("var")
    if here.is_dir():
        return here.resolve()
    return Path(platformdirs.user_data_dir("firestep", appauthor=False))


def sqlite_url(var_dir: Path) -> str:
    """The data folder's SQLite database, by its absolute path: a relative FIRESTEP_VAR_DIR is the working
    folder's as the command starts (a relative database URL is refused: app.core.database_url). Built as a URL,
    its path escaped (SQLAlchemy's URL.render_as_string quotes the database, make_url unquotes it): written as
    it is, a `?` in a folder's name ended the path there, the rest read as the URL's query, and a `%` and two
    hex digits as an escaped letter."""
    database = (var_dir.absolute() / "firestep.db").as_posix()
    return URL.create("sqlite", database=database).render_as_string(hide_password=False)


def _stored_secret(path: Path) -> str:
    """Read the secret key kept in the data folder, generating it on first use so none lives in the repo (the
    folder made this user's alone first, the key owner-only from its first byte)."""
    if path.exists():
        owner_only(path)  # an older install's key
        return path.read_text().strip()
    private_folder(path.parent)
    key = secrets.token_urlsafe(48)
    write_private(path, key.encode())
    return key


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="FIRESTEP_", env_file=".env", extra="ignore")

    # Empty: SQLite in the data folder (var_dir).
    database_url: str = ""
    host: str = "127.0.0.1"
    port: int = 8000
    # `firestep serve` worker processes; more than one needs PostgreSQL (LISTEN/NOTIFY shares live updates).
    workers: int = Field(default=1, ge=1, le=64)
    # On shutdown, open requests (live streams never finish by themselves) get this long before they close.
    graceful_shutdown_seconds: int = Field(default=5, ge=0, le=300)
    # A connection has this long to send a whole request once it opens or its last answer is sent
    # (app/server.py: slowloris).
    request_timeout_seconds: float = Field(default=15, gt=0, le=600)
    # The reverse proxies (addresses or networks, comma-separated; "*" any) whose X-Forwarded-For names the
    # client. Empty: none, and each client is its connection's address: a process on the server's own host that
    # wrote the header would otherwise choose its address and escape the join and token limits (issue 93).
    trusted_proxies: str = Field(default="", max_length=4096)
    secret_key: str = ""
    # Set by `firestep serve --club` for the pages it serves: its HTTPS port and its plain port (0: not a club
    # server; /trust and the join cards then say so).
    club_port: int = 0
    club_http_port: int = 0
    # The data folder: the SQLite database (unless database_url), the secret key, the club authority (club/).
    var_dir: Path = Field(default_factory=default_data_dir)
    # Requests with a larger body are refused with 413 (app.guard.limits.DoorLimits).
    max_body_bytes: int = Field(default=MAX_BODY_BYTES_DEFAULT, ge=1024)
    # Empty: anyone may create games and campaigns (a club laptop). Set: creating needs this key.
    organiser_key: str = ""
    # How long a stream ticket (EventSource cannot send headers) stays usable.
    stream_ticket_seconds: int = Field(default=60, ge=1, le=3600)
    # Per client address, in a moving window (`limits` notation, e.g. "10 per 1 minute"): failed join codes
    # and unknown tokens. A table's devices each have their own address, so honest typos stay far below.
    join_attempt_limit: str = "10 per 1 minute"
    token_failure_limit: str = "30 per 1 minute"
    # Scenario files imported or replaced (POST/PUT /api/v1/scenarios), per client address: each is checked
    # and built whole, so an address may not keep the server busy with them.
    scenario_import_limit: str = "20 per 1 minute"
    # Tenths of a second of CPU an address may spend on sheets no one asked for before (anonymous PDFs:
    # GET /api/v1/scenarios/{id}/sheet.pdf, /playsheets/*.pdf), each render charged what it cost; a sheet
    # asked for again is served from the cache, free.
    sheet_render_limit: str = "30 per 1 minute"
    # Seconds of CPU one request committing a round spends (its thread's) before it stops between two of the
    # commit's steps and answers that the round is still committing; the same request again carries on. Half
    # a second: 64 of the largest tables cost 1.1-1.2 s in all (issue 63: no request over 1 s of CPU).
    commit_cpu_seconds: float = Field(default=0.5, ge=0, le=60)
    # Seconds of CPU a game's table Save (POST /games/{id}/table/save) spends before it stops between two stands
    # and answers what it saved, its page carrying on by itself (127 stands moved were 1.8-2.1 s in one request).
    table_save_cpu_seconds: float = Field(default=0.5, ge=0, le=60)

    @model_validator(mode="after")
    def _fill_secret(self) -> Settings:
        if not self.database_url:
            self.database_url = sqlite_url(self.var_dir)
        if not self.secret_key:
            self.secret_key = _stored_secret(self.var_dir / "secret_key")
        return self


@lru_cache
def get_settings() -> Settings:
    return Settings()
