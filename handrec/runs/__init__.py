"""Long runs over many inputs: validate and convert over a process pool or a Dask cluster, with early stop and resume."""
