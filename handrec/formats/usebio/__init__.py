"""USEBIO, the XML results format of the scoring world (usebio.md): safe XML (:mod:`.xml`),
the reader (:mod:`.reader`, with :mod:`.participants`, :mod:`.pbn_tables`, :mod:`.structure`),
element values (:mod:`.elements`) and the writer (:mod:`.writer`)."""
