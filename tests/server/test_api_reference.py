"""Issue 27, "Also": the API reference says what the API does, and a client's mistake costs
nothing — /docs without a CDN, the 422 schema as the 422 body, options of the wrong type
refused, an invalid creation request keeps the address's budget, Authorization optional
where it is."""

from __future__ import annotations

import re

import httpx
import pytest

from .conftest import Served, serve

pytestmark = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


async def test_docs_load_swagger_ui_from_this_server(served: Served) -> None:
    async with httpx.AsyncClient(base_url=served.url, timeout=20) as client:
        page = (await client.get("/docs")).text
        assets = re.findall(r"""(?:src|href)=['"]([^'"]+)['"]""", page)
        assert assets and not [a for a in assets if "//" in a], f"assets from elsewhere: {assets}"
        for asset in assets:
            assert (await client.get(asset)).status_code == 200, asset
        assert (await client.get("/redoc")).status_code == 404  # it would need a CDN


async def test_openapi_422_schema_is_the_422_body(served: Served) -> None:
    async with httpx.AsyncClient(base_url=served.url, timeout=20) as client:
        schema = (await client.get("/openapi.json")).json()
        refused = await client.post("/api/matches", json={"game": "nutty-noodles", "players": "two"})
    said = schema["paths"]["/api/matches"]["post"]["responses"]["422"]["content"]["application/json"]["schema"]
    assert said == {"$ref": "#/components/schemas/Problem"}
    problem = schema["components"]["schemas"]["Problem"]
    assert refused.status_code == 422 and set(problem["required"]) <= set(refused.json())
    assert set(refused.json()) <= set(problem["properties"])
    assert "HTTPValidationError" not in schema["components"]["schemas"]


@pytest.mark.parametrize("options", [{"roll_timeout_ms": "60000"}, {"order_please": "true"}, {"order_please": 1},
                                     {"roll_timeout_ms": 60000.5}])
async def test_options_of_the_wrong_type_are_refused(served: Served, options: dict) -> None:
    async with httpx.AsyncClient(base_url=served.url, timeout=20) as client:
        r = await client.post("/api/matches", json={"game": "nutty-noodles", "players": 2, "options": options})
        ok = await client.post("/api/matches", json={"game": "nutty-noodles", "players": 2,
                                                     "options": {"roll_timeout_ms": 60000, "order_please": True}})
    assert r.status_code == 422 and r.json()["code"] == "invalid" and next(iter(options)) in r.json()["detail"]
    assert ok.status_code == 201


async def test_an_invalid_creation_request_keeps_the_creation_budget(database_url: str) -> None:
    async with serve(database_url, create_burst=2, create_per_minute=0.01) as served, \
            httpx.AsyncClient(base_url=served.url, timeout=20) as client:
        for body in ({"game": "no-such-game"}, {"game": "nutty-noodles", "players": 9},
                     {"game": "nutty-noodles", "options": {"mode": "expert"}}) * 3:
            assert (await client.post("/api/matches", json=body)).status_code == 422
        good = {"game": "nutty-noodles", "players": 2}
        assert [(await client.post("/api/matches", json=good)).status_code for _ in range(3)] == [201, 201, 429]


async def test_authorization_is_optional_where_a_request_works_without_it(served: Served) -> None:
    async with httpx.AsyncClient(base_url=served.url, timeout=20) as client:
        paths = (await client.get("/openapi.json")).json()["paths"]
        match_id = (await client.post("/api/matches", json={"game": "nutty-noodles", "players": 2})).json()["id"]
        assert (await client.get(f"/api/matches/{match_id}/view")).status_code == 200  # no token: a spectator
        assert (await client.post(f"/api/matches/{match_id}/join", json={"name": "Ann"})).status_code == 200
    for path, method in (("/api/matches/{match_id}/view", "get"), ("/api/matches/{match_id}/join", "post")):
        assert {} in paths[path][method]["security"], (path, method)
    assert {} not in paths["/api/matches/{match_id}/actions"]["post"]["security"]
