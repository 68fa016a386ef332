"""Bytes to text: files, folders, zip and tar archives, standard input, size limits, decoding and format sniffing.

Stage 1 of the pipeline. Nothing here knows PBN from LIN beyond telling them apart
(pbn.md section 18, lin.md section 2); the readers in :mod: take the text.
"""
