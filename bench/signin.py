"""How long a refused sign-in takes: a wrong password for a real account against a name
nobody has (which checks a dummy Argon2id hash), in CPU time per attempt, so the two can
be compared. Figures are printed, never asserted.

    .venv/bin/python -m bench.signin [--tries N]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from server.api import passwords


def timed(stored: str | None, tries: int) -> list[float]:
    out = []
    for _ in range(tries):
        started = time.process_time()
        assert not passwords._matches(stored, "not the password")
        out.append(time.process_time() - started)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=20)
    args = parser.parse_args()
    real = asyncio.run(passwords.hash_password("the real password, long enough"))
    passwords.dummy_hash()  # made once per process, before the first sign-in
    for label, stored in (("wrong password", real), ("unknown name", None)):
        spent = timed(stored, args.tries)
        print(f"{label}: median {statistics.median(spent) * 1000:.1f} ms CPU "
              f"(min {min(spent) * 1000:.1f}, max {max(spent) * 1000:.1f}) over {args.tries} attempts")


if __name__ == "__main__":
    main()
