"""What the validate_run tests compare of two runs (shared by test_validate_run and test_lin_parts)."""

from __future__ import annotations

import handrec.runs.validate as vr


def summary(reports: list[vr.InputReport]) -> list[tuple]:
    """Each report as comparable values: path, counts, stop flag, and every finding as printed."""
    return [
        (
            r.path,
            r.is_input,
            r.boards,
            r.errors,
            r.warnings,
            r.stopped,
            [(str(f.diagnostic), f.board_number) for f in r.findings],
        )
        for r in reports
    ]
