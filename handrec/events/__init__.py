"""Game records, sessions, travellers and rankings of an event, and the checks of the file's claimed figures.

Stage 4 of the pipeline: boards replayed by :mod:`handrec.rules` are grouped into events
and sessions and scored with the pure scorers of :mod:`handrec.scoring`.  One module a job,
each importing only the ones listed above it:

* :mod:`~handrec.events.games`: one game reduced to a ``GameRecord`` (``record()``), its claims and tables.
* :mod:`~handrec.events.sessions`: the session rule: which games of an event are one session.
* :mod:`~handrec.events.travellers`: the results of one board, from its games or its ScoreTable.
* :mod:`~handrec.events.methods`: the scoring methods and which one an event's tags ask for.
* :mod:`~handrec.events.results`: what scoring gives (scored travellers, rankings, ``EventScore``).
* :mod:`~handrec.events.pairs`: pairs events: matchpoints, Butler, cross-IMPs, pair rankings.
* :mod:`~handrec.events.teams`: teams matches: IMPs between the Open and Closed rooms.
* :mod:`~handrec.events.rubber_chicago`: rubber, Chicago and minibridge sessions of one file.
* :mod:`~handrec.events.event_score`: ``score_event``: every session scored with its method.
* :mod:`~handrec.events.report`: ``handrec score``'s text, CSV and JSON output.
* :mod:`~handrec.events.usebio`: a scored event laid out as a USEBIO document (``export --to usebio``).
* :mod:`~handrec.events.claims`: a claimed figure read (``parse_claim``, ``agrees``, ``impossible_claim``).
* :mod:`~handrec.events.checks_tags`: the ScoreMP, ScoreIMP, ScorePercentage, ScoreRubber tags checked.
* :mod:`~handrec.events.checks_tables`: the ScoreTable and TotalScoreTable rows checked.
* :mod:`~handrec.events.checks_boards`: fouled boards, boards given twice, a pair playing a board twice.
* :mod:`~handrec.events.checks`: ``EventChecker``, ``check_event``, ``check_pairs``: all checks of one input.
"""
