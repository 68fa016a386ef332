"""PBN (Portable Bridge Notation 2.1): the reader, the tag value grammar and the writer.

The modules, each importing only those above it:

Notation, shared by reader and writer
    :mod:`~handrec.formats.pbn.tags` every tag PBN knows and the grammar of its value (``TAGS``, ``typed_tag``);
    :mod:`~handrec.formats.pbn.table_cells` the tables' predefined columns and the grammar of their elements;
    :mod:`~handrec.formats.pbn.play_layout` how play order maps to PBN's seat-ordered play lines.
The reader (:func:`handrec.formats.pbn.reader.parse_pbn`)
    :mod:`~handrec.formats.pbn.framing` a line stream split into games;
    :mod:`~handrec.formats.pbn.tag_values` the typed Board fields from their tags, the T121 value checks;
    :mod:`~handrec.formats.pbn.parser` one game's tokens to sections (the Lark grammar's callbacks);
    :mod:`~handrec.formats.pbn.annotations` notes, suffixes and NAGs of calls and cards;
    :mod:`~handrec.formats.pbn.auction_section` the Auction section to an Auction;
    :mod:`~handrec.formats.pbn.play_section` the Play section to a Play in play order;
    :mod:`~handrec.formats.pbn.table_section` a table's data to a Table;
    :mod:`~handrec.formats.pbn.export_checks` the checks of a file that says ``% EXPORT``;
    :mod:`~handrec.formats.pbn.builder` one Board from a game's sections (``#`` inheritance, cross checks);
    :mod:`~handrec.formats.pbn.reader` the entry points ``parse_pbn`` and ``parse_pbn_text``.
The writer
    :mod:`~handrec.formats.pbn.writer` boards to export format (``dump``, ``dumps``, ``normalise``).
"""
