"""ASGI entry point: pages and API over HTTP, the live pages' sockets over WebSocket (Django Channels)."""
import os

from typing import Any

import django
from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.exception import response_for_exception

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ledger.settings")
django.setup(set_prefix=False)  # what get_asgi_application does, before the consumers import models


class LedgerASGIHandler(ASGIHandler):
    """Django's ASGI handler, answering exceptions (404, 403, 400, 500 pages) in the request's own thread.

    Django turns an exception of the innermost handler into its response in a thread of the event loop's pool
    (`convert_exception_to_response`, thread_sensitive=False), not in the one thread where the views run and
    where connections are checked when a request starts and closed when it ends (`close_old_connections` on the
    request signals). A connection that an error page opened there (the page reads the signed-in user) was
    never checked nor closed: after PostgreSQL dropped its connections, every signed-in 404 answered 500 until
    the worker restarted (issue 16). Answered here, in the views' thread, no other thread opens a connection.
    """

    async def _get_response_async(self, request: Any) -> Any:
        try:
            return await super()._get_response_async(request)  # type: ignore[misc]  # not in django-stubs
        except Exception as exc:  # noqa: BLE001  (every exception becomes its response, as Django does)
            return await sync_to_async(response_for_exception, thread_sensitive=True)(request, exc)


http_application = LedgerASGIHandler()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from ledger.web.http_limits import BodyLimitASGI  # noqa: E402
from ledger.live.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter({
    "http": BodyLimitASGI(http_application),  # bodies limited while they arrive (uvicorn sets no limit)
    "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
})
