"""Sending mail over SMTP (``POTLUCK_SMTP_URL``): ``smtp://[user:password@]host[:port]``
(STARTTLS when the server offers it) or ``smtps://…`` (TLS from the start, port 465 by
default). One connection per mail: "your move" mail is rare (one per player and move)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import unquote, urlsplit

import aiosmtplib

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Mail:
    to: str
    subject: str
    text: str
    unsubscribe: str | None = None  # the link, also as the List-Unsubscribe header


class SmtpMailer:
    def __init__(self, url: str, sender: str) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError(f"POTLUCK_SMTP_URL must look like smtp://host:port or smtps://…, not {url!r}")
        self.tls = parts.scheme == "smtps"
        self.host, self.port = parts.hostname, parts.port or (465 if self.tls else 25)
        self.user = unquote(parts.username) if parts.username else None
        self.password = unquote(parts.password) if parts.password else None
        self.sender = sender

    async def send(self, mail: Mail) -> None:
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = self.sender, mail.to, mail.subject
        if mail.unsubscribe:
            message["List-Unsubscribe"] = f"<{mail.unsubscribe}>"
            message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        message.set_content(mail.text)
        await aiosmtplib.send(message, hostname=self.host, port=self.port, username=self.user,
                              password=self.password, use_tls=self.tls, start_tls=None if not self.tls else False,
                              timeout=30)
