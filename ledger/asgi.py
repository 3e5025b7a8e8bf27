"""ASGI entry point: pages and API over HTTP, the live pages' sockets over WebSocket (Django Channels)."""
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ledger.settings")
http_application = get_asgi_application()  # sets Django up before the consumers import models

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from ledger.http_limits import BodyLimitASGI  # noqa: E402
from ledger.live.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter({
    "http": BodyLimitASGI(http_application),  # bodies limited while they arrive (uvicorn sets no limit)
    "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
})
