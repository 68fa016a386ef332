"""Running a Lark LALR parser on a prepared token list, without its front end.

Both readers frame a file into records (PBN games, LIN deals) and lex each
record themselves (:mod:`handrec.formats.pbn.parser`, :mod:`handrec.formats.lin.reader`), so a
parse is a short token list handed to Lark's LALR parser with the grammar's
Transformer callbacks.  :meth:`lark.Lark.parse` pays a front end for every
call (a lexer thread, start-rule checks) and Lark's parse table holds rule
objects that are equal to the callbacks' keys but not the same objects, so
every reduce step compares rules and tokens with Python-level ``__eq__``.
:func:`feeder` builds the same parse with that cost removed: Lark's own
``ParserState`` fed the tokens and the end token, as ``parse_from_state``
does, over a copy of the parse table whose keys are plain.  Lark still does
the parse.  The steps of an LALR parse (shift, or reduce by a rule) depend
only on the token types, so the steps of each type sequence are kept (a
*plan*, recorded from Lark's parser the first time): a later record whose
tokens have the same types runs its callbacks in the same order without
looking at the table.  A file's records take a few shapes.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import lark
from lark import Lark, Token

__all__ = ["feeder", "lalr_parser", "lark_cache_dir"]


def lark_cache_dir() -> Path | None:
    """Where :func:`lalr_parser` keeps Lark's analysed grammars: ``$HANDREC_LARK_CACHE`` (empty:
    no cache), else ``$XDG_CACHE_HOME/handrec/lark``, else ``~/.cache/handrec/lark``.

    ``None`` (no cache) when the folder cannot be made, is not writable, or belongs to another
    user or is writable by others: the files hold pickles, read only from the user's own folder.
    """
    env = os.environ.get("HANDREC_LARK_CACHE")
    if env is not None:
        if not env.strip():
            return None
        folder = Path(env)
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        folder = Path(base) / "handrec" / "lark"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = folder.stat()
    except OSError:
        return None
    if (hasattr(os, "getuid") and st.st_uid != os.getuid()) or st.st_mode & 0o022 or not os.access(folder, os.W_OK):
        return None
    return folder


def lalr_parser(grammar: str, **options: Any) -> Lark:
    """``Lark(grammar, parser="lalr", **options)``, its grammar analysis cached on disk (Lark's
    ``cache=``: about 1 ms to load against 5-20 ms to build, and Lark's grammar of grammars
    not built at all) in :func:`lark_cache_dir`; without a usable folder, built as usual.

    The file is named by a hash of the grammar, the options (the transformer aside: Lark does
    not store it), the Lark and Python versions, and Lark checks its own hash of the same on
    load; a file that does not load is rebuilt.  A new file is written under a temporary name,
    then renamed, so that processes starting at once never read half a file.
    """
    options = {"parser": "lalr", **options}
    folder = lark_cache_dir()
    if folder is None:
        return Lark(grammar, **options)
    key = "".join(f"{k}={v}" for k, v in sorted(options.items()) if k != "transformer")
    digest = hashlib.sha256(f"{grammar}\0{key}\0{lark.__version__}\0{sys.version}".encode()).hexdigest()[:24]
    path = folder / f"lalr-{digest}.cache"
    if path.is_file():
        return Lark(grammar, cache=str(path), **options)
    tmp = folder / f".lalr-{digest}.{os.getpid()}.tmp"
    parser = Lark(grammar, cache=str(tmp), **options)  # Lark writes the file (or, failing, says nothing)
    try:
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
    return parser


class _RuleRef:
    """What Lark's ``ParserState.feed_token`` reads of a grammar rule it reduces: its
    ``origin.name`` (a plain str) and the length of its ``expansion``."""

    __slots__ = ("origin", "expansion", "name")

    def __init__(self, name: str, size: int) -> None:
        self.origin = self  # feed_token reads rule.origin.name
        self.name = name
        self.expansion = (None,) * size


#: Records of at most this many tokens have their parse steps kept (at most 1,024 shapes):
#: the usual records are a handful of tokens, and memory stays small whatever the input.
_PLAN_TOKENS = 64


def feeder(lalr: Lark) -> Callable[[list[Token]], Any] | None:
    """A function ``parse(tokens)`` giving what ``lalr.parse(tokens)`` gives for a Lark
    built with ``parser="lalr"``, a pass-through lexer and the Transformer in the
    constructor (no tree), at a fraction of the cost per call.

    Each rule of the parse table becomes one :class:`_RuleRef` (compared by identity)
    and each name a plain str.  None when Lark's internals are not as expected, or the
    grammar has token callbacks (the caller then uses ``lalr.parse``).
    """
    try:
        from lark.parsers.lalr_analysis import Shift
        from lark.parsers.lalr_parser_state import ParseConf, ParserState

        inner = lalr.parser.parser.parser  # type: ignore[attr-defined]
        table = inner.parse_table
        callbacks = inner.callbacks
        refs: dict[Any, _RuleRef] = {}  # Rule (by equality) -> its _RuleRef
        plain_callbacks: dict[Any, Any] = {}
        states: dict[Any, dict[str, tuple[Any, Any]]] = {}
        for state, actions in table.states.items():
            row = states[state] = {}
            for name, (action, arg) in actions.items():
                if action is not Shift:
                    ref = refs.get(arg)
                    if ref is None:
                        ref = refs[arg] = _RuleRef(str(arg.origin.name), len(arg.expansion))
                        plain_callbacks[ref] = callbacks[arg]
                    arg = ref
                row[str(name)] = (action, arg)
        if any(isinstance(k, str) for k in callbacks):  # token callbacks: not in these grammars
            return None
        (start,) = lalr.options.start
        conf = ParseConf(table, plain_callbacks, start)
        conf.states = states
    except Exception:  # pragma: no cover - another Lark version
        return None

    # The steps Lark's parser takes depend only on the token types, so they are kept by
    # the tuple of types: a token list of a type sequence already parsed is run through
    # the same steps (each rule's callback on the values it reduces) without the table.
    log: list[tuple[Callable[[list[Any]], Any], int] | None] = []

    def recorder(callback: Callable[[list[Any]], Any], size: int) -> Callable[[list[Any]], Any]:
        def record(children: list[Any]) -> Any:
            log.append((callback, size))
            return callback(children)

        return record

    recording = ParseConf(table, {ref: recorder(cb, len(ref.expansion)) for ref, cb in plain_callbacks.items()}, start)
    recording.states = states
    plans: dict[tuple[str, ...], list[tuple[Callable[[list[Any]], Any], int] | None]] = {}

    def run(parse_conf: ParseConf, tokens: list[Token], shifts: list[Any] | None) -> Any:
        """Lark's parse of ``tokens`` (a None into ``shifts`` after each token shifted)."""
        feed = ParserState(parse_conf, None).feed_token  # type: ignore[arg-type]
        tok = None
        for tok in tokens:
            feed(tok)
            if shifts is not None:
                shifts.append(None)
        end = Token.new_borrow_pos("$END", "", tok) if tok is not None else Token("$END", "", 0, 1, 1)
        return feed(end, True)

    def parse(tokens: list[Token]) -> Any:
        if len(tokens) > _PLAN_TOKENS:  # a long record (comments, many sections): Lark alone
            return run(conf, tokens, None)
        key = tuple([tok.type for tok in tokens])
        plan = plans.get(key)
        if plan is not None:
            stack: list[Any] = []
            push = stack.append
            at = 0
            for step in plan:
                if step is None:  # shift the next token
                    push(tokens[at])
                    at += 1
                else:  # reduce: the rule's callback on its last ``size`` values
                    callback, size = step
                    if size:
                        children = stack[-size:]
                        del stack[-size:]
                    else:
                        children = []
                    push(callback(children))
            return stack[-1]
        log.clear()
        value = run(recording, tokens, log)
        if len(plans) >= 1024:
            plans.clear()
        plans[key] = log.copy()
        return value

    return parse
