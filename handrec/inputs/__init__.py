"""Bytes to text: files, folders, zip and tar archives, standard input, size limits, decoding and format sniffing.

Stage 1 of the pipeline. Nothing here knows PBN from LIN beyond telling them apart
(pbn.md section 18, lin.md section 2); the readers in :mod:`handrec.formats` take the text.

Modules, in the order the bytes meet them:

* :mod:`~handrec.inputs.entries`: paths (files, folders, standard input) to inputs (``iter_entries``);
* :mod:`~handrec.inputs.archives`: the members of zip and tar archives, screened;
* :mod:`~handrec.inputs.sniff`: PBN, LIN or neither, and the container, from the first bytes;
* :mod:`~handrec.inputs.sources`: where an input's bytes are, and ``Input``, which streams its lines;
* :mod:`~handrec.inputs.streams`: reading in blocks of whole lines, decompressing, read errors;
* :mod:`~handrec.inputs.decode`: bytes to text lines (UTF-8, else ISO-8859-1; line ends);
* :mod:`~handrec.inputs.limits`: the size limits and the errors of reading an input;
* :mod:`~handrec.inputs.status`: the status of an entry (ok, skipped, unreadable...) from its codes.
"""
