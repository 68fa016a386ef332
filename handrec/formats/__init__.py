"""Text to typed records: the PBN and LIN readers (Lark grammars in ``grammars/``), USEBIO, and the writers.

Stage 2 of the pipeline. :mod:`handrec.formats.dispatch` picks the reader by content;
each format's package holds its reader, its tag values and its writer.
"""
