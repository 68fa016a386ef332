"""USEBIO, the XML results format of the scoring world (usebio.md): safe XML (:mod:`.xml`),
the reader (:mod:`.reader`, with :mod:`.participants`, :mod:`.tables`, :mod:`.structure`),
element values (:mod:`.values`) and the writer (:mod:`.writer`)."""
