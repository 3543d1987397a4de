"""What an update holds: the bytes of the compact patches of a seeded game, by member.

    python -m bench.update_bytes [--game nutty-noodles] [--players 2] [--actions 600] [--dump FILE]

Plays the same seeded random-legal actions as ``bench.action_path`` through an in-process
runtime, every seat's socket reading compact patches as the browser does, and prints the
median and mean update (every patch; a whole state is a socket's first or a resync) and
the bytes each part of them takes, per update on average: each top-level field of the
message, and each operation of ``ops`` under the first two steps of its path (``/throw``,
``/players/1``). ``--dump`` writes every message, one a line, for a closer look. A figure
for the notes, not a test: it says where an update's bytes are before anyone shortens one.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
from collections import Counter
from typing import Any

from bench.action_path import OPTIONS, planned, through_the_runtime
from server.engine import registry


def where(op: list[Any]) -> str:
    """An operation's member: the first two steps of its path."""
    return "ops " + "/".join(op[1].split("/")[:3])


def tally(texts: list[str]) -> tuple[list[int], Counter[str], Counter[str]]:
    """The sizes of the patches among ``texts``, and the bytes and count of each part."""
    sizes, size_of, count = [], Counter[str](), Counter[str]()
    for text in texts:
        message = json.loads(text)
        if message["type"] != "patch":
            continue
        sizes.append(len(text))
        parts = [(where(op), op) for op in message.get("ops", [])]
        parts += [(key, {key: value}) for key, value in message.items() if key != "ops"]
        for part, value in parts:
            size_of[part] += len(json.dumps(value, ensure_ascii=False, separators=(",", ":")))
            count[part] += 1
    return sizes, size_of, count


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.update_bytes", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="nutty-noodles")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--actions", type=int, default=600)
    parser.add_argument("--dump", help="write every message sent, one a line, to this file")
    args = parser.parse_args()
    game, options = registry.get(args.game), OPTIONS.get(args.game, {})
    plans = planned(game, args.players, options, args.actions)
    texts: list[str] = []
    asyncio.run(through_the_runtime(args.game, args.players, options, plans, args.actions, kept=texts))
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as out:
            out.writelines(text + "\n" for text in texts)
    sizes, size_of, count = tally(texts)
    print(f"{args.game}, {args.players} seats, {args.actions} actions: {len(sizes)} patches, median "
          f"{statistics.median(sizes):,.0f} B, mean {statistics.mean(sizes):,.0f} B; per update on average:")
    for part, total in size_of.most_common(20):
        print(f"{total / len(sizes):8.1f} B  {part}  ({count[part]} times)")


if __name__ == "__main__":
    main()
