"""Settings from the environment (prefix FIRESTEP_), with defaults that work from a fresh clone."""

from __future__ import annotations

import secrets
from functools import lru_cache
from pathlib import Path

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.guard.limits import MAX_BODY_BYTES_DEFAULT

ROOT = Path(__file__).resolve().parents[2]
VAR_DIR = ROOT / "var"


def _stored_secret(path: Path) -> str:
    """Read the secret key kept under ./var/, generating it on first use so none lives in the repo."""
    if path.exists():
        return path.read_text().strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(48)
    path.write_text(key)
    path.chmod(0o600)
    return key


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="FIRESTEP_", env_file=".env", extra="ignore")

    database_url: str = Field(default=f"sqlite:///{VAR_DIR / 'firestep.db'}")
    host: str = "127.0.0.1"
    port: int = 8000
    # `firestep serve` worker processes; more than one needs PostgreSQL (LISTEN/NOTIFY shares live updates).
    workers: int = Field(default=1, ge=1, le=64)
    # On shutdown, open requests (live streams never finish by themselves) get this long before they close.
    graceful_shutdown_seconds: int = Field(default=5, ge=0, le=300)
    # A connection has this long to send a whole request once it opens or its last answer is sent
    # (app/server.py: slowloris).
    request_timeout_seconds: float = Field(default=15, gt=0, le=600)
    secret_key: str = ""
    # Set by `firestep serve --club` for the pages it serves: its HTTPS port and its plain port (0: not a club
    # server; /trust and the join cards then say so).
    club_port: int = 0
    club_http_port: int = 0
    var_dir: Path = VAR_DIR
    # Requests with a larger body are refused with 413 (app.guard.limits.BodySizeLimit).
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

    @model_validator(mode="after")
    def _fill_secret(self) -> Settings:
        if not self.secret_key:
            self.secret_key = _stored_secret(self.var_dir / "secret_key")
        return self


@lru_cache
def get_settings() -> Settings:
    return Settings()
