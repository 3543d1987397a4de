"""Passwords: which ones an account may have, and Argon2id hashes of them.

A password is at least ``MIN_LENGTH`` characters, not one of the common passwords shipped
in ``common_passwords.json`` (compared lower-cased, digits and symbols at its ends
ignored too: "Password123!" is "password"), and does not contain the account's name (letters and digits compared, as names are).
Hashing is Argon2id (``argon2-cffi``'s defaults, RFC 9106's second recommendation) off
the event loop. Checking a sign-in for a name nobody has verifies a dummy hash, so an
unknown name and a wrong password cost the same time.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from functools import cache
from pathlib import Path

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from server.runtime import Invalid
from server.store import name_key

MIN_LENGTH = 10
MAX_LENGTH = 256  # Argon2 takes any length; a bound keeps a request's cost bounded
COMMON = Path(__file__).with_name("common_passwords.json")

hasher = PasswordHasher()


@cache
def common() -> frozenset[str]:
    return frozenset(json.loads(COMMON.read_text(encoding="utf-8"))["passwords"])


@cache
def dummy_hash() -> str:
    """The hash a sign-in under an unknown name is checked against (same cost, never matches)."""
    return hasher.hash(secrets.token_urlsafe(16))


def problem_with(password: str, name: str) -> str | None:
    """Why ``password`` will not do for the account ``name``, or ``None``."""
    if len(password) < MIN_LENGTH:
        return f"A password has at least {MIN_LENGTH} characters."
    if len(password) > MAX_LENGTH:
        return f"A password has at most {MAX_LENGTH} characters."
    bare = password.lower().strip("0123456789!@#$%^&*()-_=+.,;:?~ ")
    if password.lower() in common() or bare in common():
        return "That password is one of the most common ones; choose another."
    if len(_letters(name)) >= 3 and _letters(name) in _letters(password):
        return "A password must not contain your name."
    return None


def _letters(text: str) -> str:
    """Letters and digits only, compared as names are ("Walter White" is in "i-am-walter-white")."""
    return "".join(c for c in name_key(text) if c.isalnum())


def check_new(password: str, name: str) -> None:
    reason = problem_with(password, name)
    if reason is not None:
        raise Invalid(reason)


async def hash_password(password: str) -> str:
    return await asyncio.to_thread(hasher.hash, password)


def _matches(stored: str | None, password: str) -> bool:
    try:
        return hasher.verify(stored or dummy_hash(), password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


async def matches(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` was made from (``None``: no account or no
    password; the dummy hash is checked all the same)."""
    return await asyncio.to_thread(_matches, stored, password)
