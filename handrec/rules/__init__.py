"""Rules engine: auction, play and board replay (Laws of Duplicate Bridge)."""
