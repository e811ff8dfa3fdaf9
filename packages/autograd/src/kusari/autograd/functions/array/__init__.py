"""Array manipulation functions."""
