"""USEBIO, the XML results format of the scoring world: safe XML (:mod:`.xml`), the
reader (:mod:`.reader`), element values (:mod:`.values`) and the writer (:mod:`.writer`)."""
