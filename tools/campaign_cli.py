"""`clankwork campaign`: the command group of tools/campaign.py with `record`
(tools/campaign_record.py, which builds on the campaign file's module) added to it."""

from __future__ import annotations

from .campaign import command
from .campaign_record import command as record

command.add_command(record)

__all__ = ["command"]
