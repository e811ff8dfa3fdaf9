"""The conformance harness: strategies, records and generic checks."""
