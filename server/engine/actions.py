"""What a player does: an action is a JSON object with a ``"type"``.

The one action no seat plays is time's: when ``deadline(state)`` passes, the runtime applies
``TIMEOUT`` with ``seat=None``, so time is in the log too.
"""

from __future__ import annotations

from typing import Any

Action = dict[str, Any]
TIMEOUT: Action = {"type": "timeout"}
