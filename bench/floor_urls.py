"""The app's routes plus `POST /bench/floor/`: a bare DRF create of one row, the load benchmark's floor.

Same authentication, permissions, write throttle, middleware and database as recording a hand; the
work is one ModelSerializer validation (a uniqueness check) and one INSERT (a Player with a fresh name).
"""
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


urlpatterns = [path("bench/floor/", FloorCreate.as_view()), path("", include("ledger.urls"))]
