"""LIN (Bridge Base Online): the reader of single deals and vugraph matches, and the writer."""
