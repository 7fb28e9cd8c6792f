"""The API docs pages (`/docs` Swagger UI, `/redoc` ReDoc) served offline: their JavaScript, CSS and favicon come
from the installed `fastapi-offline` package (Swagger UI 5 and ReDoc 2, which render OpenAPI 3.1) under
`/docs-assets`, so nothing is loaded from a CDN. Open like the OpenAPI document itself."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

ASSETS = "/docs-assets"
# validatorUrl: none — Swagger UI would otherwise send the document to an online validator.
SWAGGER_PARAMETERS = {"validatorUrl": None, "persistAuthorization": True}


def assets_dir() -> Path:
    return Path(str(files("fastapi_offline") / "static"))


def install(app: FastAPI) -> None:
    """Mount the assets and add `/docs`, `/docs/oauth2-redirect` and `/redoc` (create the app with
    `docs_url=None, redoc_url=None`)."""
    app.mount(ASSETS, StaticFiles(directory=assets_dir()), name="docs-assets")
    openapi_url = app.openapi_url or "/openapi.json"
    redirect = "/docs/oauth2-redirect"

    @app.get("/docs", include_in_schema=False)
    async def swagger() -> HTMLResponse:
        return get_swagger_ui_html(openapi_url=openapi_url, title=f"{app.title} — API",
                                   swagger_js_url=f"{ASSETS}/swagger-ui-bundle.js",
                                   swagger_css_url=f"{ASSETS}/swagger-ui.css",
                                   swagger_favicon_url=f"{ASSETS}/favicon.png",
                                   oauth2_redirect_url=redirect, swagger_ui_parameters=SWAGGER_PARAMETERS)

    @app.get(redirect, include_in_schema=False)
    async def oauth2_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()

    @app.get("/redoc", include_in_schema=False)
    async def redoc() -> HTMLResponse:
        return get_redoc_html(openapi_url=openapi_url, title=f"{app.title} — API",
                              redoc_js_url=f"{ASSETS}/redoc.standalone.js", redoc_favicon_url=f"{ASSETS}/favicon.png",
                              with_google_fonts=False)
