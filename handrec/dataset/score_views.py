"""The SQL views that score a dataset as ``handrec score`` does: ``travellers`` and ``rankings``.

One answer to "who won" (issue #19.4): each session is scored with the method ``handrec score``
gives it without ``--method`` (:func:`handrec.events.methods.method_for`), shown in a ``method``
column: ``mp`` or ``mp2`` (matchpoints, the Scoring tag's ``MP1`` for the 2/1 scale),
``butler`` (a pairs event scored in IMPs: IMPs against the datum), ``cross-imp`` (divided as
the Scoring tags' ``Cross``, ``Cross1``, ``Cross2`` say: :func:`handrec.events.methods.cross_for`)
or ``imp`` (a session with a teams match: some board of a match, Section + Stage + Round +
HomeTeam + VisitTeam, given in both the Open and the Closed room).  A file whose every game's
Scoring tag says Rubber (or Chicago) is scored by ``handrec score`` as a session of its own, not
compared: its games are in neither view.

The rules are those of :mod:`handrec.events` (sessions, travellers, pairs, teams) written in SQL;
``tests/corpus/test_sql_views_match_score.py`` checks the two give the same methods, ranks and
totals on every corpus file with results.  A board one of whose games carries a ScoreTable with
a score or an artificial score takes its results from that table's rows (``supplemental``), as
:func:`handrec.events.travellers.travellers` does: Law 12C2 artificial scores (``^60``) on 60 /
50 / 40 % of the top (+3 / 0 / -3 IMPs), and a row's Multiplicity counted (such a row is not
ranked).

Sources: bridge-rules.md §8.2-§8.5; PBN 2.1 §3.4.12 (Scoring), §4.1.7 (Room).
"""

from __future__ import annotations

from handrec.scoring.imps import IMP_THRESHOLDS

__all__ = ["TRAVELLERS_SQL", "RANKINGS_SQL", "TRAVELLERS_COLUMNS", "RANKINGS_COLUMNS", "SESSION_DATE_SQL"]

#: :func:`handrec.events.games.session_date` in SQL, over the ``date`` column: ``YYYY.MM.DD`` from a
#: date written with ``.``, ``-`` or ``/`` (a time after it ignored), NULL for an unknown date
#: or a time alone, else the text without the blanks around it.
SESSION_DATE_SQL = r"""(CASE
    WHEN date IS NULL OR regexp_full_match(date, '[ \t\n\f\r?./-]*')
         OR regexp_full_match(date, '[ \t\n\f\r]*[0-9]{1,2}:[0-9]{2}(:[0-9]{2})?[ \t\n\f\r]*') THEN NULL
    WHEN regexp_matches(date, '^[ \t\n\f\r]*[0-9]{4}[./-][0-9]{2}[./-][0-9]{2}([^0-9]|$)')
         THEN regexp_replace(date, '^[ \t\n\f\r]*([0-9]{4})[./-]([0-9]{2})[./-]([0-9]{2})(.|\n)*$', '\1.\2.\3')
    ELSE regexp_replace(date, '^[ \t\n\f\r]+|[ \t\n\f\r]+$', '', 'g')
END)"""

#: The dealer and vulnerability of a board by its number (Law 2; bridge-rules.md), for a game
#: without a Dealer or Vulnerable tag: as :func:`handrec.events.games.record` completes them.
_DEALER_SQL = "CASE WHEN board >= 1 THEN ['N', 'E', 'S', 'W'][(board - 1) % 4 + 1] END"
_VULNERABLE_SQL = (
    "CASE WHEN board >= 1 THEN ['None', 'NS', 'EW', 'Both', 'NS', 'EW', 'Both', 'None', "
    "'EW', 'Both', 'None', 'NS', 'Both', 'None', 'NS', 'EW'][(board - 1) % 16 + 1] END"
)


def _imps_sql(d: str) -> str:
    """The IMPs of the difference ``d`` as an SQL expression (as :func:`handrec.scoring.imps.imps`, vectorised)."""
    steps = " + ".join(f"CAST(abs({d}) >= {x} AS INTEGER)" for x in IMP_THRESHOLDS)
    return f"CAST(sign({d}) AS INTEGER) * ({steps})"


def _artificial_imps_sql(kind: str) -> str:
    """The IMPs of an artificial score of ``kind`` (60, 50, 40 % of the top): +3 / 0 / -3 (Law 12C2,
    :func:`handrec.events.pairs.artificial_imps`)."""
    return f"(CASE {kind} WHEN 60 THEN 3 WHEN 40 THEN -3 WHEN 50 THEN 0 END)"


#: The fields of the Scoring tag, upper case (:func:`handrec.rules.board.scoring_fields`).
_FIELDS_SQL = (
    "list_filter(list_transform(string_split_regex(coalesce(scoring, ''), '[;,]'), lambda x: upper(trim(x))),"
    " lambda x: x <> '')"
)
#: The board's number as text, else its Board tag (``?``, ``-`` and blanks unknown), as
#: :attr:`handrec.events.games.GameRecord.board`.
_BOARD_NO_SQL = (
    "coalesce(CAST(board AS VARCHAR), CASE WHEN trim(board_label) NOT IN ('', '?', '-') THEN trim(board_label) END)"
)


def _clean_sql(col: str) -> str:
    """A tag's value as :func:`handrec.events.games.record` cleans it: stripped, ``''`` for unknown."""
    return f"(CASE WHEN trim({col}) IN ('', '?', '-') THEN '' ELSE coalesce(trim({col}), '') END)"


def _strip_sql(x: str) -> str:
    """``x.strip()``: the text without the white space around it."""
    return f"regexp_replace({x}, '^\\s+|\\s+$', '', 'g')"


def _int_cell_sql(x: str) -> str:
    """A table element as :func:`handrec.events.travellers._int_cell` reads it: an integer, else NULL."""
    t = f"trim({_strip_sql(x)}, '\"')"
    return f"(CASE WHEN regexp_full_match({t}, '[+-]?[0-9]+') THEN TRY_CAST({t} AS BIGINT) END)"


def _kind_sql(x: str) -> str:
    """The Law 12C2 kind of a ``^`` percentage as :func:`handrec.events.travellers._artificial_kind`
    reads it, as its percentage of the top: 60 (55 or more), 40 (45 or less), else 50."""
    t = f"{_strip_sql(f'ltrim({_strip_sql(x)}, {chr(39)}^{chr(39)})')}"
    p = f"(CASE WHEN regexp_full_match({t}, '[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)') THEN TRY_CAST({t} AS DOUBLE) END)"
    return f"(CASE WHEN {p} >= 55 THEN 60 WHEN {p} <= 45 THEN 40 ELSE 50 END)"


def _pair_cell_sql(pid: str, names: str) -> str:
    """A table row's pair as :func:`handrec.events.travellers.table_entries` reads it: PairId_*
    cleaned, else Names_* (``;``-separated names joined by `` - ``)."""
    pid_clean = f"(CASE WHEN {_strip_sql(pid)} NOT IN ('', '?', '-') THEN {_strip_sql(pid)} END)"
    n = _strip_sql(f"trim({names}, '\"')")
    parts = f"list_filter(list_transform(string_split({n}, ';'), lambda y: {_strip_sql('y')}), lambda y: y <> '')"
    names_clean = f"(CASE WHEN {n} NOT IN ('', '?', '-') THEN nullif(array_to_string({parts}, ' - '), '') END)"
    return f"coalesce({pid_clean}, {names_clean})"


#: One row per scored game with its board's comparison, as ``handrec score`` scores it (the
#: session's ``method``).  A board is the same deal, dealer and vulnerability under the same
#: session and board number (bridge-rules.md §8.3; Law 87: a copy with other cards, dealer or
#: vulnerability is another comparison); an event is the Event tag, else the file
#: (``event_name``); a session is an event on one date, by the rule of
#: :func:`handrec.events.sessions.dated` (``board_deals``, ``event_dates``, ``conflicts``,
#: ``numbered``, ``sessions``: an event's distinct known dates in order, a date joining the
#: session of the date before it unless at least two board numbers both dates have were played
#: with different deals; a game without a date takes its event's session when the event has
#: exactly one); ``session`` is its name as :func:`handrec.events.sessions.group_sessions` gives
#: it.  The method of a session is :func:`handrec.events.methods.method_for` over all its games
#: (``rooms``, ``methods``).  Only scores ``handrec score`` ranks are compared (``score_status``
#: clean or by_law, issue #18); on a pairs board one of whose games carries a ScoreTable with a
#: score or an artificial score, the first such table's rows instead (``st_*``, ``scored``:
#: :func:`handrec.events.travellers.table_entries`, one row per table row, ``multiplicity``
#: counted, artificial scores on 60 / 50 / 40 % of the top).  Matchpoints on both scales on the session's top (Neuberg's
#: formula for a board played fewer times), computed once per distinct score of a board
#: (``per_score``); Butler IMPs against the datum (the mean without one top and one bottom
#: score, 3 results or more); cross-IMPs (every other result, divided by the comparisons, the
#: results or not at all as the session's Cross modifier says, 2 results or more); teams IMPs
#: between the Open and the Closed room of a board of a match (exactly one result in each, both
#: ranked).
TRAVELLERS_SQL = f"""
CREATE VIEW travellers AS
WITH fielded AS (
    SELECT *, {_FIELDS_SQL} AS scoring_fields FROM boards
), session_files AS (
    -- a file scored by handrec score as a rubber or Chicago session of its own: not compared
    SELECT source_file FROM fielded GROUP BY source_file
    HAVING bool_and(list_contains(scoring_fields, 'RUBBER')) OR bool_and(list_contains(scoring_fields, 'CHICAGO'))
), games AS (
    SELECT *, coalesce(nullif(nullif(trim(event), ''), '?'), source_file || ' (no Event tag)') AS event_name,
           {SESSION_DATE_SQL} AS date_key
    FROM fielded WHERE source_file NOT IN (SELECT source_file FROM session_files)
), board_deals AS (
    -- the session rule of handrec.events.sessions.dated: the distinct (event, date, board number or
    -- label, deal) of the known dates
    SELECT DISTINCT event_name, date_key, coalesce(CAST(board AS VARCHAR), nullif(trim(board_label), '')) AS board_no,
           deal
    FROM games WHERE date_key IS NOT NULL
), event_dates AS (
    -- each event's distinct known dates in order, each with the date just before it
    SELECT event_name, date_key, lag(date_key) OVER (PARTITION BY event_name ORDER BY date_key) AS prev_date
    FROM (SELECT DISTINCT event_name, date_key FROM games WHERE date_key IS NOT NULL)
), conflicts AS (
    -- the board numbers that a date and the date before it both have, played with different
    -- deals on the two dates (a fouled board is one board; a new week reuses them all)
    SELECT e.event_name, e.date_key, count(DISTINCT a.board_no) AS n
    FROM event_dates e
    JOIN board_deals a ON a.event_name = e.event_name AND a.date_key = e.date_key
    JOIN board_deals b ON b.event_name = e.event_name AND b.date_key = e.prev_date
                      AND b.board_no = a.board_no AND b.deal <> a.deal
    GROUP BY e.event_name, e.date_key
), numbered AS (
    -- the session of each date: the running count of conflicts (two such board numbers or more)
    SELECT e.event_name, e.date_key,
           sum(CAST(coalesce(c.n, 0) >= 2 AS INTEGER))
               OVER (PARTITION BY e.event_name ORDER BY e.date_key ROWS UNBOUNDED PRECEDING) AS session_no
    FROM event_dates e LEFT JOIN conflicts c USING (event_name, date_key)
), sessions AS (
    -- a session's date is its first date
    SELECT event_name, date_key, min(date_key) OVER (PARTITION BY event_name, session_no) AS session_date
    FROM numbered
), known AS (
    -- per event with a known date: its sessions and the first one's date
    SELECT event_name, count(DISTINCT session_date) AS n_known, min(session_date) AS first_date
    FROM sessions GROUP BY event_name
), events AS (
    -- per event: whether a game has no date, and its sessions of known dates
    SELECT event_name, bool_or(date_key IS NULL) AS undated, any_value(k.n_known) AS n_known,
           any_value(k.first_date) AS first_date
    FROM games LEFT JOIN known k USING (event_name) GROUP BY event_name
), dated AS (
    -- a game without a date joins its event's session when the event has exactly one, else
    -- it is a session of its own ("(no Date tag)")
    SELECT g.*,
           CASE WHEN g.date_key IS NOT NULL THEN s.session_date WHEN e.n_known = 1 THEN e.first_date END
               AS session_date,
           CASE WHEN e.n_known > 1 THEN e.n_known + CAST(e.undated AS INTEGER) ELSE 1 END AS n_sessions
    FROM games g JOIN events e USING (event_name) LEFT JOIN sessions s USING (event_name, date_key)
), keyed AS (
    -- every game of a known board (a number, a Board tag or a deal), with its session, its board
    -- (GameRecord.key), its teams match (GameRecord.match) and its room (Open / O, Closed / C)
    SELECT *,
           CASE WHEN n_sessions > 1 THEN event_name || ' (' || coalesce(session_date, 'no Date tag') || ')'
                ELSE event_name END AS session,
           event_name || '|' || coalesce(session_date, '') || '|' || coalesce({_BOARD_NO_SQL}, '') || '|'
               || coalesce(deal, '')
               || '|' || coalesce(dealer, {_DEALER_SQL}, '') || '|' || coalesce(vulnerable, {_VULNERABLE_SQL}, '')
               AS board_key,
           {_clean_sql("section")} || '|' || {_clean_sql("stage")} || '|' || {_clean_sql("round")} || '|'
               || {_clean_sql("home_team")} || '|' || {_clean_sql("visit_team")} AS match_key,
           CASE lower(trim(room)) WHEN 'open' THEN 'Open' WHEN 'o' THEN 'Open'
                                  WHEN 'closed' THEN 'Closed' WHEN 'c' THEN 'Closed' END AS room_key,
           -- issue #18: only the scores handrec score ranks (clean, or what the Laws make of a fault)
           score_ns IS NOT NULL AND score_status IN ('clean', 'by_law') AS ranked
    FROM dated WHERE {_BOARD_NO_SQL} IS NOT NULL OR deal IS NOT NULL
), rooms AS (
    -- each board of each teams match: its Open and Closed games (handrec.events.teams.score_teams)
    SELECT session, match_key, board_key,
           count(*) FILTER (WHERE room_key = 'Open') AS n_open, count(*) FILTER (WHERE room_key = 'Closed') AS n_closed,
           bool_and(ranked) AS both_ranked,
           any_value(score_ns) FILTER (WHERE room_key = 'Open') AS open_ns,
           any_value(score_ns) FILTER (WHERE room_key = 'Closed') AS closed_ns
    FROM keyed WHERE room_key IS NOT NULL GROUP BY session, match_key, board_key
), methods AS (
    -- handrec.events.methods.method_for and cross_for over all the games of each session
    SELECT session,
           CASE WHEN session IN (SELECT session FROM rooms WHERE n_open > 0 AND n_closed > 0) THEN 'imp'
                WHEN list_contains(f, 'BUTLER') THEN 'butler'
                WHEN len(list_filter(f, lambda x: starts_with(x, 'CROSS'))) > 0 THEN 'cross-imp'
                WHEN list_contains(f, 'MP1') THEN 'mp2'
                WHEN list_contains(f, 'IMP') AND NOT list_contains(f, 'MP') THEN 'butler'
                ELSE 'mp' END AS method,
           -- the Cross modifier of the most games (Cross, Cross1, Cross2 in this order on a tie)
           CASE WHEN c0 > 0 AND c0 >= c1 AND c0 >= c2 THEN 'sum' WHEN c1 > 0 AND c1 >= c2 THEN 'scores'
                ELSE 'comparisons' END AS cross_division
    FROM (SELECT session, flatten(list(scoring_fields)) AS f,
                 count(*) FILTER (WHERE list_contains(scoring_fields, 'CROSS')) AS c0,
                 count(*) FILTER (WHERE list_contains(scoring_fields, 'CROSS1')) AS c1,
                 count(*) FILTER (WHERE list_contains(scoring_fields, 'CROSS2')) AS c2
          FROM keyed GROUP BY session)
), games_scored AS (
    SELECT k.*, m.method, m.cross_division FROM keyed k JOIN methods m USING (session)
), st_cells AS (
    -- the elements of the games' ScoreTables (supplemental), a column by its name in any case
    SELECT t.board_id, t."row" AS table_row, lower({_strip_sql('t."column"')}) AS col, {_strip_sql("t.value")} AS v
    FROM supplemental t WHERE t.table_name = 'ScoreTable' AND t.board_id IN (SELECT board_id FROM games_scored)
), st_columns AS (
    SELECT board_id, bool_or(col = 'percentage_ns') AS has_pct_ns, bool_or(col = 'percentage_ew') AS has_pct_ew
    FROM st_cells GROUP BY board_id
), st_pivot AS (
    SELECT board_id, table_row,
           coalesce(any_value(v) FILTER (WHERE col = 'contract'), '?') AS c_contract,
           coalesce(any_value(v) FILTER (WHERE col = 'declarer'), '?') AS c_declarer,
           any_value(v) FILTER (WHERE col = 'result') AS c_result,
           any_value(v) FILTER (WHERE col = 'score_ns') AS c_score_ns,
           any_value(v) FILTER (WHERE col = 'score_ew') AS c_score_ew,
           any_value(v) FILTER (WHERE col = 'pairid_ns') AS c_pair_ns,
           any_value(v) FILTER (WHERE col = 'pairid_ew') AS c_pair_ew,
           any_value(v) FILTER (WHERE col = 'names_ns') AS c_names_ns,
           any_value(v) FILTER (WHERE col = 'names_ew') AS c_names_ew,
           any_value(v) FILTER (WHERE col = 'multiplicity') AS c_mult,
           any_value(v) FILTER (WHERE col = 'percentage_ns') AS c_pct_ns,
           any_value(v) FILTER (WHERE col = 'percentage_ew') AS c_pct_ew,
           bool_or(starts_with(v, '^')) AS marked
    FROM st_cells GROUP BY board_id, table_row
), st_rows AS (
    -- each row as handrec.events.travellers.table_entries reads it: the N-S score computed from
    -- Contract / Declarer / Result and the game's vulnerability (Law 77), else Score_NS, else
    -- minus Score_EW; pairs from PairId_*, else Names_*; Multiplicity 1 to 10,000, else 1
    SELECT p.*, s.has_pct_ns, s.has_pct_ew, g.board_key,
           {_int_cell_sql("p.c_result")} AS tricks,
           coalesce(bridge_score(p.c_contract, p.c_declarer, coalesce(g.vulnerable, {_VULNERABLE_SQL.replace("board", "g.board")}),
                                 {_int_cell_sql("p.c_result")}),
                    {_int_cell_sql("p.c_score_ns")}, -{_int_cell_sql("p.c_score_ew")}) AS t_score,
           {_pair_cell_sql("p.c_pair_ns", "p.c_names_ns")} AS t_pair_ns,
           {_pair_cell_sql("p.c_pair_ew", "p.c_names_ew")} AS t_pair_ew,
           coalesce(CASE WHEN {_int_cell_sql("p.c_mult")} BETWEEN 1 AND 10000 THEN {_int_cell_sql("p.c_mult")} END, 1)
               AS t_multiplicity,
           {_kind_sql("p.c_pct_ns")} AS kind_ns, {_kind_sql("p.c_pct_ew")} AS kind_ew
    FROM st_pivot p JOIN st_columns s USING (board_id) JOIN games_scored g ON g.board_id = p.board_id
    WHERE g.method <> 'imp'
), st_entries AS (
    -- a row with no score and a ^ element is a Law 12C2 artificial score: 60 / 50 / 40 % of the
    -- top from Percentage_NS / Percentage_EW (the other side's mirrored when one is missing)
    SELECT *,
           CASE WHEN t_score IS NULL AND marked THEN
               CASE WHEN NOT has_pct_ns AND has_pct_ew THEN 100 - kind_ew ELSE kind_ns END END AS t_artificial_ns,
           CASE WHEN t_score IS NULL AND marked THEN
               CASE WHEN NOT has_pct_ew THEN 100 - kind_ns ELSE kind_ew END END AS t_artificial_ew
    FROM st_rows
), st_first AS (
    -- a board takes its traveller from the first of its games (in reading order) whose ScoreTable
    -- has a score or an artificial score, its games' own results not added again (PBN 2.1 §5.3;
    -- handrec.events.travellers.travellers); teams sessions compare the rooms' games
    SELECT board_key, min(board_id) AS table_game FROM st_entries
    WHERE t_score IS NOT NULL OR t_artificial_ns IS NOT NULL GROUP BY board_key
), scored AS (
    SELECT g.*, CAST(NULL AS INTEGER) AS table_row, 1 AS multiplicity,
           CAST(NULL AS INTEGER) AS artificial_ns, CAST(NULL AS INTEGER) AS artificial_ew
    FROM games_scored g WHERE g.ranked AND g.board_key NOT IN (SELECT board_key FROM st_first)
    UNION ALL BY NAME
    SELECT g.* REPLACE (
               e.t_score AS score_ns, e.t_pair_ns AS pair_ns, e.t_pair_ew AS pair_ew,
               CASE WHEN e.c_contract NOT IN ('', '?', '-') THEN e.c_contract END AS contract,
               CASE WHEN e.c_declarer NOT IN ('', '?', '-') THEN e.c_declarer END AS declarer,
               e.tricks AS result, CAST(NULL AS VARCHAR) AS room, CAST(NULL AS VARCHAR) AS room_key,
               CAST(NULL AS VARCHAR) AS north, CAST(NULL AS VARCHAR) AS east,
               CAST(NULL AS VARCHAR) AS south, CAST(NULL AS VARCHAR) AS west),
           e.table_row, e.t_multiplicity AS multiplicity, e.t_artificial_ns AS artificial_ns,
           e.t_artificial_ew AS artificial_ew
    FROM st_first f JOIN games_scored g ON g.board_id = f.table_game
    JOIN st_entries e ON e.board_id = f.table_game
    WHERE e.t_score IS NOT NULL OR e.t_artificial_ns IS NOT NULL
), per_score AS (
    -- each distinct score of a board, with how many results had it (Multiplicity counted)
    SELECT board_key, score_ns, CAST(sum(multiplicity) AS INTEGER) AS n
    FROM scored WHERE score_ns IS NOT NULL GROUP BY board_key, score_ns
), compared AS (
    SELECT board_key, score_ns, n - 1 AS tied_ns,
        CAST(coalesce(sum(n) OVER (PARTITION BY board_key ORDER BY score_ns
                                   ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS INTEGER) AS beaten_ns,
        CAST(sum(n) OVER (PARTITION BY board_key) AS INTEGER) AS tables,
        sum(n * score_ns) OVER (PARTITION BY board_key) / sum(n) OVER (PARTITION BY board_key) AS average_ns,
        -- Butler's datum: the mean without one highest and one lowest score (3 results or more)
        CASE WHEN sum(n) OVER (PARTITION BY board_key) >= 3
             THEN (sum(n * score_ns) OVER (PARTITION BY board_key) - max(score_ns) OVER (PARTITION BY board_key)
                   - min(score_ns) OVER (PARTITION BY board_key)) / (sum(n) OVER (PARTITION BY board_key) - 2)
        END AS datum
    FROM per_score
), sizes AS (
    -- per board: its results with a score (tables) and with the artificial ones (size); the
    -- session's largest size is the top every board is scored on (Neuberg)
    SELECT b.board_key, coalesce(c.tables, 0) AS tables, c.average_ns, c.datum,
           max(b.size) OVER (PARTITION BY b.session) AS most
    FROM (SELECT board_key, any_value(session) AS session, CAST(sum(multiplicity) AS INTEGER) AS size
          FROM scored GROUP BY board_key) b
    LEFT JOIN (SELECT DISTINCT board_key, tables, average_ns, datum FROM compared) c USING (board_key)
), crossed AS (
    -- cross-IMPs: the IMPs of a score against every score of its board (its own: 0)
    SELECT a.board_key, a.score_ns, sum(b.n * ({_imps_sql("(a.score_ns - b.score_ns)")})) AS cross_sum
    FROM per_score a JOIN per_score b USING (board_key) GROUP BY a.board_key, a.score_ns
), scaled AS (
    -- Neuberg: (M + 1/2) * N / n - 1/2 on the 1/0.5 scale, (M + 1) * N / n - 1 on the 2/1 scale
    SELECT c.board_key, c.score_ns, x.cross_sum,
           (c.beaten_ns + c.tied_ns / 2.0 + 0.5) * z.most / c.tables - 0.5 AS mp_ns_top
    FROM compared c JOIN sizes z USING (board_key) JOIN crossed x USING (board_key, score_ns)
), imped AS (
    -- an artificial score: 60 / 50 / 40 % of the top; +3 / 0 / -3 IMPs (Butler, 3 results or
    -- more), the same a comparison for cross-IMPs (2 results or more), divided as the played ones
    SELECT s.*, z.tables, z.most, z.average_ns, z.datum,
           CASE WHEN s.score_ns IS NOT NULL THEN x.mp_ns_top ELSE s.artificial_ns / 100.0 * (z.most - 1) END
               AS mp_ns_top,
           CASE WHEN s.score_ns IS NOT NULL THEN z.most - 1 - x.mp_ns_top ELSE s.artificial_ew / 100.0 * (z.most - 1) END
               AS mp_ew_top,
           CASE s.method
               WHEN 'butler' THEN CASE WHEN z.datum IS NOT NULL THEN coalesce({_imps_sql("(s.score_ns - z.datum)")},
                                                                               {_artificial_imps_sql("s.artificial_ns")}) END
               WHEN 'cross-imp' THEN CASE WHEN z.tables >= 2 THEN coalesce(x.cross_sum,
                   {_artificial_imps_sql("s.artificial_ns")} * (z.tables - 1)) / CASE s.cross_division
                   WHEN 'sum' THEN 1 WHEN 'scores' THEN z.tables ELSE z.tables - 1 END END
               WHEN 'imp' THEN CASE WHEN r.n_open = 1 AND r.n_closed = 1 AND r.both_ranked THEN
                   CASE s.room_key WHEN 'Open' THEN {_imps_sql("(r.open_ns - r.closed_ns)")}
                                   ELSE {_imps_sql("(r.closed_ns - r.open_ns)")} END END
           END AS imp_ns,
           CASE WHEN s.score_ns IS NULL THEN CASE s.method
               WHEN 'butler' THEN CASE WHEN z.datum IS NOT NULL THEN {_artificial_imps_sql("s.artificial_ew")} END
               WHEN 'cross-imp' THEN CASE WHEN z.tables >= 2 THEN {_artificial_imps_sql("s.artificial_ew")}
                   * (z.tables - 1) / CASE s.cross_division
                   WHEN 'sum' THEN 1 WHEN 'scores' THEN z.tables ELSE z.tables - 1 END END
           END END AS artificial_imp_ew
    FROM scored s JOIN sizes z USING (board_key)
    LEFT JOIN scaled x ON x.board_key = s.board_key AND x.score_ns = s.score_ns
    LEFT JOIN rooms r ON r.session = s.session AND r.match_key = s.match_key AND r.board_key = s.board_key
                     AND s.room_key IS NOT NULL
)
SELECT board_id, source_file, event, event_name, board, board_key, room, north, east, south, west,
       contract, declarer, result, score_ns, tables, most - 1 AS top,
       round(mp_ns_top, 6) AS mp_ns,
       round(mp_ew_top, 6) AS mp_ew,
       round(2 * mp_ns_top, 6) AS mp2_ns,
       round(2 * mp_ew_top, 6) AS mp2_ew,
       CASE WHEN most > 1 THEN 100.0 * mp_ns_top / (most - 1) END AS pct_ns,
       CASE WHEN most > 1 THEN CASE WHEN score_ns IS NOT NULL THEN 100.0 - 100.0 * mp_ns_top / (most - 1)
                                    ELSE 100.0 * mp_ew_top / (most - 1) END END AS pct_ew,
       {_imps_sql("(score_ns - average_ns)")} AS imps_vs_avg_ns,
       session_date, session, method,
       round(imp_ns, 6) AS imp_ns, round(CASE WHEN score_ns IS NOT NULL THEN -imp_ns ELSE artificial_imp_ew END, 6)
           AS imp_ew,
       CASE WHEN method = 'butler' THEN datum END AS datum,
       pair_ns, pair_ew, match_key, room_key, home_team, visit_team,
       table_row, multiplicity, artificial_ns, artificial_ew
FROM imped
"""

_FROM_BOARDS = "As in boards."

#: The columns of the ``travellers`` view, each with its one-line description (``handrec schema``, docs/sql.md).
TRAVELLERS_COLUMNS: dict[str, str] = {
    "board_id": "The game (boards.board_id); for a ScoreTable row, the game that carries the table.",
    "source_file": _FROM_BOARDS,
    "event": "The Event tag (boards.event).",
    "event_name": "The event compared: the Event tag, else '<source_file> (no Event tag)'.",
    "board": _FROM_BOARDS,
    "board_key": "What makes one board to compare: event, session date, number, deal, dealer, vulnerability.",
    "room": _FROM_BOARDS,
    "north": _FROM_BOARDS,
    "east": _FROM_BOARDS,
    "south": _FROM_BOARDS,
    "west": _FROM_BOARDS,
    "contract": _FROM_BOARDS,
    "declarer": _FROM_BOARDS,
    "result": _FROM_BOARDS,
    "score_ns": "North-South's score computed by handrec (boards.score_ns, or the ScoreTable row's); null for an"
    " artificial score.",
    "tables": "How many times the board was played (its results with a score, Multiplicity counted).",
    "top": "The session's top on the 1/0.5 scale: the most-played board's results (artificial ones too) - 1.",
    "mp_ns": "North-South's matchpoints, 1 a result beaten and 0.5 a tie, on the top (Neuberg when played fewer times).",
    "mp_ew": "East-West's matchpoints on the same scale: top - mp_ns (an artificial score: its own percentage).",
    "mp2_ns": "North-South's matchpoints on the 2/1 scale (2 * mp_ns).",
    "mp2_ew": "East-West's matchpoints on the 2/1 scale.",
    "pct_ns": "North-South's percentage: 100 * mp_ns / top; null when top is 0.",
    "pct_ew": "East-West's percentage: 100 - pct_ns.",
    "imps_vs_avg_ns": "North-South's IMPs against the mean of the board's scores (not Butler's datum).",
    "session_date": "The session's date (YYYY.MM.DD): its first date; null when unknown.",
    "session": "The session's name as handrec score gives it: the event, with its date when it has several.",
    "method": "How handrec score scores the session: mp, mp2, butler, cross-imp or imp (teams), from its tags.",
    "imp_ns": "North-South's IMPs by the session's method: Butler, cross-IMPs or teams; null for matchpoints.",
    "imp_ew": "East-West's IMPs: -imp_ns (an artificial score: its own, +3 / 0 / -3 a comparison).",
    "datum": "The board's Butler datum (the mean without one top and one bottom score); null otherwise.",
    "pair_ns": "North-South's pair as handrec score names it (boards.pair_ns).",
    "pair_ew": "East-West's pair (boards.pair_ew).",
    "match_key": "The teams match: Section|Stage|Round|HomeTeam|VisitTeam.",
    "room_key": "The room as handrec score reads it: Open (Open, O) or Closed (Closed, C), any case; else null.",
    "home_team": _FROM_BOARDS,
    "visit_team": _FROM_BOARDS,
    "table_row": "The row of the board's ScoreTable (supplemental.row) the result comes from; null for a game.",
    "multiplicity": "How many tables had the result (a ScoreTable's Multiplicity; 1 for a game); above 1: not ranked.",
    "artificial_ns": "A Law 12C2 artificial score's percentage of the top for North-South (60, 50, 40); else null.",
    "artificial_ew": "The artificial score's percentage for East-West; else null.",
}

#: The ranking of each session, as ``handrec score`` ranks it (its ``method``, from ``travellers``).
#: Pairs (:func:`handrec.events.pairs.score_pairs`): by session percentage (100 * matchpoints /
#: tops of the boards played) for ``mp`` and ``mp2``, by total IMPs for ``butler`` and
#: ``cross-imp``; one field (direction ``pairs``) when a pair sat N-S on some boards and E-W on
#: others and no board has one pair in both directions (a Howell movement), else N-S and E-W
#: apart; a pair whose boards all had a top of 0 is listed unranked (rank null).  Teams
#: (:func:`handrec.events.teams.score_teams`, direction ``teams``): by net IMPs, the home team
#: (``Home`` without a HomeTeam tag) N-S in the Open room.
RANKINGS_SQL = f"""
CREATE VIEW rankings AS
WITH per_pair AS (
    -- every scored result of a pairs session, a N-S and an E-W row (pair NULL: a name unknown)
    SELECT session AS event, event_name, session_date, method, d.direction, board_key,
           CASE WHEN d.direction = 'NS' THEN pair_ns ELSE pair_ew END AS pair,
           CASE WHEN method = 'mp' THEN CASE WHEN d.direction = 'NS' THEN mp_ns ELSE mp_ew END
                WHEN method = 'mp2' THEN CASE WHEN d.direction = 'NS' THEN mp2_ns ELSE mp2_ew END
                ELSE CASE WHEN d.direction = 'NS' THEN imp_ns ELSE imp_ew END END AS value,
           CASE method WHEN 'mp' THEN top WHEN 'mp2' THEN 2 * top END AS top
    FROM travellers CROSS JOIN (VALUES ('NS'), ('EW')) AS d(direction)
    -- a ScoreTable row with a Multiplicity above 1 is scored but not ranked (several tables)
    WHERE (method IN ('mp', 'mp2') OR (method IN ('butler', 'cross-imp') AND imp_ns IS NOT NULL))
          AND multiplicity = 1
), counted AS (
    -- a side with its pair unknown is not ranked (the other side still is)
    SELECT * FROM per_pair WHERE pair IS NOT NULL
), both_ways AS (
    -- a board with one pair both N-S and E-W: two pairs of one name (a Mitchell), not a Howell
    SELECT DISTINCT a.session AS event FROM travellers a JOIN travellers b
        ON a.board_key = b.board_key AND a.pair_ns = b.pair_ew
    WHERE a.method IN ('mp', 'mp2', 'butler', 'cross-imp')
), howell AS (
    SELECT DISTINCT event FROM counted GROUP BY event, pair HAVING count(DISTINCT direction) > 1
), fields AS (
    SELECT c.event, c.event_name, c.session_date, c.method,
           CASE WHEN c.event IN (SELECT event FROM howell) AND c.event NOT IN (SELECT event FROM both_ways)
                THEN 'pairs' ELSE c.direction END AS direction,
           c.pair, c.value, c.top
    FROM counted c
), pair_totals AS (
    SELECT event, any_value(method) AS method, direction, pair, CAST(count(*) AS INTEGER) AS boards,
           sum(value) AS total, sum(top) AS tops,
           any_value(event_name) AS event_name, any_value(session_date) AS session_date
    FROM fields GROUP BY event, direction, pair
), team_rows AS (
    -- each board of a match scored (travellers' Open-room game with its IMPs): the home team's
    -- IMPs, and the visiting team's
    SELECT session AS event, event_name, session_date, t.team, t.v
    FROM travellers CROSS JOIN LATERAL (
        VALUES (coalesce(nullif({_clean_sql("home_team")}, ''), 'Home'), imp_ns),
               (coalesce(nullif({_clean_sql("visit_team")}, ''), 'Visit'), -imp_ns)
    ) AS t(team, v)
    WHERE method = 'imp' AND room_key = 'Open' AND imp_ns IS NOT NULL
), team_totals AS (
    SELECT event, 'imp' AS method, 'teams' AS direction, team AS pair, CAST(count(*) AS INTEGER) AS boards,
           sum(greatest(v, 0)) AS won, sum(greatest(-v, 0)) AS lost,
           any_value(event_name) AS event_name, any_value(session_date) AS session_date
    FROM team_rows GROUP BY event, team
), ranked AS (
    SELECT event, method, direction, pair, boards,
           CASE WHEN method IN ('mp', 'mp2') THEN total END AS mp,
           CASE WHEN method IN ('mp', 'mp2') THEN CAST(tops AS INTEGER) END AS top,
           CASE WHEN method IN ('mp', 'mp2') AND tops > 0 THEN 100.0 * total / tops END AS pct_exact,
           CASE WHEN method IN ('butler', 'cross-imp') THEN total END AS imps,
           CAST(NULL AS DOUBLE) AS won, CAST(NULL AS DOUBLE) AS lost,
           CASE WHEN method IN ('mp', 'mp2') THEN CASE WHEN tops > 0 THEN 100.0 * total / tops END ELSE total END
               AS rank_key,
           event_name, session_date
    FROM pair_totals
    UNION ALL
    SELECT event, method, direction, pair, boards, NULL, NULL, NULL, won - lost, won, lost, won - lost,
           event_name, session_date
    FROM team_totals
)
SELECT event, method, direction, pair, boards, round(mp, 6) AS mp, top, round(pct_exact, 2) AS pct,
       round(imps, 6) AS imps, round(won, 6) AS won, round(lost, 6) AS lost,
       CASE WHEN rank_key IS NOT NULL
            THEN rank() OVER (PARTITION BY event, direction ORDER BY round(rank_key, 9) DESC NULLS LAST) END AS rank,
       event_name, session_date
FROM ranked
"""

#: The columns of the ``rankings`` view, each with its one-line description.
RANKINGS_COLUMNS: dict[str, str] = {
    "event": "The session ranked (travellers.session): the event's name, with its date when it has several.",
    "method": "How the session is scored and ranked (travellers.method): mp, mp2, butler, cross-imp or imp.",
    "direction": "NS or EW; pairs for one field (a Howell movement); teams for a teams match.",
    "pair": "The pair as handrec score names it (boards.pair_ns / pair_ew), or the team.",
    "boards": "How many boards the pair (or team) played and had scored in the session.",
    "mp": "The pair's matchpoints on the method's scale (mp: 1/0.5, mp2: 2/1), summed; null for IMPs.",
    "top": "The sum of the tops of those boards on that scale; null for IMPs.",
    "pct": "100 * mp / top, rounded to 2 decimals; null for IMPs, or when top is 0.",
    "imps": "The pair's IMPs summed (butler, cross-imp), or the team's net IMPs (won - lost); null for matchpoints.",
    "won": "A team's IMPs won (teams only).",
    "lost": "A team's IMPs lost (teams only).",
    "rank": "The place in its session and direction, by pct or imps (ties share a rank); null when unranked.",
    "event_name": "The event (travellers.event_name).",
    "session_date": "The session's date (travellers.session_date).",
}
