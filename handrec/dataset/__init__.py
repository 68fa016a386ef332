"""Arrow schemas and tables, the Parquet dataset that ``convert`` writes, and the DuckDB views that ``query`` reads."""
