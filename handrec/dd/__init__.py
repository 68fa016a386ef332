"""Double-dummy analysis: the DDS solver (through endplay), par, and the cache of solved deals."""
