"""Make sure someone can sign in: create an admin with a fresh random password the first
time, and print it once. There is no shared default password."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser


class Command(BaseCommand):
    help = "Create the first admin account with a random password, if there is none."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--url", default="http://127.0.0.1:8000/", help="where the app is, for the message"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        users = get_user_model()
        sign_in = opts["url"].rstrip("/") + "/accounts/login/"
        if users.objects.filter(is_superuser=True).exists():
            self.stdout.write(
                f"Sign in at {sign_in} with your account. Forgot the password? "
                "Run: .venv/bin/python manage.py changepassword USERNAME"
            )
            return
        password = secrets.token_urlsafe(12)
        users.objects.create_superuser("admin", email="", password=password)
        self.stdout.write(
            self.style.WARNING(
                f"Created the first account. Sign in at {sign_in} as\n"
                f"    username: admin\n    password: {password}\n"
                "This password is shown only now; change it on the site (Change password) "
                "or with `.venv/bin/python manage.py changepassword admin`."
            )
        )
