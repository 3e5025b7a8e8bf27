"""The password rule of sign-up, worded by the project: Django 5.2's minimum-length message has no Chinese translation."""
from __future__ import annotations

from django.contrib.auth import password_validation
from django.utils.translation import gettext as _


class MinimumLengthValidator(password_validation.MinimumLengthValidator):
    """At least `min_length` characters (8 by default), said in the page's language."""

    def get_error_message(self) -> str:
        return _("密码太短：至少要 %(min_length)d 个字符") % {"min_length": self.min_length}

    def get_help_text(self) -> str:
        return _("至少 %(min_length)d 个字符，不能全是数字，也不能太常见") % {"min_length": self.min_length}


def rule() -> str:
    """The rule a new password must follow, to show before the first try."""
    for validator in password_validation.get_default_password_validators():
        if isinstance(validator, MinimumLengthValidator):
            return validator.get_help_text()
    return ""
