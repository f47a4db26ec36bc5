"""Settings from the environment (prefix FIRESTEP_), with defaults that work from a fresh clone."""

from __future__ import annotations

import secrets
from functools import lru_cache
from pathlib import Path

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

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
    secret_key: str = ""
    var_dir: Path = VAR_DIR

    @model_validator(mode="after")
    def _fill_secret(self) -> Settings:
        if not self.secret_key:
            self.secret_key = _stored_secret(self.var_dir / "secret_key")
        return self


@lru_cache
def get_settings() -> Settings:
    return Settings()
