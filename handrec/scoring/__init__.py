"""Pure scorers: duplicate, rubber, Chicago, minibridge, IMPs, matchpoints, Butler, cross-IMPs (bridge-rules.md §4-§8).

The bottom of the pipeline beside the model: a scorer takes contracts, results and
vulnerability and imports nothing but :mod:`handrec.model`.
"""

#: The largest Multiplicity a ScoreTable row may claim (the number of tables with that result):
#: larger is not a field of players but a fault, and a row is never expanded beyond it.  Here,
#: not in :mod:`handrec.scoring.traveller`: the PBN reader checks the value, and need not import
#: the scorers (fractions, decimal) for it.
MAX_MULTIPLICITY = 10_000
