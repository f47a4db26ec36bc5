"""The club's result-signing key (Ed25519, with `cryptography`): made by the club kit next to its certificate
authority (`<FIRESTEP_VAR_DIR>/club/results.key`, owner-only like the authority's key) and used to sign the
result bundles a finished event game exports (app/services/tournament_results.py). Another club verifies a
bundle with the public key it carries; the league table names each club by that key's fingerprint."""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path

from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from app.core.datafolder import private_folder, write_private

KEY_FILE = "results.key"


class DamagedKey(Exception):
    """The result-signing key's file cannot be read as a key: the one sentence saying what to do."""


def result_key(var_dir: Path) -> Ed25519PrivateKey:
    """This data folder's result-signing key, made on first use (the club folder too, owner-only), written
    whole or not at all (app.core.datafolder.write_private). A file there that is no Ed25519 key (empty,
    cut short, another kind) is never replaced silently, since the bundles signed with it name it: DamagedKey."""
    folder = Path(var_dir) / "club"
    private_folder(folder)
    path = folder / KEY_FILE
    if not path.exists():
        key = Ed25519PrivateKey.generate()
        pem = key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        with suppress(FileExistsError):  # made meanwhile by another export: that one is the club's key
            write_private(path, pem, replace=False)
    try:
        loaded = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except (ValueError, TypeError, UnsupportedAlgorithm):
        loaded = None
    if not isinstance(loaded, Ed25519PrivateKey):
        raise DamagedKey(
            f"the result-signing key club/{KEY_FILE} is empty or damaged: move it away and export again for a new key"
        )
    return loaded


def public_hex(key: Ed25519PrivateKey) -> str:
    raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return raw.hex()


def sign(key: Ed25519PrivateKey, message: bytes) -> str:
    return key.sign(message).hex()


def verifies(public: str, signature: str, message: bytes) -> bool:
    """Whether `signature` (hex) is `public`'s (hex, raw 32 bytes) over `message`."""
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(public)).verify(bytes.fromhex(signature), message)
    except (ValueError, InvalidSignature):
        return False
    return True
