"""Where a value was written: :class:`Span` (a position in a board's text) and :class:`Origin` (a board's place in its file)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Span", "Origin"]


@dataclass(frozen=True, slots=True)
class Span:
    """A position inside one board's text: 1-based line and column.

    Lines count from the first line of the board's block (see
    :class:`Origin`); columns count decoded characters.
    """

    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a board came from.

    ``path`` is the file (or ``archive.zip!member``); ``line`` the 1-based
    line of the file on which the board's block starts; ``offset`` the
    byte (or character, for text input) offset of the block; ``index`` the
    0-based ordinal of the board in its file; ``format`` ``"pbn"`` or
    ``"lin"``.
    """

    path: str
    line: int = 1
    offset: int = 0
    index: int = 0
    format: str = "pbn"

    def absolute_line(self, span: Span | None) -> int:
        """The file line of a block-relative span (the block start if ``None``)."""
        return self.line if span is None else self.line + span.line - 1
