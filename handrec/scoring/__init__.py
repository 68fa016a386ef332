"""Pure scorers: duplicate, rubber, Chicago, minibridge, IMPs, matchpoints, Butler, cross-IMPs (bridge-rules.md §4-§8).

The bottom of the pipeline beside the model: a scorer takes contracts, results and
vulnerability and imports nothing but :mod:`handrec.model`.
"""
