"""A real SMTP server for the mail tests (aiosmtpd, on a free port of 127.0.0.1): every
mail it receives, parsed, in ``inbox``."""

from __future__ import annotations

import email
import email.policy
import socket
import threading
from contextlib import contextmanager
from email.message import EmailMessage
from typing import Any, Iterator

from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Inbox:
    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []
        self._lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self._lock:
            self.mails.append(message)  # type: ignore[arg-type]
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        with self._lock:
            return [m for m in self.mails if m["To"] == address]


@contextmanager
def smtp_server() -> Iterator[tuple[str, Inbox]]:
    """``(smtp_url, inbox)``."""
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield f"smtp://127.0.0.1:{port}", inbox
    finally:
        controller.stop()
