"""Socket paths of the live pages."""
from django.urls import path

from ledger.live.consumers import EveningConsumer, NightConsumer

websocket_urlpatterns = [
    path("ws/nights/<id:pk>/", NightConsumer.as_asgi()),
    path("ws/view/<str:token>/", NightConsumer.as_asgi()),
    path("ws/evenings/<id:pk>/", EveningConsumer.as_asgi()),
]
