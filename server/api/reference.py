"""The API reference: ``/docs`` (Swagger UI from its own package's files, no CDN) and the
OpenAPI document, said as the API answers:

- a 422 is ``Problem`` (``{detail, code}``), as every refusal, not FastAPI's list of errors;
- ``Authorization`` is optional where a request works without it (a spectator's view,
  taking a seat), required only where acting needs a seat.
"""

from __future__ import annotations

from typing import Any

import swagger_ui_bundle
from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

ASSETS = "/docs-assets"
# Where a seat token may be sent and is not needed: no token reads as a spectator, joins as a newcomer
TOKEN_OPTIONAL = {("/api/matches/{match_id}/view", "get"), ("/api/matches/{match_id}/join", "post")}
FASTAPI_422 = ("HTTPValidationError", "ValidationError")


def corrected(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with every 422 answer described as a ``Problem`` and the optional tokens
    optional."""
    for path, operations in schema.get("paths", {}).items():
        for method, operation in operations.items():
            answer = operation.get("responses", {}).get("422")
            if answer is not None:
                answer["content"] = {"application/json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
                answer.setdefault("description", "Invalid request")
            if (path, method) in TOKEN_OPTIONAL and operation.get("security"):
                operation["security"] = [{}, *operation["security"]]
    for name in FASTAPI_422:
        schema.get("components", {}).get("schemas", {}).pop(name, None)
    return schema


def install(app: FastAPI) -> None:
    """Serve ``/docs`` from local files and the corrected ``/openapi.json`` (the app is made
    with ``docs_url=None, redoc_url=None``)."""
    app.mount(ASSETS, StaticFiles(directory=swagger_ui_bundle.swagger_ui_path), name="docs-assets")

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = corrected(get_openapi(title=app.title, version=app.version,
                                                       description=app.description, routes=app.routes))
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return get_swagger_ui_html(openapi_url="/openapi.json", title=f"{app.title} — API",
                                   swagger_js_url=f"{ASSETS}/swagger-ui-bundle.js",
                                   swagger_css_url=f"{ASSETS}/swagger-ui.css",
                                   swagger_favicon_url="/static/img/favicon.svg")
