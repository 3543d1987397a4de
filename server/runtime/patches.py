"""JSON Patch (RFC 6902) between two versions of one seat's view.

``diff(old, new)`` lists the operations that turn ``old`` into ``new``; ``apply(doc, ops)``
performs them (on a copy: ``doc`` is never changed). Only ``add``, ``remove`` and
``replace`` are produced, and only those are applied.

Two values are the same when a browser would read the same thing from their JSON: numbers
by value (``1`` and ``1.0`` are one number), ``true`` never equal to ``1``, objects by their
members whatever their order. Unchanged branches are recognised in C (``==``, then — unless
they hold the very same members — their JSON written by orjson) and only the branches that
differ are walked in Python. Arrays keep their common
head and tail; what lies between is patched element by element, then shortened or
lengthened at its end — an append, a removal from the middle or one changed element each
cost one operation. A value inside the document whose operations would be more than two
and longer, as JSON, than the value itself is replaced whole instead.

A compact patch writes each operation as an array (``compact_ops``; ``expand`` reads it
back): ``["+", path, value]`` for add, ``["=", path, value]`` for replace, ``["-", path]``
for remove.

Every value in a patch comes from ``new`` and every path from ``old`` or ``new``, so a
patch tells a seat nothing that its own two views did not.
"""

from __future__ import annotations

from functools import partial
from operator import is_
from typing import Any, Callable

import orjson

Op = dict[str, Any]
_ARRAYS = (list, tuple)
_MISSING = object()


class PatchError(ValueError):
    """A patch that does not fit the document (a path that is not there)."""


def diff(old: Any, new: Any, path: str = "") -> list[Op]:
    """The operations that turn ``old`` into ``new`` (empty when they are the same); with
    ``path``, those two are the values at that JSON Pointer of larger documents."""
    ops: list[Op] = []
    if not same(old, new):
        (_diff_inner if path else _diff)(old, new, path, ops)
    return ops


def smallest(old: list[Any], new: list[Any]) -> list[Op]:
    """A patch turning the list of actions ``old`` into ``new``: ``[]`` when they are equal
    (as Python compares them: an action the client holds is then one the rules take); past
    their common head and tail, each element replaced, removed or added whole (actions are
    small); or one ``replace`` of the whole list when either is empty or that would take as
    many operations as ``new`` has elements (a list that changed all through)."""
    if old == new:
        return []
    whole = [{"op": "replace", "path": "", "value": new}]
    m, n = len(old), len(new)
    if not m or not n:
        return whole
    head, shorter = 0, min(m, n)
    while head < shorter and old[head] == new[head]:
        head += 1
    end_old, end_new = m, n
    while end_old > head and end_new > head and old[end_old - 1] == new[end_new - 1]:
        end_old -= 1
        end_new -= 1
    paired = min(end_old, end_new)
    if (paired - head) + (end_old - paired) + (end_new - paired) >= n:
        return whole
    ops: list[Op] = [{"op": "replace", "path": f"/{i}", "value": new[i]} for i in range(head, paired)
                     if old[i] != new[i]]
    ops += [{"op": "remove", "path": f"/{paired}"} for _ in range(paired, end_old)]
    ops += [{"op": "add", "path": f"/{j}", "value": new[j]} for j in range(paired, end_new)]
    return ops


def escape(key: Any) -> str:
    """``key`` as one token of a JSON Pointer."""
    key = str(key)  # JSON object keys are strings (an int key is written as its digits)
    if "~" in key or "/" in key:
        return key.replace("~", "~0").replace("/", "~1")
    return key


def same(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` read the same as JSON (see the module's docstring)."""
    if a is b:
        return True
    if a != b:  # in C; also False for a NaN
        return False
    ta, tb = type(a), type(b)
    if ta is dict or ta is list or ta is tuple:
        if ta is tb and _members_identical(a, b):  # rebuilt around the same values: no JSON to write
            return True
        # Python's == calls True equal to 1; their JSON tells them apart, and when it
        # differs (also for 1 and 1.0, or members in another order) a closer look decides
        try:
            if _dumps(a) == _dumps(b):
                return True
        except (TypeError, orjson.JSONEncodeError):
            pass  # not JSON that orjson writes (a huge int): the closer look decides
        if ta is dict:
            return all(same(v, b[k]) for k, v in a.items())
        return all(map(same, a, b))
    return ta is tb or (ta is not bool and tb is not bool)


def _members_identical(a: Any, b: Any) -> bool:
    """Whether two equal containers of one type hold the very same objects, in the same
    order (and, objects, under the very same keys): then their JSON is the same."""
    if type(a) is dict:
        return all(ka is kb and va is vb for (ka, va), (kb, vb) in zip(a.items(), b.items()))
    return all(map(is_, a, b))


_dumps = partial(orjson.dumps, option=orjson.OPT_NON_STR_KEYS)


_SCALARS = frozenset({str, int, float, bool, type(None)})


def _same_element(x: Any, y: Any) -> bool:
    """``same``, without its call for two scalars of one type (then == is exact)."""
    t = type(x)
    if t is type(y) and t in _SCALARS:
        return x == y
    return same(x, y)


def diff_shared(old: Any, new: Any, shared: dict[tuple[str, int, int], list[Op]]) -> list[Op]:
    """``diff(old, new)`` for two objects whose members other pairs may share (the views of
    several seats after one change): the patch of a member is kept in ``shared``, keyed by
    the two objects (which the caller keeps alive meanwhile), and reused for the others."""
    if type(old) is not dict or type(new) is not dict:
        return diff(old, new)

    def member(key: Any, was: Any, value: Any, path: str, ops: list[Op]) -> None:
        memo = (key, id(was), id(value))
        found = shared.get(memo)
        if found is None:
            found = shared[memo] = [] if same(was, value) else diff(was, value, f"{path}/{escape(key)}")
        ops += found

    ops: list[Op] = []
    _diff_objects(old, new, "", ops, member)
    return ops


def _nested(key: Any, va: Any, vb: Any, path: str, ops: list[Op]) -> None:
    if not same(va, vb):
        _diff_inner(va, vb, f"{path}/{escape(key)}", ops)


def _diff_objects(a: dict[Any, Any], b: dict[Any, Any], path: str, ops: list[Op],
                  member: Callable[[Any, Any, Any, str, list[Op]], None] = _nested) -> None:
    """Append the operations turning object ``a`` (at ``path``) into object ``b``;
    ``member(key, old value, new value, path, ops)`` deals with a member that is neither
    the same object nor one plain value in both (the member's own path is built only
    when it has changed)."""
    if a.keys() != b.keys():  # in C: usually the same keys
        for key in a:
            if key not in b:
                ops.append({"op": "remove", "path": f"{path}/{escape(key)}"})
    get = a.get
    for key, vb in b.items():
        va = get(key, _MISSING)
        if va is vb:
            continue
        tb = type(vb)
        if va is _MISSING:
            ops.append({"op": "add", "path": f"{path}/{escape(key)}", "value": vb})
        elif tb is type(va) and tb in _SCALARS:  # the usual member: no call
            if va != vb:
                ops.append({"op": "replace", "path": f"{path}/{escape(key)}", "value": vb})
        else:
            member(key, va, vb, path, ops)


def _diff_inner(a: Any, b: Any, path: str, ops: list[Op]) -> None:
    """``_diff`` for a value inside the document: when its operations are more than two and
    longer, as JSON, than replacing it whole, it is replaced whole."""
    mine: list[Op] = []
    _diff(a, b, path, mine)
    if len(mine) > 2:
        try:
            if len(_dumps(b)) + len(path) + 32 < len(_dumps(mine)):
                mine = [{"op": "replace", "path": path, "value": b}]
        except (TypeError, orjson.JSONEncodeError):
            pass  # not JSON orjson writes (a huge int): keep the operations
    ops += mine


def _diff(a: Any, b: Any, path: str, ops: list[Op]) -> None:
    """Append the operations turning ``a`` into ``b`` (known not to be the same)."""
    ta, tb = type(a), type(b)
    if ta is dict and tb is dict:
        _diff_objects(a, b, path, ops)
    elif ta in _ARRAYS and tb in _ARRAYS:
        _diff_arrays(a, b, path, ops)
    else:
        ops.append({"op": "replace", "path": path, "value": b})


def _diff_arrays(a: Any, b: Any, path: str, ops: list[Op]) -> None:
    m, n = len(a), len(b)
    head, shorter = 0, min(m, n)
    while head < shorter and _same_element(a[head], b[head]):
        head += 1
    end_a, end_b = m, n
    while end_a > head and end_b > head and _same_element(a[end_a - 1], b[end_b - 1]):
        end_a -= 1
        end_b -= 1
    paired = min(end_a, end_b)
    for i in range(head, paired):
        if not _same_element(a[i], b[i]):
            _diff_inner(a[i], b[i], f"{path}/{i}", ops)
    for _ in range(paired, end_a):
        ops.append({"op": "remove", "path": f"{path}/{paired}"})
    for j in range(paired, end_b):
        ops.append({"op": "add", "path": f"{path}/{j}", "value": b[j]})


SIGNS = {"add": "+", "remove": "-", "replace": "="}  # a compact operation's first element
_KINDS = {sign: kind for kind, sign in SIGNS.items()}


def compact_ops(ops: list[Op]) -> list[list[Any]]:
    """Operations as arrays (see the module's docstring)."""
    return [[SIGNS[op["op"]], op["path"], op["value"]] if "value" in op else [SIGNS[op["op"]], op["path"]]
            for op in ops]


def expand(ops: list[Any]) -> list[Op]:
    """Compact operations as JSON Patch objects (an object passes as it is; ``PatchError``
    for anything else)."""
    out: list[Op] = []
    for op in ops:
        if isinstance(op, dict):
            out.append(op)
            continue
        if not isinstance(op, list) or len(op) not in (2, 3) or op[0] not in _KINDS:
            raise PatchError(f"Not a compact operation: {op!r}")
        out.append({"op": _KINDS[op[0]], "path": op[1], **({"value": op[2]} if len(op) == 3 else {})})
    return out


def _tokens(path: str) -> list[str]:
    if path == "":
        return []
    if not path.startswith("/"):
        raise PatchError(f"A JSON Pointer starts with '/': {path!r}")
    return [t.replace("~1", "/").replace("~0", "~") for t in path[1:].split("/")]


def apply(doc: Any, ops: list[Op]) -> Any:
    """``doc`` with ``ops`` applied, as a new document that shares every branch the patch
    does not touch (``doc`` and the ops' values are never changed)."""
    box: list[Any] = [doc]
    mine: dict[int, Any] = {id(box): box}  # containers this call made: safe to change
    for op in ops:
        kind, tokens = op.get("op"), _tokens(op.get("path", ""))
        if kind not in ("add", "remove", "replace"):
            raise PatchError(f"Unsupported operation {kind!r}.")
        parent: Any = box
        key: Any = 0
        for token in tokens:  # down to the container that holds the last token
            parent = _own(parent, key, mine)
            key = _key(parent, token)
        _do(parent, key, kind, op, tokens)
    return box[0]


def _own(parent: Any, key: Any, mine: dict[int, Any]) -> Any:
    """``parent[key]`` as a container this call may change (copied the first time)."""
    child = parent[key]
    if id(child) in mine:
        return child
    if type(child) is dict:
        copy: Any = dict(child)
    elif type(child) in _ARRAYS:
        copy = list(child)
    else:
        raise PatchError("A path goes through something that is neither an object nor an array.")
    mine[id(copy)] = copy
    parent[key] = copy
    return copy


def _key(container: Any, token: str) -> Any:
    if type(container) is dict:
        return token
    if token == "-":
        return len(container)
    if not token.isdigit() or (len(token) > 1 and token[0] == "0"):
        raise PatchError(f"{token!r} is not an array index.")
    return int(token)


def _do(parent: Any, key: Any, kind: str, op: Op, tokens: list[str]) -> None:
    """Perform one operation on ``parent[key]`` (``parent`` belongs to this call)."""
    if not tokens:  # the whole document
        if kind != "replace" and kind != "add":
            raise PatchError("The whole document can only be replaced.")
        parent[0] = op["value"]
        return
    if type(parent) is dict:
        if kind == "add":
            parent[key] = op["value"]
        elif key not in parent:
            raise PatchError(f"No member {key!r} to {kind}.")
        elif kind == "remove":
            del parent[key]
        else:
            parent[key] = op["value"]
        return
    size = len(parent)
    if kind == "add":
        if key > size:
            raise PatchError(f"Index {key} is past the end of an array of {size}.")
        parent.insert(key, op["value"])
    elif key >= size:
        raise PatchError(f"No element {key} to {kind} in an array of {size}.")
    elif kind == "remove":
        del parent[key]
    else:
        parent[key] = op["value"]
