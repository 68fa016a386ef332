"""USEBIO (usebio.md), the XML results format of club scoring programs: read safely, written.

Safe XML (:mod:`.xml`); the reader (:mod:`.reader`, with :mod:`.participants`,
:mod:`.pbn_tables` and :mod:`.structure`); element values (:mod:`.elements`); the writer
(:mod:`.writer`).
"""
