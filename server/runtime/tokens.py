"""Seat tokens: random secrets handed out once; only their SHA-256 is stored."""

from __future__ import annotations

import hashlib
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_match_id() -> str:
    return secrets.token_urlsafe(9)


def new_seed() -> int:
    """A seed that fits a signed 64-bit column."""
    return secrets.randbits(63)


def new_process_id() -> str:
    """A server process's id: its leases and its fan-out messages carry it."""
    return secrets.token_hex(8)
