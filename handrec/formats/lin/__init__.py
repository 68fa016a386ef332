"""LIN (Bridge Base Online): the reader of single deals and vugraph matches, and the writer.

* :mod:`~handrec.formats.lin.reader`: ``parse_lin``, the framing of records and the Board builder;
* :mod:`~handrec.formats.lin.lexer`: lines to tokens (pairs cut by line ends, LIN in URLs);
* :mod:`~handrec.formats.lin.records`: one record's tokens to its parts (the LALR parse and its Transformer);
* :mod:`~handrec.formats.lin.spellings`: the values of the commands (``md``, ``mb``, ``pc``, ``sv``...);
* :mod:`~handrec.formats.lin.vugraph`: the vugraph header records inherit, and the ``rs`` results;
* :mod:`~handrec.formats.lin.writer`: boards to LIN.
"""
