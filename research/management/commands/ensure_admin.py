"""Make sure someone can log in: create an admin with a fresh random password the first
time, and print it once. There is no shared default password."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Create the first admin account with a random password, if there is none."

    def handle(self, *args: Any, **opts: Any) -> None:
        users = get_user_model()
        if users.objects.filter(is_superuser=True).exists():
            self.stdout.write(
                "Log in with your admin account. Forgot the password? "
                "Run: .venv/bin/python manage.py changepassword USERNAME"
            )
            return
        password = secrets.token_urlsafe(12)
        users.objects.create_superuser("admin", email="", password=password)
        self.stdout.write(
            self.style.WARNING(
                "Created the first account. Log in at http://127.0.0.1:8000/admin/ as\n"
                f"    username: admin\n    password: {password}\n"
                "This password is shown only now; change it with "
                "`.venv/bin/python manage.py changepassword admin`."
            )
        )
