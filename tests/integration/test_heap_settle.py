"""A served app moves what start-up loaded out of the cyclic collector's reach (`service.http.app.settle_heap`), and
gives it back at shutdown, so what an app made and dropped inside one process (as here) left can still be
collected."""

from __future__ import annotations

import gc

from fastapi.testclient import TestClient

from service.http.app import create_app
from service.settings import Settings


def test_start_up_is_frozen_while_serving_and_released_at_shutdown(settings: Settings) -> None:
    app = create_app(settings)
    with TestClient(app) as c:
        assert gc.get_freeze_count() > 10_000  # the app, the driver, the gates' tables: everything start-up made
        assert c.get("/healthz").status_code == 200
        assert gc.get_freeze_count() > 10_000  # serving does not thaw it (reference counting frees a few)
    assert gc.get_freeze_count() == 0  # given back to the collector
