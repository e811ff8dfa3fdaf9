"""Mathematical functions."""
