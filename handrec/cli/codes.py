"""``handrec codes [CODE]``: the diagnostic codes, listed or explained, from the one registry.

Reads :data:`handrec.diagnostics.CODES` alone (plain strings): it starts without importing
pyarrow, duckdb or the readers.
"""

from __future__ import annotations

from typing import Annotated

import typer

from handrec.cli.app import app


def code_lines(code: str) -> list[str]:
    """What ``handrec codes CODE`` prints for a registered ``code``: its title line, then the rule,
    its source, the message template and an example, one a line."""
    from handrec.diagnostics import CODES

    c = CODES[code]
    strict = " (shown with validate --strict)" if c.strict else ""
    return [
        f"{c.code} {c.severity}: {c.title}{strict}",
        f"rule:    {c.rule}",
        f"source:  {c.source}",
        f"message: {c.template}",
        f"example: {c.code} {c.severity}: {c.example}",
    ]


def list_lines() -> list[str]:
    """What ``handrec codes`` prints: one line a code, ``CODE severity title``, in registry order."""
    from handrec.diagnostics import CODES

    return [f"{c.code}  {str(c.severity):<7}  {c.title}{' (--strict)' if c.strict else ''}" for c in CODES.values()]


@app.command()
def codes(
    code: Annotated[
        str | None, typer.Argument(metavar="CODE", help="A diagnostic code (A301, S601...) to explain.")
    ] = None,
) -> None:
    """List the diagnostic codes (code, severity, title), or explain one: its rule, source, message and an example.

    The first letter of a code gives its kind: F file and format, T tags, D deal, A auction,
    P play, C contract and result, S score, U USEBIO structure and participants.  An unknown code exits 2.
    """
    from handrec.diagnostics import CODES

    if code is None:
        typer.echo("\n".join(list_lines()))
        return
    key = code.strip().upper()
    if key not in CODES:
        typer.echo(f"handrec: unknown diagnostic code {code!r} (handrec codes lists them)", err=True)
        raise typer.Exit(2)
    typer.echo("\n".join(code_lines(key)))
