"""The `clankwork` command line: one click group, one sub-command per tool.

A tool's module is imported when its command runs (or `--help` lists the commands), not
before: `clankwork build-core` imports none of the engine modules it compiles, so a damaged
compiled core can never stop the command that rebuilds it (interpreter/core.py), and
`clankwork --version` loads no engine at all.
"""

from __future__ import annotations

import importlib

import click

# Each command's name and where it is defined: (module of clankwork.tools, attribute).
COMMANDS = {
    "check": ("check", "check"),
    "build": ("check", "build"),
    "schema": ("check", "schema"),
    "docs": ("docs", "docs"),
    "fmt": ("fmt", "command"),
    "render": ("render", "render"),
    "export": ("export", "export"),
    "kit": ("kit", "command"),
    "simulate": ("simulate", "command"),
    "ladder": ("ladder", "command"),
    "test": ("scenario_cmd", "command"),
    "replay": ("replay", "command"),
    "new": ("new", "command"),
    "play": ("play", "command"),
    "lsp": ("lsp", "command"),
    "campaign": ("campaign_cli", "command"),
    "build-core": ("build_core", "command"),
}


class _Tools(click.Group):
    """A group whose commands are imported from `COMMANDS` when first asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            module, attr = COMMANDS[cmd_name]
            tool = importlib.import_module(f"{__package__}.{module}")
            self.add_command(getattr(tool, attr), cmd_name)
        return self.commands.get(cmd_name)


@click.group(cls=_Tools, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="clankwork")
def main() -> None:
    """Clankwork: write Clank!-style cards and boards, check them, draw them, play them."""


if __name__ == "__main__":
    main()
