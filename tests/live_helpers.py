"""What the socket tests share: a signed-in browser's headers, a socket on a path, and running a scenario."""
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.test import Client

from ledger.asgi import application

ORIGIN = [(b"origin", b"http://testserver"), (b"host", b"testserver")]


def session_headers(user):
    client = Client()
    client.force_login(user)
    return ORIGIN + [(b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())]


def listen(path, headers=ORIGIN):
    return WebsocketCommunicator(application, path, headers=headers)


def run(scenario):
    return async_to_sync(scenario)()
