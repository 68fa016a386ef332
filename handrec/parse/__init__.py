"""Lark parsers and Transformers that build typed records from PBN and LIN."""
