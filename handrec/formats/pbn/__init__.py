"""PBN (Portable Bridge Notation 2.1): the reader, the tag value grammar and the writer."""
