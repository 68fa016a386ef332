"""Game records, sessions, travellers and rankings of an event, and the checks of the file's claimed figures.

Stage 4 of the pipeline: boards replayed by :mod:`handrec.rules` are grouped into events
and sessions and scored with the pure scorers of :mod:`handrec.scoring`.
"""
