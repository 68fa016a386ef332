"""Double dummy: tables, par, the solver (endplay's DDS), its cache, and the director's checks.

Stage 3 of the pipeline (above the rules, below the inputs): one module a job, each importing
only the ones listed above it:

* :mod:`~handrec.dd.table`: a double-dummy table (the 20 trick counts) and how files write it.
* :mod:`~handrec.dd.par`: par from a table, and how files write it.
* :mod:`~handrec.dd.engine`: the calls into DDS (the only module that talks to it).
* :mod:`~handrec.dd.cache`: the SQLite cache every command and process shares.
* :mod:`~handrec.dd.solver`: the one solving layer (memo, cache, DDS threads or a process pool).
* :mod:`~handrec.dd.boards`: a board's double dummy as its tags give it, else solved (the booklet).
* :mod:`~handrec.dd.director`: the director's checks (D210-D216), the worklist, the per-game figures.
* :mod:`~handrec.dd.rows`: ``convert --dd`` in a conversion worker, board by board.
"""
