"""Rules engine: auction, play and board replay, and the per-board validator (Laws of Duplicate Bridge).

Stage 3 of the pipeline: a typed record is replayed call by call and card by card;
faults become diagnostics. The replay scores with :mod:`handrec.scoring`.
"""
