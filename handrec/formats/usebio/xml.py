"""Safe XML for USEBIO: bytes to a small element tree, every element with its line and column.

The parser is :mod:`defusedxml`'s SAX driver for the expat C module
(:class:`defusedxml.expatreader.DefusedExpatParser`), fed in blocks: chosen over
``lxml`` because it is pure Python over the standard library's expat (no compiled
dependency), refuses entity declarations and external references by default, and its
SAX events carry the line and column that every USEBIO diagnostic needs (ElementTree
drops them).  On top of what defusedxml refuses:

* no DTD is ever loaded or fetched: a ``DOCTYPE`` naming one (the EBU's
  ``usebio_v1_2.dtd`` URL in real files) is accepted and ignored (parameter-entity
  parsing is off, so expat never asks for the external subset); a ``DOCTYPE`` naming a
  DTD other than USEBIO's gets an F025 warning; an internal subset (``[...]``) is
  refused (F023): USEBIO has no use for one, and it is where entity bombs and attribute
  defaults hide;
* an entity declaration (billion laughs), an external entity, and a reference to an entity
  that only a DTD could declare (expat skips it when a DOCTYPE names a DTD) are refused
  (F023);
* elements deeper than :data:`MAX_DEPTH` (USEBIO nests 7 deep), a text node longer than
  :attr:`Limits.max_line_bytes <handrec.inputs.entries.Limits.max_line_bytes>`, more
  elements than one per 16 bytes of the document limit, and a document over
  :attr:`Limits.max_board_bytes <handrec.inputs.entries.Limits.max_board_bytes>` are
  refused (F024): the reading stops there, so memory stays bounded whatever the input;
  the file or member size limits of the other readers apply too (F010);
* XML that is not well-formed (bad UTF-8 included) is F022 at the position expat gives;
  the elements closed before it are kept (a file cut short gives its complete traveller
  lines).

Positions are 1-based file lines and 1-based columns in characters (expat counts
characters, not bytes).  Source: XML 1.0 (well-formedness, §2.8 document type
declaration); usebio.md "Document".
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from xml.parsers import expat
from xml.sax import SAXParseException
from xml.sax.handler import ContentHandler

from defusedxml.common import DefusedXmlException, EntitiesForbidden, ExternalReferenceForbidden
from defusedxml.expatreader import DefusedExpatParser

from handrec.diagnostics import Diagnostic, make
from handrec.model import Span

__all__ = ["Element", "XmlResult", "parse_xml", "parse_xml_bytes", "MAX_DEPTH", "USEBIO_DTDS"]

#: The deepest element nesting read (USEBIO's deepest is 7: USEBIO EVENT SESSION SECTION
#: BOARD TRAVELLER_LINE and a value).
MAX_DEPTH = 32
#: Bytes of input per element allowed: a document of ``n`` bytes may hold ``n // 16`` elements.
BYTES_PER_ELEMENT = 16
#: Read size (bytes).
CHUNK = 1 << 16
#: The DTD file names USEBIO files name in their DOCTYPE (any folder or host): never loaded.
USEBIO_DTDS = ("usebio_v1_0.dtd", "usebio_v1_1.dtd", "usebio_v1_2.dtd", "usebio_v1_3.dtd", "usebio.dtd")


#: Elements that hold other elements only: kept open at a fault (see :func:`parse_xml`).
_CONTAINERS = frozenset({"USEBIO", "EVENT", "SESSION", "SECTION", "PARTICIPANTS", "HANDSET", "MATCH"})


class Element:
    """One XML element: ``tag``, ``attrs`` (a dict), ``text`` (its character data,
    stripped of surrounding blanks), ``children`` in order, ``line`` / ``column`` of its
    start tag (1-based, columns in characters), ``offset`` its byte offset in the file,
    ``closed`` whether its end tag was read (an element left open by a fault is not)."""

    __slots__ = ("tag", "attrs", "children", "line", "column", "offset", "text", "closed", "_chunks")

    def __init__(self, tag: str, attrs: dict[str, str], line: int, column: int, offset: int = 0) -> None:
        self.tag = tag
        self.offset = offset
        self.closed = False
        self.attrs = attrs
        self.children: list[Element] = []
        self.line = line
        self.column = column
        self.text = ""
        self._chunks: list[str] = []

    @property
    def span(self) -> Span:
        """The start tag's position."""
        return Span(self.line, self.column)

    def find(self, tag: str) -> Element | None:
        """The first child called ``tag``."""
        for c in self.children:
            if c.tag == tag:
                return c
        return None

    def findall(self, tag: str) -> list[Element]:
        """The children called ``tag``, in order."""
        return [c for c in self.children if c.tag == tag]

    def value(self, tag: str) -> str | None:
        """The text of the first child called ``tag``; ``None`` when there is none."""
        c = self.find(tag)
        return None if c is None else c.text

    def iter(self, tag: str) -> Iterator[Element]:
        """Every element called ``tag`` below this one (depth first, document order)."""
        for c in self.children:
            if c.tag == tag:
                yield c
            yield from c.iter(tag)

    def __repr__(self) -> str:
        return f"<Element {self.tag} at {self.line}:{self.column}, {len(self.children)} children>"


@dataclass
class XmlResult:
    """What :func:`parse_xml` read: the ``root`` element (``None`` when none was opened),
    whether the document was read ``complete`` (well-formed to its end, nothing refused),
    the ``doctype`` system id (``None`` without one), and the file-level ``diagnostics``."""

    root: Element | None
    complete: bool
    doctype: str | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    refused: bool = False
    sha256: str | None = None
    nbytes: int = 0


class _Stop(Exception):
    """Reading stops here: a limit or a refused construct (the diagnostic is already made)."""


class _Parser(DefusedExpatParser):
    """defusedxml's expat driver with parameter entities off and the DOCTYPE watched."""

    def __init__(self, on_doctype) -> None:
        super().__init__(forbid_dtd=False, forbid_entities=True, forbid_external=True)
        self._on_doctype = on_doctype

    def reset(self) -> None:
        super().reset()
        p = self._parser
        # never read the external DTD subset (nor any parameter entity): the DOCTYPE's
        # system id is not even asked for
        p.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        p.StartDoctypeDeclHandler = self._on_doctype


class _Builder(ContentHandler):
    def __init__(self, parser: _Parser, path: str, out: list[Diagnostic], max_text: int, max_elements: int) -> None:
        super().__init__()
        self.p = parser
        self.path = path
        self.out = out
        self.max_text = max_text
        self.max_elements = max_elements
        self.stack: list[Element] = []
        self.root: Element | None = None
        self.count = 0
        self.text_size = 0

    def _here(self) -> Span:
        return Span(self.p.getLineNumber() or 1, (self.p.getColumnNumber() or 0) + 1)

    def startElement(self, name: str, attrs) -> None:  # noqa: N802 (SAX names)
        at = self._here()
        if len(self.stack) >= MAX_DEPTH:
            self.out.append(
                make("F024", None, at, path=self.path, what=f"element nesting ({name})", limit=f"{MAX_DEPTH} levels")
            )
            raise _Stop
        self.count += 1
        if self.count > self.max_elements:
            self.out.append(
                make("F024", None, at, path=self.path, what="the number of elements", limit=f"{self.max_elements}")
            )
            raise _Stop
        try:
            offset = self.p._parser.CurrentByteIndex
        except AttributeError:
            offset = 0
        e = Element(name, dict(attrs.items()), at.line, at.column, max(offset, 0))
        if self.stack:
            self.stack[-1].children.append(e)
        elif self.root is None:
            self.root = e
        self.stack.append(e)
        self.text_size = 0

    def endElement(self, name: str) -> None:  # noqa: N802
        e = self.stack.pop()
        e.closed = True
        if e._chunks:
            e.text = "".join(e._chunks).strip()
            e._chunks = []
        self.text_size = 0

    def skippedEntity(self, name: str) -> None:  # noqa: N802
        # an entity a DTD would declare (the external subset is never read): refused, not
        # dropped silently from the text
        self.out.append(
            make(
                "F023",
                None,
                self._here(),
                path=self.path,
                what=f"entity reference &{name.lstrip('%')};",
                reason="its declaration would be in a DTD, and no DTD is ever loaded",
            )
        )
        raise _Stop

    def characters(self, content: str) -> None:
        if not self.stack:
            return
        self.text_size += len(content)
        if self.text_size > self.max_text:
            e = self.stack[-1]
            self.out.append(
                make(
                    "F024",
                    None,
                    e.span,
                    path=self.path,
                    what=f"the text of {e.tag}",
                    limit=f"{self.max_text} characters",
                )
            )
            raise _Stop
        self.stack[-1]._chunks.append(content)


def parse_xml(chunks: Iterator[bytes], path: str, *, max_document: int, max_text: int) -> XmlResult:
    """Parse an XML document given as blocks of bytes into :class:`Element` s, safely.

    ``max_document``: the most bytes read (F024 past it); ``max_text``: the longest text
    node in characters (F024).  Never raises for bad input: faults are in the result's
    ``diagnostics`` (F022 not well-formed, F023 refused, F024 over a limit, F025 an unknown
    DTD named).  Exceptions of the ``chunks`` iterator (read errors) propagate.

    >>> r = parse_xml(iter([b'<?xml version="1.0"?>\\n<USEBIO Version="1.2">', b"<CLUB/></USEBIO>"]), "x.xml",
    ...               max_document=1000, max_text=100)
    >>> r.complete, r.root.tag, r.root.attrs, r.root.children[0].span
    (True, 'USEBIO', {'Version': '1.2'}, Span(line=2, column=23))
    >>> r = parse_xml(iter([b'<!DOCTYPE a [<!ENTITY x "xx">]><a>&x;</a>']), "b.xml", max_document=1000, max_text=9)
    >>> [str(d) for d in r.diagnostics], r.root
    (['b.xml:1:13: F023 error: DOCTYPE internal subset refused: USEBIO needs no DTD declarations (entity bombs and attribute defaults hide there)'], None)
    """
    out: list[Diagnostic] = []
    doctype: list[str | None] = []

    def on_doctype(name: str, sysid: str | None, pubid: str | None, has_internal_subset: int) -> None:
        doctype.append(sysid)
        at = Span(parser.getLineNumber() or 1, (parser.getColumnNumber() or 0) + 1)
        if has_internal_subset:
            out.append(
                make(
                    "F023",
                    None,
                    at,
                    path=path,
                    what="DOCTYPE internal subset",
                    reason="USEBIO needs no DTD declarations (entity bombs and attribute defaults hide there)",
                )
            )
            raise _Stop
        if sysid and sysid.replace("\\", "/").rsplit("/", 1)[-1].lower() not in USEBIO_DTDS:
            out.append(make("F025", None, at, path=path, name=name, dtd=sysid))

    parser = _Parser(on_doctype)
    builder = _Builder(parser, path, out, max_text, max(1, max_document // BYTES_PER_ELEMENT))
    parser.setContentHandler(builder)
    complete = False
    refused = False
    n = 0
    hasher = hashlib.sha256()
    try:
        for chunk in chunks:
            n += len(chunk)
            if n > max_document:
                out.append(
                    make(
                        "F024",
                        None,
                        Span(parser.getLineNumber() or 1, (parser.getColumnNumber() or 0) + 1),
                        path=path,
                        what="the USEBIO document (read whole: its hand records come last)",
                        limit=f"{max_document} bytes (--max-board-size)",
                    )
                )
                raise _Stop
            hasher.update(chunk)
            parser.feed(chunk)
        parser.close()
        complete = True
    except _Stop:
        refused = True
    except SAXParseException as e:
        out.append(
            make(
                "F022",
                None,
                Span(e.getLineNumber() or 1, (e.getColumnNumber() or 0) + 1),
                path=path,
                detail=e.getMessage(),
            )
        )
    except EntitiesForbidden as e:
        refused = True
        out.append(
            make(
                "F023",
                None,
                Span(parser.getLineNumber() or 1, (parser.getColumnNumber() or 0) + 1),
                path=path,
                what=f"entity declaration {e.name!r}",
                reason="USEBIO needs no entities (a billion-laughs bomb declares them)",
            )
        )
    except ExternalReferenceForbidden as e:
        refused = True
        out.append(
            make(
                "F023",
                None,
                Span(parser.getLineNumber() or 1, (parser.getColumnNumber() or 0) + 1),
                path=path,
                what=f"external entity {e.sysid!r}",
                reason="nothing outside the file is ever loaded",
            )
        )
    except DefusedXmlException as e:  # any other construct defusedxml refuses
        refused = True
        out.append(
            make(
                "F023",
                None,
                Span(parser.getLineNumber() or 1, (parser.getColumnNumber() or 0) + 1),
                path=path,
                what=type(e).__name__,
                reason=str(e),
            )
        )
    finally:
        try:
            parser._parser = None  # free expat's buffers at once (a refused document is dropped)
        except AttributeError:
            pass
    if complete:
        return XmlResult(builder.root, True, doctype[0] if doctype else None, out, False, hasher.hexdigest(), n)
    # a document cut short: the elements closed before the fault stay; of those still open,
    # the containers stay (their closed children are whole) and the rest go (a traveller line
    # or a hand cut in the middle is not read as if it were complete)
    for parent, child in zip(builder.stack, builder.stack[1:]):
        if child.tag not in _CONTAINERS and not (child.tag == "BOARD" and parent.tag != "HANDSET"):
            parent.children.remove(child)
            break
    return XmlResult(None if refused else builder.root, False, doctype[0] if doctype else None, out, refused, None, n)


def parse_xml_bytes(
    data: bytes, path: str = "<string>", *, max_document: int = 16 << 20, max_text: int = 1 << 20
) -> XmlResult:
    """:func:`parse_xml` of bytes held in memory (tests, small inputs)."""
    return parse_xml(
        iter([data[i : i + CHUNK] for i in range(0, len(data), CHUNK)] or [b""]),
        path,
        max_document=max_document,
        max_text=max_text,
    )
