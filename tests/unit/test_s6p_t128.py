"""The T128 reasons that mean an annotation is dropped (one of two kept), as the parser gives
them in the diagnostic's ``reason`` argument: ``handrec export`` lists those as not carried
over as written (handrec.formats.pbn.annotations.T128_DROPPED), and only those."""

from __future__ import annotations

from handrec.diagnostics import Diagnostic
from handrec.formats.pbn.annotations import T128_DROPPED, T128_SECOND_NOTE, T128_SECOND_SUFFIX
from handrec.formats.pbn.reader import parse_pbn_text


def reason(d: Diagnostic) -> str:
    """The ``reason`` argument: from the diagnostic's arguments when it keeps them, else from
    its message ("{token!r} {reason}")."""
    args = getattr(d, "args", ())
    if args:
        return str(dict(args)["reason"])
    return d.message.split("' ", 1)[1]


def test_dropped_annotations_are_told_apart_by_their_reason() -> None:
    text = (
        '[Dealer "N"]\n[Auction "N"]\n1S =1= =2= Pass ! ? 2C $9 Pass\n[Note "1:forcing"]\n[Note "2:x"]\n'
        '[Contract "2C"]\n[Declarer "S"]\n[Play "W"]\nSK ! ?! S3 $300 S4 S5\n'
    )
    (b,) = parse_pbn_text(text, "t.pbn")
    got = [(d.line, d.column, reason(d)) for d in b.diagnostics if d.code == "T128"]
    assert got == [
        (3, 8, T128_SECOND_NOTE),  # the second =n= of 1S
        (3, 19, T128_SECOND_SUFFIX),  # "?" after "!" on Pass
        (3, 24, "is a NAG for cards, not calls"),
        (9, 6, T128_SECOND_SUFFIX),
        (9, 12, "is not a NAG (0-255)"),
    ]
    assert [r in T128_DROPPED for _, _, r in got] == [True, True, False, True, False]
    assert T128_DROPPED == {"is a second note reference (one is kept)", "is a second suffix (at most one)"}
