"""Observations the user tests write for the comparison: one JSON list
per name, in the directory named by ``USER_TESTS_OUT``."""
import json
import os
from pathlib import Path


def add(name, value):
    path = Path(os.environ['USER_TESTS_OUT']) / f'{name}.jsonl'
    with open(path, 'a') as stream:
        stream.write(json.dumps(value) + '\n')
