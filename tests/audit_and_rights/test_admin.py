"""Django admin: every model is registered and its list page opens."""
import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client

from ledger import models


@pytest.mark.parametrize("model", [models.Player, models.Night, models.Seating, models.Hand, models.HandRevision,
                                   models.AuditEntry, models.Adjustment, models.AdjustmentSeat,
                                   models.Confirmation])
def test_every_model_has_an_admin_page(night, model):
    assert admin.site.is_registered(model)
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("root", password="x"))
    response = client.get(f"/admin/ledger/{model._meta.model_name}/")
    assert response.status_code == 200


def test_records_cannot_be_deleted_in_the_admin(night):
    request = type("Request", (), {"user": None})()
    for model in (models.Hand, models.HandRevision, models.AuditEntry, models.Adjustment,
                  models.AdjustmentSeat, models.Confirmation):
        assert not admin.site._registry[model].has_delete_permission(request)
