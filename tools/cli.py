"""The `clankwork` command line: one click group, one sub-command per tool.

A tool's module is imported when its command runs, not before: `clankwork build-core`
imports none of the engine modules it compiles, so a damaged compiled core can never stop
the command that rebuilds it (interpreter/core.py), and `clankwork --version` and
`clankwork --help` load no engine at all (the list of commands is read from `COMMANDS`).
"""

from __future__ import annotations

import importlib

import click

# Each command: (module of clankwork.tools, attribute, the line `clankwork --help` shows).
COMMANDS = {
    "check": ("check", "check", "Report every problem in packs."),
    "build": ("check", "build", "Compile a pack to its JSON IR."),
    "schema": ("check", "schema", "Print the pack IR's JSON Schema."),
    "docs": ("docs", "docs", "Print or write the language reference and codes."),
    "fmt": ("fmt", "command", "Format .clank files in the one canonical layout."),
    "render": ("render", "render", "Draw a pack's boards and cards, or print it to play."),
    "export": ("export", "export", "Put a pack on an online table."),
    "kit": ("kit", "command", "Check and test a pack, then write a playtest kit."),
    "simulate": ("simulate", "command", "Play bot games of a pack and report on them."),
    "tune": ("tune", "command", "Search costs and rules for values on target."),
    "ladder": ("ladder", "command", "Print how much skill matters: each bot against the next."),
    "test": ("scenario_cmd", "command", "Run the scenarios (and balance blocks) of packs."),
    "replay": ("replay", "command", "Replay game logs turn by turn, or check them."),
    "new": ("new", "command", "Create a new pack folder."),
    "packs": ("packs", "command", "List the packs shipped with Clankwork."),
    "play": ("play", "command", "Play a pack against bots, in the terminal."),
    "lsp": ("lsp", "command", "Run the language server (for an editor to start)."),
    "campaign": ("campaign_cli", "command", "Keep a legacy campaign in a file."),
    "build-core": ("build_core", "command", "Compile the simulation core with Cython."),
}


class _Tools(click.Group):
    """A group whose commands are imported from `COMMANDS` when first asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            module, attr, _summary = COMMANDS[cmd_name]
            tool = importlib.import_module(f"{__package__}.{module}")
            self.add_command(getattr(tool, attr), cmd_name)
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # The summaries of the table: listing the commands imports none of them.
        rows = [(name, COMMANDS[name][2]) for name in sorted(COMMANDS)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=_Tools, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="clankwork")
def main() -> None:
    """Clankwork: write Clank!-style cards and boards, check them, draw them, play them.

    A PACK is a pack folder (or one of its files) or the name of a pack shipped with
    Clankwork (`clankwork packs` lists them); with no PACK a command works on the flagship
    pack, acqinc."""


if __name__ == "__main__":
    main()
