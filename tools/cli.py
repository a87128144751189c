"""The `clankwork` command line: one click group, one sub-command per tool."""

from __future__ import annotations

import click

from . import build_core as build_core_tool
from . import campaign as campaign_tool
from . import campaign_record as record_tool
from . import check as check_tool
from . import docs as docs_tool
from . import export as export_tool
from . import fmt as fmt_tool
from . import kit as kit_tool
from . import lsp as lsp_tool
from . import new as new_tool
from . import play as play_tool
from . import render as render_tool
from . import replay as replay_tool
from . import scenario_cmd
from . import simulate as simulate_tool


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="clankwork")
def main() -> None:
    """Clankwork: write Clank!-style cards and boards, check them, draw them, play them."""


main.add_command(check_tool.check)
main.add_command(check_tool.build)
main.add_command(check_tool.schema)
main.add_command(docs_tool.docs)
main.add_command(fmt_tool.command)
main.add_command(render_tool.render)
main.add_command(export_tool.export)
main.add_command(kit_tool.command)
main.add_command(simulate_tool.command)
main.add_command(scenario_cmd.command)
main.add_command(replay_tool.command)
main.add_command(new_tool.command)
main.add_command(play_tool.command)
main.add_command(lsp_tool.command)
main.add_command(campaign_tool.command)
# `campaign record` lives in its own module (it builds on the campaign file's).
campaign_tool.command.add_command(record_tool.command)
main.add_command(build_core_tool.command)
