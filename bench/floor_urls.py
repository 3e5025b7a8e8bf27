"""The app's routes plus `POST /bench/floor/`: a bare DRF create of one row, the load benchmark's floor.

Same authentication, permissions, write throttle, middleware and database as recording a hand; the
work is one ModelSerializer validation and one INSERT (a Player with a fresh name). Players belong to a group
(issue 11): the bench's group id comes from `BENCH_GROUP` (set by bench_load.py), so it costs no query.
"""
import os

from django.urls import include, path
from rest_framework import generics, serializers

from ledger.api.throttles import WriteThrottle
from ledger.models import Player


class FloorSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name"]


class FloorCreate(generics.CreateAPIView):
    serializer_class = FloorSerializer
    throttle_classes = [WriteThrottle]
    queryset = Player.objects.all()

    def perform_create(self, serializer: FloorSerializer) -> None:
        serializer.save(group_id=int(os.environ["BENCH_GROUP"]))


urlpatterns = [path("bench/floor/", FloorCreate.as_view()), path("", include("ledger.urls"))]
