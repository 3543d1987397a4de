"""Placeholder: replaced below."""
from server.engine import RandomBot as RivalBot  # noqa: F401
