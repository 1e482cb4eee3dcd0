"""API tokens for MCP over HTTP, from the terminal: `manage.py mcp_token --user NAME ...`.

`--create LABEL` prints the new secret alone on stdout, so a script can capture it
(`TOKEN=$(manage.py mcp_token --user ada --create laptop)`); the note that it is shown only
once goes to stderr.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import IntegrityError, transaction

from research.models import ApiToken


class Command(BaseCommand):
    help = "Create, list or revoke a user's API tokens for MCP over HTTP (/mcp)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--user", required=True, help="the account the token acts for")
        action = parser.add_mutually_exclusive_group(required=True)
        action.add_argument("--create", metavar="LABEL", help="make a token and print it once")
        action.add_argument("--list", action="store_true", help="list the user's tokens")
        action.add_argument("--revoke", metavar="LABEL", help="revoke the token with this label")

    def handle(self, *args: Any, **opts: Any) -> None:
        user = _user(opts["user"])
        if opts["create"] is not None:
            self._create(user, opts["create"].strip())
        elif opts["revoke"] is not None:
            deleted, _ = ApiToken.objects.filter(user=user, name=opts["revoke"].strip()).delete()
            if not deleted:
                raise CommandError(f"{user.get_username()} has no token named {opts['revoke']!r}")
            self.stdout.write(f"Revoked {opts['revoke']!r}: it no longer works.")
        else:
            for token in ApiToken.objects.filter(user=user):
                used = token.last_used.isoformat(timespec="seconds") if token.last_used else "never"
                created = token.created.isoformat(timespec="seconds")
                self.stdout.write(
                    f"{token.name}\t{token.prefix}…\tcreated {created}\tlast used {used}"
                )

    def _create(self, user, label: str) -> None:
        if not label or len(label) > ApiToken._meta.get_field("name").max_length:
            raise CommandError("the label must be 1 to 80 characters")
        try:
            with transaction.atomic():
                _, secret = ApiToken.issue(user, label)
        except IntegrityError:
            raise CommandError(
                f"{user.get_username()} already has a token named {label!r}: choose another "
                "label, or --revoke it first"
            ) from None
        self.stderr.write(
            f"API token {label!r} for {user.get_username()}; it is shown only now. Send it as "
            "`Authorization: Bearer <token>` to /mcp."
        )
        self.stdout.write(secret)


def _user(name: str):
    users = get_user_model()
    try:
        return users.objects.get(**{users.USERNAME_FIELD: name}, is_active=True)
    except users.DoesNotExist:
        raise CommandError(f"no active user {name!r}") from None
