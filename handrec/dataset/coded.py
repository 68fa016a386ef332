"""Text columns of a few fixed values kept as dictionary arrays between the reading and the Parquet write.

The ``plays`` table's ``seat``, ``card`` and ``winner`` take one of 4 or 52 values.  Kept as
Arrow dictionary arrays of one fixed dictionary each (:data:`CODED`) -- built from the cards'
and seats' codes, written to the part files so, and handed to the Parquet writer so -- the
writer stores the codes it is given instead of hashing every text again: the ``plays``
Parquet write costs half as much (issue #23.2: about 32,000 instructions a board less).  The
dataset's Parquet files are the same as before to every reader: each column is
dictionary-encoded text in Parquet either way, and the Arrow schema written into the file
(``ARROW:schema``, the one :data:`handrec.dataset.tables.SCHEMAS` gives) says ``string``, so
pyarrow reads ``string`` and DuckDB ``VARCHAR``.

:func:`part_schema` is a table's schema with those columns as dictionaries (the part files',
:class:`handrec.dataset.store.PartWriter`); :func:`coded` makes rows of the dataset's schema
(an older dataset's, an older work folder's) fit it; :func:`arrow_schema_metadata` is the
key-value metadata that gives a Parquet file written from such rows the dataset's schema.
"""

from __future__ import annotations

import base64

import pyarrow as pa
import pyarrow.compute as pc

from handrec.model import ALL_CARDS

__all__ = ["CODED", "DICT_TYPE", "part_schema", "coded", "arrow_schema_metadata"]

_SEATS = pa.array(["N", "E", "S", "W"], pa.string())
#: ``CODED[table][column]``: the fixed dictionary of a coded column (its code is the index).
CODED: dict[str, dict[str, pa.Array]] = {
    "plays": {"seat": _SEATS, "card": pa.array([str(c) for c in ALL_CARDS], pa.string()), "winner": _SEATS},
}
#: The type of a coded column.
DICT_TYPE = pa.dictionary(pa.int8(), pa.string())


def part_schema(table: str, schema: pa.Schema) -> pa.Schema:
    """``schema`` (the dataset's ``table``) with the coded columns of ``table`` as :data:`DICT_TYPE`
    (their field metadata kept)."""
    cols = CODED.get(table)
    if not cols:
        return schema
    for name in cols:
        i = schema.get_field_index(name)
        f = schema.field(i)
        schema = schema.set(i, pa.field(name, DICT_TYPE, f.nullable, f.metadata))
    return schema


def coded(table: str, t: pa.Table) -> pa.Table:
    """``t`` (rows of ``table``, its coded columns text or dictionaries) with each coded column on
    its fixed dictionary; a value not in it (never written by handrec) keeps the column a
    dictionary of its own values: nothing is lost."""
    cols = CODED.get(table)
    if not cols:
        return t
    for name, dictionary in cols.items():
        i = t.schema.get_field_index(name)
        col = t.column(i)
        if pa.types.is_dictionary(col.type) and all(c.dictionary.equals(dictionary) for c in col.chunks):
            continue
        text = col.cast(pa.string())
        codes = pc.index_in(text, value_set=dictionary).cast(pa.int8())
        if codes.null_count == text.null_count:
            new = pa.chunked_array(
                [pa.DictionaryArray.from_arrays(c, dictionary) for c in codes.chunks], type=DICT_TYPE
            )
        else:
            new = text.dictionary_encode().cast(DICT_TYPE)
        t = t.set_column(i, t.schema.field(i).with_type(DICT_TYPE), new)
    return t


def arrow_schema_metadata(schema: pa.Schema) -> dict[str, str]:
    """The Parquet key-value metadata of a file of the dataset's ``schema`` (with its metadata)
    written from rows of :func:`part_schema`: its own metadata, and ``ARROW:schema`` (the
    serialized ``schema``, base64, as Arrow's Parquet writer stores it), so that a reader
    restores ``string`` where the rows were dictionaries."""
    out = {k.decode(): v.decode() for k, v in (schema.metadata or {}).items()}
    out["ARROW:schema"] = base64.b64encode(schema.serialize().to_pybytes()).decode()
    return out
